// Page 5, the scenario builder (issue 24 §6): a scenario of any ruleset, started from a shipped one, its own fields
// in a form built from the ruleset's scenario JSON Schema (as the odds page builds its forms), its models placed by
// dragging their handles on the board, rectangles of terrain drawn on it, and its TOML text edited by hand. Every
// change goes to the server, which writes the TOML and has the referee judge it (the line `kessen check` would
// print); the scenario is downloaded as TOML, or played, watched or simulated on the other pages.

import { currentLang, query, setQuery } from "./address.js";
import { ApiError, getJSON, postJSON } from "./api.js";
import { BoardView, drawLegend } from "./board.js";
import { element } from "./dom.js";
import { SchemaForm, SchemaReader } from "./form.js";
import { BUILT, keepBuilt } from "./picker.js";
import { t } from "./words.js";

let view = null;
let current = null; // the server's last answer: {ruleset, data, text, handles, ok, error, board, legend}
let shownBoard = null; // the last board the referee accepted
let opening = null; // the builder's start for the chosen ruleset: {schema, scenarios, terrain}
let asked = 0;

function button(text, attributes, onClick) {
  const node = element("button", { type: "button", text, ...attributes });
  node.addEventListener("click", onClick);
  return node;
}

export async function mount(app) {
  current = null;
  shownBoard = null;
  const rulesets = (await getJSON(`/api/rulesets?lang=${currentLang()}`)).rulesets.filter((r) => r.plays_battles);
  const ruleset = element("select", { id: "build-ruleset" }, ...rulesets.map((r) => element("option", { value: r.id, text: r.title })));
  const start = element("select", { id: "build-start" });
  const fields = element("div", { class: "build-fields", id: "build-fields" });
  const status = element("div", { class: "build-status", id: "build-status", role: "status" });
  const toml = element("textarea", { id: "build-toml", rows: 16, spellcheck: "false", "aria-label": t("build_toml") });
  const check = button(t("check_scenario"), { class: "quiet", "data-action": "check-text" }, () => judge("/api/builder/text", { ruleset: current.ruleset, text: toml.value }));
  const draw = button(t("draw_terrain"), { class: "quiet", "data-action": "draw-terrain", "aria-pressed": "false" }, () => {
    const on = draw.getAttribute("aria-pressed") !== "true";
    draw.setAttribute("aria-pressed", String(on));
    view.board.setDrawing(on);
    view.hint.textContent = on ? t("draw_terrain_hint", { kind: opening.terrain.kind.replace(/_/g, " ") }) : t("build_hint");
  });
  const download = element("a", { class: "button-link", id: "build-download", download: "scenario.toml", text: t("download_toml") });
  const goes = ["play", "viewer", "simulate"].map((page) => {
    const link = element("a", { class: "button-link", "data-action": `build-${page}`, href: "#", text: t(`build_to_${page}`) });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      if (!current || !current.ok) return;
      keepBuilt(current.ruleset, current.text);
      location.href = `/${page}?lang=${currentLang()}&scenario=${BUILT}`;
    });
    return link;
  });
  const board = new BoardView({
    id: "build-board",
    onHandle: (handle, x, y) => moveEntry(handle, x, y),
    onRect: (x0, y0, x1, y1) => addRectangle(x0, y0, x1, y1),
  });
  const legend = element("div", { class: "legend-holder" });
  const hint = element("p", { class: "hint", id: "build-hint", text: t("build_hint") });
  view = { ruleset, start, fields, status, toml, draw, download, goes, board, legend, hint, form: null };
  ruleset.addEventListener("change", () => chooseRuleset(ruleset.value));
  start.addEventListener("change", () => judge("/api/builder/open", { scenario: start.value }));
  app.replaceChildren(
    element(
      "div",
      { class: "play-layout setup-layout build-layout" },
      element(
        "section",
        { class: "card setup" },
        element("h2", { text: t("build_heading") }),
        element("div", { class: "row" }, element("label", { for: "build-ruleset", text: t("ruleset") }), ruleset),
        element("div", { class: "row" }, element("label", { for: "build-start", text: t("build_start") }), start),
        fields,
        status,
        element("div", { class: "tools" }, draw, download, ...goes),
        element("h2", { text: t("build_toml") }),
        toml,
        element("div", { class: "row" }, check),
      ),
      element("section", { class: "card stage" }, element("h2", { text: t("board") }), board.element, legend, hint),
    ),
  );
  const wanted = query().get("ruleset");
  if (wanted && rulesets.some((r) => r.id === wanted)) ruleset.value = wanted;
  await chooseRuleset(ruleset.value);
}

