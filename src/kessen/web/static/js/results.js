// The result panel: per outcome field its mean and SD (numbers) or chance (yes/no), the chart of one field,
// its exact P(= x) and P(≥ x), and every outcome with its exact probability; input B beside input A.

import { drawChart } from "./chart.js";
import { element } from "./dom.js";
import { percent } from "./fraction.js";
import { chanceTrue, fieldKind, marginal, moments, withFractions } from "./stats.js";
import { outcomeLabel, t, valueWord } from "./words.js";

const ROWS_SHOWN = 300;

// One probability cell: the percentage, and under it the exact fraction.
function probabilityCell(p) {
  if (!p) return element("td", { class: "probability empty" }, element("span", { class: "percent", text: "–" }));
  const text = p.toString();
  return element(
    "td",
    { class: "probability" },
    element("span", { class: "percent", text: percent(p) }),
    element("span", { class: text.length > 24 ? "fraction long" : "fraction", text }),
  );
}

export function renderResults(container, { answers, procedure, words, chart, onChart }) {
  const refused = answers.filter((answer) => answer.error);
  const parts = [];
  for (const answer of refused) {
    parts.push(
      element(
        "div",
        { class: "error", role: "alert", "data-series": answer.name },
        element("strong", { text: `${t(`input_${answer.name}`)}: ${t("refused")}` }),
        element("code", { text: answer.error }),
      ),
    );
  }
  const series = answers
    .filter((answer) => answer.data)
    .map((answer) => ({ name: answer.name, label: t(`input_${answer.name}`), rows: withFractions(answer.data.outcomes) }));
  if (!series.length) {
    container.replaceChildren(...parts);
    return;
  }
  const fields = Object.keys(series[0].rows[0]?.outcome || {});
  const label = (field) => outcomeLabel(procedure.outcomes, field);
  const show = (field) => (value) => valueWord(words, field, value);
  const kinds = Object.fromEntries(fields.map((field) => [field, fieldKind(series.flatMap((s) => s.rows), field)]));

  parts.push(element("p", { class: "result-count", text: series.map((s) => t("outcome_count", { series: s.label, n: s.rows.length })).join(" · ") }));
  parts.push(summary(series, fields, kinds, label, show));

  // Unless the link names one, chart the first number that varies, else the first field that varies.
  const varies = (field) => new Set(series.flatMap((s) => s.rows.map((row) => JSON.stringify(row.outcome[field])))).size > 1;
  const chosen = fields.includes(chart) ? chart : fields.find((f) => kinds[f] === "numeric" && varies(f)) || fields.find(varies) || fields[0];
  if (chosen !== undefined) {
    const select = element("select", { id: "chart-field", "aria-label": t("chart_field") });
    for (const field of fields) select.append(element("option", { value: field, selected: field === chosen, text: label(field) }));
    const holder = element("div", { class: "chart-holder" });
    const table = element("div", { class: "marginal-holder" });
    const draw = (field) => {
      const numeric = kinds[field] === "numeric";
      const marginals = series.map((s) => ({ name: s.label, className: `series-${s.name}`, entries: marginal(s.rows, field) }));
      holder.replaceChildren(
        drawChart({ series: marginals, show: show(field), numeric, labels: { title: label(field), field: label(field), exactly: t("p_exactly"), atLeast: t("p_at_least") } }),
        legend(series, numeric),
      );
      table.replaceChildren(marginalTable(marginals, series, field, label, show, numeric));
    };
    select.addEventListener("change", () => {
      draw(select.value);
      onChart(select.value);
    });
    draw(chosen);
    parts.push(
      element(
        "section",
        { class: "chart-section" },
        element("div", { class: "section-head" }, element("h2", { text: t("chart_heading") }), element("label", { class: "chart-pick" }, `${t("chart_field")} `, select)),
        holder,
        table,
      ),
    );
  }
  parts.push(outcomeTable(series, fields, label, show));
  container.replaceChildren(...parts);
}

function legend(series, numeric) {
  const box = element("div", { class: "legend" });
  for (const s of series) {
    box.append(element("span", { class: "legend-item" }, element("span", { class: `swatch bar-swatch series-${s.name}` }), `${s.label} ${t("legend_bars")}`));
    if (numeric) box.append(element("span", { class: "legend-item" }, element("span", { class: `swatch line-swatch series-${s.name}` }), `${s.label} ${t("legend_curve")}`));
  }
  return box;
}

