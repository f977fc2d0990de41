// Page 4, simulate: N battles of a scenario between its AI sides (each at the level chosen for it), played by the
// server in the background, with a progress bar and a Cancel button; then each side's win rate with its 95%
// interval, the draws, and the histogram of casualties (or of any other number of the battle summary) by side. A
// simulation cancelled or out of time shows the results of the battles it finished, said so above them. The address
// keeps ?sim, so a link shows the same results.

import { currentLang, query, setQuery } from "./address.js";
import { AiLevels, aiPlays } from "./ailevels.js";
import { ApiError, deleteJSON, getJSON, postJSON } from "./api.js";
import { drawChart } from "./chart.js";
import { element } from "./dom.js";
import { Fraction } from "./fraction.js";
import { ScenarioPicker } from "./picker.js";
import { t } from "./words.js";

const SERIES = ["series-a", "series-b", "series-c", "series-d"];
const POLL_MS = 300;
const ENDED_WITH_RESULTS = ["done", "stopped", "cancelled"];

let view = null;
let polling = 0;

function pct(x) {
  return `${(x * 100).toFixed(1)}%`;
}

export async function mount(app) {
  polling += 1;
  const runs = element("input", { type: "number", id: "sim-runs", min: 1, max: 10000, step: 1, value: query().get("runs") || 200 });
  const seed = element("input", { type: "number", id: "sim-seed", min: 0, step: 1, value: query().get("seed") || 1 });
  const problem = element("div", { class: "error-line", role: "alert", id: "sim-error", hidden: true });
  const run = element("button", { type: "button", class: "primary", "data-action": "simulate", text: t("run_simulation"), disabled: true });
  const ai = new AiLevels({ id: "sim-ai-levels" });
  const picker = new ScenarioPicker({
    lang: currentLang(),
    chosen: query().get("scenario"),
    onChange: (preview) => {
      run.disabled = !preview;
      ai.show(preview ? preview.sides : []);
    },
  });
  run.addEventListener("click", () => start());
  const bar = element("progress", { id: "sim-progress", max: 1, value: 0 });
  const status = element("p", { class: "status", id: "sim-status", "aria-live": "polite" });
  const cancel = element("button", { type: "button", "data-action": "cancel-simulation", text: t("cancel_simulation"), hidden: true });
  const results = element("div", { class: "sim-results", id: "sim-results" });
  const levels = element("p", { class: "hint", id: "sim-ai" });
  view = { runs, seed, problem, picker, run, bar, status, cancel, results, ai, levels };
  app.replaceChildren(
    element(
      "div",
      { class: "simulate-layout" },
      element(
        "section",
        { class: "card setup" },
        element("h2", { text: t("simulate_heading") }),
        picker.element,
        element("div", { class: "row" }, element("label", { for: "sim-runs", text: t("battles") }), runs),
        element("div", { class: "row" }, element("label", { for: "sim-seed", text: t("seed") }), seed),
        ai.element,
        element("div", { class: "row" }, run),
        element("p", { class: "hint", text: t("simulate_hint") }),
        problem,
      ),
      element("section", { class: "card sim-stage" }, element("div", { class: "progress-row" }, bar, status, cancel), levels, results),
    ),
  );
  const id = query().get("sim");
  if (id) follow(id);
}

async function start() {
  view.problem.hidden = true;
  view.run.disabled = true;
  try {
    const made = await postJSON("/api/simulations", { ...view.picker.value(), runs: Number(view.runs.value), seed: Number(view.seed.value), ai: view.ai.value() });
    setQuery({ sim: made.id }, { push: true });
    follow(made.id);
  } catch (error) {
    view.problem.hidden = false;
    view.problem.textContent = error instanceof ApiError ? error.message : t("no_answer");
  } finally {
    view.run.disabled = false;
  }
}

// Cancel the simulation being followed; the next answer of the server shows it cancelled.
async function cancel(id) {
  view.cancel.disabled = true;
  try {
    await deleteJSON(`/api/simulations/${encodeURIComponent(id)}`);
  } catch (error) {
    view.problem.hidden = false;
    view.problem.textContent = error instanceof ApiError ? error.message : t("no_answer");
  }
}