async function chooseRuleset(id) {
  setQuery({ ruleset: id });
  opening = await getJSON(`/api/builder/${encodeURIComponent(id)}`);
  view.start.replaceChildren(...opening.scenarios.map((s) => element("option", { value: s.name, text: s.title })));
  view.draw.hidden = !opening.terrain;
  view.board.setDrawing(false);
  view.draw.setAttribute("aria-pressed", "false");
  view.form = null;
  await judge("/api/builder/open", { scenario: view.start.value });
}

// The scenario's own fields (its top-level values that are not tables or lists), in a form from its JSON Schema.
function scalarSchema(schema) {
  const reader = new SchemaReader(schema);
  const properties = {};
  for (const [name, node] of Object.entries(schema.properties || {})) {
    const plain = reader.unwrap(node).node;
    if (Array.isArray(plain.enum) || ["integer", "number", "string", "boolean"].includes(plain.type)) properties[name] = node;
  }
  return { ...schema, properties, required: (schema.required || []).filter((name) => name in properties) };
}

function showForm(data) {
  const schema = scalarSchema(opening.schema);
  const own = Object.fromEntries(Object.keys(schema.properties).filter((k) => k in data).map((k) => [k, data[k]]));
  if (view.form) {
    view.form.setValue(own);
    return;
  }
  const fields = Object.fromEntries(Object.entries(schema.properties).map(([k, node]) => [k, { label: node.title || k.replace(/_/g, " "), description: node.description || "" }]));
  view.form = new SchemaForm({
    schema, fields, words: {}, value: own, name: "scenario",
    onChange: (body) => {
      if (!current || !current.data) return;
      const data = { ...current.data };
      for (const key of Object.keys(schema.properties)) {
        if (key in body) data[key] = body[key];
        else if (key !== "ruleset") delete data[key];
      }
      judge("/api/builder/data", { ruleset: current.ruleset, data });
    },
  });
  view.fields.replaceChildren(view.form.element);
}

async function judge(route, body) {
  const ticket = (asked += 1);
  try {
    const answer = await postJSON(route, { ...body, lang: currentLang() });
    if (ticket === asked) show(answer, route);
  } catch (error) {
    if (ticket !== asked) return;
    view.status.dataset.ok = "false";
    view.status.textContent = error instanceof ApiError ? error.message : t("no_answer");
  }
}

function show(answer, route) {
  current = answer;
  if (route !== "/api/builder/text") view.toml.value = answer.text;
  if (answer.data) showForm(answer.data);
  view.status.dataset.ok = String(answer.ok);
  view.status.textContent = answer.ok ? t("build_ok", { sides: answer.sides.join(", ") }) : answer.error;
  if (answer.ok) shownBoard = { board: answer.board, legend: answer.legend };
  if (shownBoard) {
    view.board.show(shownBoard.board, shownBoard.legend, { handles: answer.ok ? answer.handles : [] });
    view.legend.replaceChildren(drawLegend(shownBoard.board, shownBoard.legend));
  }
  URL.revokeObjectURL(view.download.href);
  view.download.href = URL.createObjectURL(new Blob([answer.text], { type: "application/toml" }));
  for (const link of [view.download, ...view.goes]) link.classList.toggle("disabled", !answer.ok);
}

function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

// A dragged handle: its entry's x, y (tenths of an inch, whole millimetres) or its square.
function moveEntry(handle, x, y) {
  const data = clone(current.data);
  let entry = data;
  for (const key of handle.path) entry = entry[key];
  const units = shownBoard.board.units;
  const round = (v) => (units === "inch" ? Math.round(v * 10) / 10 : Math.round(v));
  if (handle.form === "at") entry.at = [Math.floor(x), Math.floor(y)];
  else [entry.x, entry.y] = [round(x), round(y)];
  judge("/api/builder/data", { ruleset: current.ruleset, data });
}

function addRectangle(x0, y0, x1, y1) {
  const units = shownBoard.board.units;
  const box = units === "square" ? [x0, y0, x1, y1].map(Math.floor) : [x0, y0, x1, y1].map((v) => Math.round(v * 10) / 10);
  judge("/api/builder/rectangle", { ruleset: current.ruleset, data: current.data, box });
}