function summary(series, fields, kinds, label, show) {
  const head = element("tr", {}, element("th", { text: t("field") }), ...series.map((s) => element("th", { class: `series-head series-${s.name}`, text: s.label })));
  const body = element("tbody");
  for (const field of fields) {
    const cells = series.map((s) => {
      if (kinds[field] === "numeric") {
        const { meanNumber, sd } = moments(marginal(s.rows, field));
        return element(
          "td",
          { class: "stat", "data-stat": "mean-sd" },
          element("span", { class: "big", text: t("mean_value", { x: meanNumber.toFixed(3) }) }),
          element("span", { class: "muted", text: t("sd_value", { x: sd.toFixed(3) }) }),
        );
      }
      if (kinds[field] === "boolean") {
        const p = chanceTrue(s.rows, field);
        return element("td", { class: "stat", "data-stat": "chance" }, element("span", { class: "big", text: percent(p) }), element("span", { class: "muted fraction", text: p.toString() }));
      }
      const entries = marginal(s.rows, field);
      if (entries.length <= 4) {
        return element("td", { class: "stat", "data-stat": "shares" }, ...entries.map((e) => element("span", { class: "share" }, element("b", { text: show(field)(e.value) }), ` ${percent(e.p)}`)));
      }
      const best = entries.reduce((x, y) => (y.p.toNumber() > x.p.toNumber() ? y : x));
      return element("td", { class: "stat", "data-stat": "likeliest" }, element("span", { class: "big", text: show(field)(best.value) }), element("span", { class: "muted", text: t("likeliest", { p: percent(best.p) }) }));
    });
    body.append(element("tr", { "data-field": field }, element("th", { scope: "row", text: label(field) }), ...cells));
  }
  return element("section", { class: "summary-section" }, element("h2", { text: t("summary_heading") }), element("table", { class: "summary-table" }, element("thead", {}, head), body));
}

function marginalTable(marginals, series, field, label, show, numeric) {
  const head = element("tr", {}, element("th", { text: label(field) }));
  for (const s of series) {
    head.append(element("th", { class: `series-head series-${s.name}`, text: `${s.label}: ${t("p_exactly")}` }));
    if (numeric) head.append(element("th", { class: `series-head series-${s.name}`, text: `${s.label}: ${t("p_at_least")}` }));
  }
  const values = [];
  const seen = new Set();
  for (const m of marginals) for (const e of m.entries) if (!seen.has(JSON.stringify(e.value))) (seen.add(JSON.stringify(e.value)), values.push(e.value));
  if (numeric) values.sort((x, y) => x - y);
  const body = element("tbody");
  for (const value of values) {
    const row = element("tr", { "data-value": JSON.stringify(value) }, element("th", { scope: "row", text: show(field)(value) }));
    for (const m of marginals) {
      const entry = m.entries.find((e) => JSON.stringify(e.value) === JSON.stringify(value));
      row.append(probabilityCell(entry && entry.p));
      if (numeric) row.append(probabilityCell(entry ? entry.atLeast : atLeastOf(m.entries, value)));
    }
    body.append(row);
  }
  return element("table", { class: "marginal-table", "data-field": field }, element("thead", {}, head), body);
}

// P(≥ x) for a value this series never shows: the P(≥ y) of its next larger value, else 0.
function atLeastOf(entries, value) {
  const next = entries.find((e) => e.value > value);
  return next ? next.atLeast : null;
}

function outcomeTable(series, fields, label, show) {
  const keys = [];
  const byKey = series.map(() => new Map());
  series.forEach((s, index) => {
    for (const row of s.rows) {
      const key = JSON.stringify(fields.map((f) => row.outcome[f]));
      if (!byKey.some((m) => m.has(key))) keys.push([key, row.outcome]);
      byKey[index].set(key, row.p);
    }
  });
  const head = element("tr", {}, ...fields.map((f) => element("th", { text: label(f) })));
  for (const s of series) head.append(element("th", { class: `series-head series-${s.name}`, text: `${s.label}: ${t("probability")}` }));
  const body = element("tbody");
  const rows = keys.map(([key, outcome]) => {
    const row = element("tr", { "data-outcome": key }, ...fields.map((f) => element("td", { text: show(f)(outcome[f]) })));
    byKey.forEach((m) => row.append(probabilityCell(m.get(key))));
    return row;
  });
  body.append(...rows.slice(0, ROWS_SHOWN));
  const section = element("section", { class: "outcomes-section" }, element("h2", { text: t("outcomes_heading") }), element("div", { class: "table-scroll" }, element("table", { class: "outcome-table" }, element("thead", {}, head), body)));
  if (rows.length > ROWS_SHOWN) {
    const more = element("button", { type: "button", class: "quiet", text: t("show_all", { n: rows.length }) });
    more.addEventListener("click", () => {
      body.append(...rows.slice(ROWS_SHOWN));
      more.remove();
    });
    section.append(more);
  }
  return section;
}