// Ask for the simulation's progress until it has ended, drawing the bar and, at the end, the results.
async function follow(id) {
  const ticket = (polling += 1);
  view.results.replaceChildren();
  view.cancel.onclick = () => cancel(id);
  view.cancel.disabled = false;
  while (ticket === polling) {
    let sim;
    try {
      sim = await getJSON(`/api/simulations/${encodeURIComponent(id)}?lang=${currentLang()}`);
    } catch (error) {
      view.status.textContent = error instanceof ApiError ? error.message : t("no_answer");
      return;
    }
    if (ticket !== polling) return;
    view.bar.max = sim.runs;
    view.bar.value = sim.done;
    view.status.dataset.status = sim.status;
    view.status.textContent = t(`sim_${sim.status}`, { done: sim.done, runs: sim.runs, scenario: sim.scenario, seed: sim.seed });
    view.cancel.hidden = sim.status !== "queued" && sim.status !== "running";
    view.levels.textContent = aiPlays(sim.ai);
    if (sim.status === "failed") {
      view.results.replaceChildren(element("div", { class: "error-line", role: "alert", text: sim.error }));
      return;
    }
    if (ENDED_WITH_RESULTS.includes(sim.status)) {
      if (sim.result) showResults(sim);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

// The win rates: a bar per side (and the draws) with its 95% Wilson interval drawn over it.
function winChart(result) {
  const rows = [...result.wins.map((w, i) => ({ ...w, name: w.side, className: SERIES[i % 4] })), { ...result.draws, name: t("draws"), className: "draws" }];
  const SVG = "http://www.w3.org/2000/svg";
  const make = (tag, attributes, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const width = 640;
  const rowH = 34;
  const left = 150;
  const plot = width - left - 70;
  const root = make("svg", { viewBox: `0 0 ${width} ${rows.length * rowH + 26}`, class: "chart win-chart", role: "img", "aria-label": t("win_rates") });
  for (let i = 0; i <= 4; i += 1) {
    const x = left + (plot * i) / 4;
    root.append(make("line", { x1: x, x2: x, y1: 0, y2: rows.length * rowH, class: "grid-line" }));
    root.append(make("text", { x, y: rows.length * rowH + 16, class: "axis-bottom" }, `${i * 25}%`));
  }
  rows.forEach((row, i) => {
    const y = i * rowH + 6;
    const group = make("g", { class: `win-row ${row.className}`, "data-side": row.name });
    group.append(make("text", { x: left - 8, y: y + 15, class: "axis-left" }, row.name));
    group.append(make("rect", { x: left, y, width: Math.max(0.5, plot * row.rate), height: 20, class: `bar ${row.className}` }));
    const [lo, hi] = [left + plot * row.low, left + plot * row.high];
    group.append(make("line", { x1: lo, x2: hi, y1: y + 10, y2: y + 10, class: "whisker" }));
    group.append(make("line", { x1: lo, x2: lo, y1: y + 4, y2: y + 16, class: "whisker" }));
    group.append(make("line", { x1: hi, x2: hi, y1: y + 4, y2: y + 16, class: "whisker" }));
    group.append(make("text", { x: left + plot + 6, y: y + 15, class: "axis-right" }, pct(row.rate)));
    group.append(make("title", {}, t("win_interval", { side: row.name, rate: pct(row.rate), low: pct(row.low), high: pct(row.high), count: row.count, battles: result.battles })));
    root.append(group);
  });
  return root;
}

function winTable(result) {
  const row = (name, w, attributes) =>
    element(
      "tr",
      attributes,
      element("th", { text: name }),
      element("td", { class: "num", text: String(w.count) }),
      element("td", { class: "num rate", text: pct(w.rate) }),
      element("td", { class: "num interval", text: `${pct(w.low)} – ${pct(w.high)}` }),
    );
  return element(
    "table",
    { class: "win-table" },
    element("thead", {}, element("tr", {}, element("th", { text: t("side") }), element("th", { text: t("wins") }), element("th", { text: t("win_rate") }), element("th", { text: t("interval_95") }))),
    element("tbody", {}, ...result.wins.map((w) => row(w.side, w, { "data-side": w.side })), row(t("draws"), result.draws, { "data-side": "" })),
  );
}

// The distribution of a summary number, one series per side (or one for a number of the whole battle).
function histogram(result, key, sides) {
  const battles = BigInt(result.battles);
  const entries = (counts) => {
    const values = Object.keys(counts).map(Number).sort((a, b) => a - b);
    let left = battles;
    return values.map((value) => {
      const n = BigInt(counts[String(value)]);
      const atLeast = new Fraction(left, battles);
      left -= n;
      return { value, p: new Fraction(n, battles), atLeast };
    });
  };
  const series = key in result.per_side
    ? sides.filter((side) => side in result.per_side[key]).map((side, i) => ({ name: side, className: SERIES[i % 4], entries: entries(result.per_side[key][side].counts) }))
    : [{ name: result.labels[key] || key, className: SERIES[0], entries: entries(result.numbers[key].counts) }];
  return drawChart({
    series,
    show: (value) => String(value),
    numeric: true,
    labels: { title: result.labels[key] || key, field: result.labels[key] || key, exactly: t("share_of_battles"), atLeast: t("share_at_least") },
  });
}

function showResults(sim) {
  const result = sim.result;
  const sides = result.wins.map((w) => w.side);
  const numeric = (counts) => Object.keys(counts).every((v) => v !== "" && Number.isFinite(Number(v)));
  const keys = [
    ...Object.keys(result.per_side).filter((k) => Object.values(result.per_side[k]).every((d) => numeric(d.counts))),
    ...Object.keys(result.numbers).filter((k) => numeric(result.numbers[k].counts)),
  ];
  const chosen = keys.includes("casualties") ? "casualties" : keys[0];
  const select = element("select", { id: "sim-chart-field", "aria-label": t("chart_field") }, ...keys.map((k) => element("option", { value: k, selected: k === chosen, text: result.labels[k] || k })));
  const holder = element("div", { class: "chart-holder", id: "sim-histogram" });
  const legend = element("div", { class: "legend" });
  const means = element("p", { class: "means" });
  const draw = (key) => {
    holder.replaceChildren(histogram(result, key, sides));
    const per = key in result.per_side ? sides.filter((s) => s in result.per_side[key]).map((s, i) => [s, result.per_side[key][s].mean, SERIES[i % 4]]) : [[result.labels[key] || key, result.numbers[key].mean, SERIES[0]]];
    legend.replaceChildren(...per.map(([name, , cls]) => element("span", { class: "legend-item" }, element("span", { class: `swatch ${cls}` }), name)));
    means.textContent = per.map(([name, m]) => t("mean_of", { name, mean: m === null ? t("none_value") : m.toFixed(2) })).join(" · ");
  };
  select.addEventListener("change", () => draw(select.value));
  const parts = [
    element("h2", { text: t("win_rates") }),
    winChart(result),
    winTable(result),
  ];
  if (chosen !== undefined) {
    parts.push(element("div", { class: "section-head" }, element("h2", { text: t("distribution_heading") }), element("label", { class: "chart-pick" }, `${t("chart_field")} `, select)), holder, legend, means);
  }
  view.results.replaceChildren(...parts);
  if (chosen !== undefined) draw(chosen);
}
