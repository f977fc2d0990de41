// Page 1, the odds calculator: pick a ruleset and a procedure, fill its form, read the exact odds; compare two
// inputs. The whole state lives in the URL (?lang, ruleset, procedure, a, b, chart), so a link reproduces the result.

import { currentLang } from "./address.js";
import { ApiError, getJSON, postJSON } from "./api.js";
import { element } from "./dom.js";
import { SchemaForm } from "./form.js";
import { t } from "./words.js";
import { renderResults } from "./results.js";

const state = {
  lang: "en",
  ruleset: null,
  procedure: null,
  a: null,
  b: null,
  chart: null,
};
let rulesets = [];
const details = new Map(); // "lang/ruleset" → GET /api/rulesets/{ruleset}
let forms = { a: null, b: null };
let pending = null;
let sequence = 0;
let timer = null;

const $ = (id) => document.getElementById(id);

function readURL() {
  const query = new URLSearchParams(location.search);
  state.lang = currentLang();
  state.ruleset = query.get("ruleset");
  state.procedure = query.get("procedure");
  state.a = parseInput(query.get("a"));
  state.b = parseInput(query.get("b"));
  state.chart = query.get("chart");
}

function parseInput(text) {
  if (text === null) return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function writeURL({ push = false } = {}) {
  const query = new URLSearchParams();
  query.set("lang", state.lang);
  if (state.ruleset) query.set("ruleset", state.ruleset);
  if (state.procedure) query.set("procedure", state.procedure);
  if (state.a) query.set("a", JSON.stringify(state.a));
  if (state.b) query.set("b", JSON.stringify(state.b));
  if (state.chart) query.set("chart", state.chart);
  const url = `${location.pathname}?${query}`;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

async function detail(rulesetId) {
  const key = `${state.lang}/${rulesetId}`;
  if (!details.has(key)) details.set(key, await getJSON(`/api/rulesets/${encodeURIComponent(rulesetId)}?lang=${state.lang}`));
  return details.get(key);
}

function button(text, attributes, onClick) {
  const node = element("button", { type: "button", text, ...attributes });
  node.addEventListener("click", onClick);
  return node;
}

// Mount the calculator in *app* (again after a change of language or a step back in history).
export async function mount(app) {
  if (!$("workspace")) {
    app.replaceChildren(
      element(
        "section",
        { class: "pickers" },
        element("div", { class: "rulesets", id: "rulesets", role: "tablist" }),
        element("div", { class: "procedures", id: "procedures", role: "tablist" }),
        element("p", { class: "summary", id: "procedure-summary" }),
      ),
      element(
        "section",
        { class: "workspace", id: "workspace" },
        element("div", { class: "inputs", id: "inputs" }),
        element("div", { class: "results", id: "results", "aria-live": "polite" }),
      ),
    );
  }
  readURL();
  rulesets = (await getJSON(`/api/rulesets?lang=${state.lang}`)).rulesets;
  await render();
}

async function render() {
  const ruleset = rulesets.find((r) => r.id === state.ruleset) || rulesets[0];
  state.ruleset = ruleset.id;
  const info = await detail(ruleset.id);
  const procedure = info.procedures.find((p) => p.name === state.procedure) || info.procedures[0];
  state.procedure = procedure.name;

  $("rulesets").replaceChildren(
    ...rulesets.map((r) =>
      button(r.title, { role: "tab", "data-ruleset": r.id, "aria-selected": String(r.id === ruleset.id) }, () => choose(r.id, null)),
    ),
  );
  $("procedures").replaceChildren(
    ...info.procedures.map((p) =>
      button(p.title, { role: "tab", "data-procedure": p.name, "aria-selected": String(p.name === procedure.name), title: p.summary }, () => choose(ruleset.id, p.name)),
    ),
  );
  $("procedure-summary").textContent = procedure.summary;

  const make = (name, value) =>
    new SchemaForm({
      name,
      schema: procedure.schema,
      fields: procedure.fields,
      words: info.words,
      value: value || procedure.start,
      onChange: (body) => {
        state[name] = body;
        writeURL();
        schedule();
      },
    });
  forms = { a: make("a", state.a), b: state.b ? make("b", state.b) : null };
  state.a = forms.a.body();
  if (forms.b) state.b = forms.b.body();
  renderInputs(procedure);
  writeURL();
  await compute(procedure, info);
}

function renderInputs(procedure) {
  const panel = (name, form, actions) =>
    element(
      "section",
      { class: `input-panel input-${name}`, id: `input-${name}` },
      element("div", { class: "panel-head" }, element("h2", {}, element("span", { class: `swatch series-${name}` }), t(`input_${name}`)), ...actions),
      form.element,
    );
  const reset = button(t("reset"), { class: "quiet", "data-action": "reset" }, () => {
    forms.a.setValue(procedure.start);
    state.a = forms.a.body();
    writeURL();
    schedule(0);
  });
  const panels = [panel("a", forms.a, [reset])];
  if (forms.b) {
    const copy = button(t("copy_from_a"), { class: "quiet", "data-action": "copy-a" }, () => {
      forms.b.setValue(JSON.parse(JSON.stringify(forms.a.value)));
      state.b = forms.b.body();
      writeURL();
      schedule(0);
    });
    const drop = button(t("stop_compare"), { class: "quiet", "data-action": "stop-compare" }, () => {
      state.b = null;
      writeURL();
      render();
    });
    panels.push(panel("b", forms.b, [copy, drop]));
  }
  const tools = element("div", { class: "input-tools" });
  if (!forms.b) {
    tools.append(
      button(t("compare"), { class: "primary", "data-action": "compare" }, () => {
        state.b = JSON.parse(JSON.stringify(forms.a.body()));
        writeURL();
        render();
      }),
    );
  }
  const link = button(t("copy_link"), { class: "quiet", "data-action": "copy-link" }, async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      link.textContent = t("link_copied");
    } catch {
      link.textContent = t("link_in_address_bar");
    }
    setTimeout(() => (link.textContent = t("copy_link")), 2000);
  });
  tools.append(link);
  $("inputs").replaceChildren(...panels, tools);
  $("workspace").classList.toggle("comparing", Boolean(forms.b));
}

async function choose(rulesetId, procedureName) {
  state.ruleset = rulesetId;
  state.procedure = procedureName;
  state.a = null;
  state.b = null;
  state.chart = null;
  writeURL({ push: true });
  await render();
}

function schedule(delay = 180) {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    const info = await detail(state.ruleset);
    await compute(info.procedures.find((p) => p.name === state.procedure), info);
  }, delay);
}

async function compute(procedure, info) {
  const id = (sequence += 1);
  if (pending) pending.abort();
  pending = new AbortController();
  const signal = pending.signal;
  const path = `/api/odds/${encodeURIComponent(state.ruleset)}/${encodeURIComponent(procedure.name)}`;
  const inputs = [["a", state.a], ...(state.b ? [["b", state.b]] : [])];
  $("results").classList.add("busy");
  const answers = await Promise.all(
    inputs.map(async ([name, body]) => {
      try {
        return { name, data: await postJSON(path, body, { signal }) };
      } catch (error) {
        if (error.name === "AbortError") return { name, aborted: true };
        return { name, error: error instanceof ApiError ? error.message : t("no_answer") };
      }
    }),
  );
  if (id !== sequence || answers.some((answer) => answer.aborted)) return;
  $("results").classList.remove("busy");
  renderResults($("results"), {
    answers,
    procedure,
    words: info.words,
    chart: state.chart,
    onChart: (field) => {
      state.chart = field;
      writeURL();
    },
  });
}
