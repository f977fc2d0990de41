// Page 3, play: choose a scenario and a side (or both sides, two people at one screen), or continue a save file;
// then a banner says whose turn it is and what is asked, the pending decision's suggested options are buttons with
// their exact odds, any notation may be typed, and a free move is a click (or a drag) of a model to a point of the
// board, its reach drawn first: the area it may reach on a table, the squares it may end on on a grid, each
// clicked to move (the page writes the notation the ruleset documents; the ruleset accepts it or names the rule that
// refuses it). A ruler measures between two models. Undo, the save file, the language switch (the match goes on in
// the chosen language), and the match in the address (?match), so a reload finds it again.
// Each side the machine plays has the AI level chosen for it (ailevels.js); Win chance beside the options asks
// the advisor (advice.js).

import { currentLang, query, setQuery } from "./address.js";
import { AdvicePanel } from "./advice.js";
import { AiLevels, aiPlays } from "./ailevels.js";
import { ApiError, getJSON, postJSON, postText } from "./api.js";
import { BoardView, drawLegend, notationPoint, sideIndex, sideName } from "./board.js";
import { element } from "./dom.js";
import { Fraction, percent } from "./fraction.js";
import { EventLog } from "./log.js";
import { ScenarioPicker } from "./picker.js";
import { renderResult } from "./result.js";
import { t } from "./words.js";

let view = null;
let match = null; // the match's state as GET /api/matches/{id} gives it
let selected = null; // the model clicked for a free move
let marker = null;
let reach = null; // where the selected model may go, as the server's reach route says
let told = 0; // events the person had seen before their last decision
let busy = false;

function button(text, attributes, onClick) {
  const node = element("button", { type: "button", text, ...attributes });
  node.addEventListener("click", onClick);
  return node;
}

export async function mount(app) {
  match = null;
  selected = null;
  marker = null;
  const id = query().get("match");
  if (id) {
    buildMatch(app);
    try {
      let state = await getJSON(`/api/matches/${encodeURIComponent(id)}`);
      if (state.status !== "playing" && state.lang !== currentLang()) {
        state = await postJSON(`/api/matches/${encodeURIComponent(id)}/lang`, { lang: currentLang() });
      }
      show(state, { fresh: false });
    } catch (error) {
      buildSetup(app);
      fail(error);
    }
    return;
  }
  buildSetup(app);
}

// --- choosing a scenario and a side -----------------------------------------------------------------------------

function buildSetup(app) {
  const side = element("select", { id: "play-side", "aria-label": t("your_side") });
  const both = element("input", { type: "checkbox", id: "play-both" });
  const seed = element("input", { type: "number", id: "play-seed", min: 0, step: 1, value: Math.floor(Math.random() * 1_000_000) });
  const stage = new BoardView({ id: "play-board" });
  const legend = element("div", { class: "legend-holder" });
  const problem = element("div", { class: "error-line", role: "alert", id: "play-error", hidden: true });
  const file = element("input", { type: "file", id: "play-file", accept: ".json,application/json" });
  const ai = new AiLevels({ id: "play-ai-levels" });
  let sides = [];
  const machine = () => ai.show(both.checked ? [] : sides.filter((s) => s !== side.value));
  const picker = new ScenarioPicker({
    lang: currentLang(),
    chosen: query().get("scenario"),
    onChange: (preview) => {
      sides = preview ? preview.sides : [];
      side.replaceChildren(...sides.map((s) => element("option", { value: s, text: sideName(s) })));
      start.disabled = !preview;
      machine();
      if (preview) stage.show(preview.board, preview.legend);
      legend.replaceChildren(...(preview ? [drawLegend(preview.board, preview.legend)] : []));
    },
  });
  both.addEventListener("change", () => {
    side.disabled = both.checked;
    machine();
  });
  side.addEventListener("change", machine);
  const opened = async (made) => {
    setQuery({ match: made.id }, { push: true });
    await mount(app);
  };
  const start = button(t("start_match"), { class: "primary", "data-action": "start-match", disabled: true }, async () => {
    problem.hidden = true;
    start.disabled = true;
    try {
      const people = both.checked ? sides : [side.value];
      await opened(await postJSON("/api/matches", { ...picker.value(), seed: Number(seed.value), people, lang: currentLang(), ai: ai.value() }));
    } catch (error) {
      fail(error);
      start.disabled = false;
    }
  });
  // a save file goes on where it was saved (a downloaded one, or any kessen save)
  file.addEventListener("change", async () => {
    problem.hidden = true;
    const chosen = file.files[0];
    if (!chosen) return;
    try {
      await opened(await postText("/api/matches/load", await chosen.text()));
    } catch (error) {
      fail(error);
    } finally {
      file.value = "";
    }
  });
  view = { problem };
  app.replaceChildren(
    element(
      "div",
      { class: "play-layout setup-layout" },
      element(
        "section",
        { class: "card setup" },
        element("h2", { text: t("new_match") }),
        picker.element,
        element("div", { class: "row" }, element("label", { for: "play-side", text: t("your_side") }), side),
        element("div", { class: "row check" }, both, element("label", { for: "play-both", text: t("two_people") })),
        ai.element,
        element("div", { class: "row" }, element("label", { for: "play-seed", text: t("seed") }), seed),
        element("div", { class: "row" }, start),
        element("p", { class: "hint", text: t("play_hint") }),
        element("h2", { text: t("continue_save") }),
        element("div", { class: "row" }, element("label", { for: "play-file", text: t("save_file") }), file),
        element("p", { class: "hint", text: t("continue_hint") }),
        problem,
      ),
      element("section", { class: "card stage" }, element("h2", { text: t("board") }), stage.element, legend),
    ),
  );
}

// --- a match in play ------------------------------------------------------------------------------------------

function buildMatch(app) {
  const stage = new BoardView({
    id: "play-board",
    onModel: (id) => pickModel(id),
    onPoint: (x, y) => pickPoint(x, y),
    onSquare: (square) => choose(square.notation),
    onDrag: (id, x, y) => {
      selected = id;
      pickPoint(x, y);
    },
    measure: (a, b) => measured(a, b),
  });
  const legend = element("div", { class: "legend-holder" });
  const hint = element("p", { class: "hint", id: "board-hint" });
  const banner = element("div", { class: "turn-banner", id: "turn-banner", role: "status" });
  const turn = element("div", { class: "turn", id: "turn" });
  const options = element("div", { class: "options", id: "options" });
  const notation = element("input", { type: "text", id: "notation", autocomplete: "off", spellcheck: "false", "aria-label": t("notation") });
  const form = element("form", { class: "notation-form", id: "notation-form" }, notation, element("button", { type: "submit", class: "quiet", text: t("do_it") }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (notation.value.trim()) choose(notation.value.trim());
  });
  const problem = element("div", { class: "refusal", role: "alert", id: "refusal", hidden: true });
  const undo = button(t("undo"), { class: "quiet", "data-action": "undo" }, () => act("undo"));
  const save = element("a", { class: "button-link", id: "save-link", download: "", text: t("download_save") });
  const watch = element("a", { class: "button-link", id: "replay-link", text: t("watch_replay") });
  const again = element("a", { class: "button-link", href: `/play?lang=${currentLang()}`, text: t("new_match") });
  const log = new EventLog({ label: t("battle_report") });
  const outcome = element("div", { class: "outcome-holder", id: "play-result" });
  const levels = element("p", { class: "hint", id: "play-ai" });
  const advice = new AdvicePanel();
  view = { stage, legend, hint, banner, turn, options, notation, form, problem, undo, save, watch, log, outcome, levels, advice };
  app.replaceChildren(
    banner,
    element(
      "div",
      { class: "play-layout" },
      element("section", { class: "card stage" }, element("h2", { id: "play-heading", text: t("board") }), levels, stage.element, legend, hint),
      element(
        "aside",
        { class: "card play-panel" },
        turn,
        options,
        advice.element,
        form,
        problem,
        outcome,
        element("div", { class: "tools" }, undo, save, watch, again),
        element("h2", { text: t("battle_report") }),
        log.list,
      ),
    ),
  );
}

function fail(error) {
  view.problem.hidden = false;
  const body = error instanceof ApiError ? error.body : {};
  if (body.reason !== undefined) {
    view.problem.replaceChildren(
      element("strong", { text: body.rule ? t("refused_by_rule", { rule: body.rule }) : t("refused_choice") }),
      element("span", { class: "reason", text: body.reason }),
    );
    view.problem.dataset.rule = body.rule || "";
  } else {
    view.problem.textContent = error instanceof ApiError ? error.message : t("no_answer");
  }
}

// Each number beside an option: a probability as a percentage, an expected count as a decimal; both exact beside.
function oddsChips(odds) {
  return odds.map((o) =>
    element(
      "span",
      { class: "odds", "data-key": o.key, "data-kind": o.kind, title: `${o.label}: ${o.fraction}` },
      `${o.label} `,
      element("b", { text: o.kind === "probability" ? percent(Fraction.parse(o.fraction)) : String(Math.round(o.p * 100) / 100) }),
      element("span", { class: "fraction", text: ` ${o.fraction}` }),
    ),
  );
}

// One suggested option as a button: its words, its notation where they differ, its odds.
export function optionButton(option) {
  const node = button("", { class: "option", "data-notation": option.notation }, () => choose(option.notation));
  const notation = option.text === option.notation ? null : element("code", { class: "option-notation", text: option.notation });
  node.append(element("span", { class: "option-text", text: option.text }), ...(notation ? [notation] : []), ...oddsChips(option.odds));
  return node;
}

const GRID_MOVE = /^move (\S+) to -?\d+,-?\d+$/;

// The decision's options, in their order. [DECISION] On a grid, the moves to a square of one model are folded
// into one list under the first of them ("or click a highlighted square"): the squares on the board say the same.
export function renderOptions(decision, units) {
  const nodes = [];
  let folded = null;
  for (const option of decision.options) {
    const move = units === "square" && GRID_MOVE.exec(option.notation);
    if (!move) {
      nodes.push(optionButton(option));
      continue;
    }
    if (!folded) {
      folded = element("details", { class: "folded-moves", "data-model": null, "data-mover": move[1] }, element("summary", {}));
      nodes.push(folded);
    }
    folded.append(optionButton(option));
  }
  if (folded) folded.querySelector("summary").textContent = t("grid_moves", { n: folded.querySelectorAll("button.option").length });
  return nodes;
}

function whoseTurn(state) {
  const decision = state.decision;
  if (!decision) return { text: state.result ? t("battle_over") : t("nobody_decides"), side: null };
  return { text: t("turn_banner", { side: sideName(decision.player), prompt: decision.prompt }), side: decision.player };
}

function show(state, { fresh = true } = {}) {
  match = state;
  if (!fresh) told = state.events.length;
  const id = state.id;
  document.getElementById("play-heading").textContent = t("match_heading", { scenario: state.scenario, seed: state.seed, sides: state.people.map(sideName).join(", ") || t("nobody") });
  view.levels.textContent = aiPlays(state.ai);
  view.advice.update(state);
  view.save.href = `/api/matches/${encodeURIComponent(id)}/save`;
  view.watch.href = `/viewer?lang=${currentLang()}&match=${encodeURIComponent(id)}`;
  view.undo.disabled = !state.can_undo;
  view.log.set(state.events, { fresh: told });
  const banner = whoseTurn(state);
  view.banner.textContent = banner.text;
  view.banner.className = `turn-banner${banner.side ? ` side-${sideIndex(state.board, banner.side)}` : " over"}`;
  view.banner.dataset.side = banner.side || "";
  const decision = state.decision;
  if (decision && decision.actor && !selected && state.board.models.some((m) => m.id === decision.actor)) selected = decision.actor;
  if (!decision) selected = null;
  drawMatchBoard();
  loadReach();
  view.outcome.replaceChildren(...(state.result ? [renderResult(state.result, state.sides)] : []));
  view.form.hidden = !decision;
  view.notation.value = "";
  if (!decision) {
    view.turn.replaceChildren(element("p", { class: "prompt", text: state.result ? t("battle_over") : t("nobody_decides") }));
    view.options.replaceChildren();
    view.hint.textContent = "";
    return;
  }
  view.turn.replaceChildren(
    element("p", { class: "prompt", id: "prompt", "data-kind": decision.kind, text: decision.prompt }),
    element("p", { class: "hint", text: decision.free ? t("free_decision") : t("pick_an_option") }),
  );
  view.notation.placeholder = decision.options[0]?.notation || "";
  view.options.replaceChildren(...renderOptions(decision, state.board.units));
  boardHint();
}

// A free decision that a point of the board answers: a move, or a suggested option ending in a point.
function movesToPoints(decision) {
  return Boolean(decision && decision.free && (decision.kind === "move" || decision.options.some((o) => /-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?$/.test(o.notation))));
}

// The models a person may drag: their own, while a free move is asked.
function movable() {
  const decision = match.decision;
  if (!movesToPoints(decision)) return [];
  return match.board.models.filter((m) => m.side === decision.player && (!decision.actor || m.id === decision.actor || m.group === decision.actor)).map((m) => m.id);
}

function drawMatchBoard() {
  const decision = match.decision;
  const free = Boolean(decision && decision.free);
  view.stage.show(match.board, match.legend, {
    selected, marker, reach, interactive: free, actor: decision ? decision.actor : null, movable: movable(),
  });
  view.legend.replaceChildren(drawLegend(match.board, match.legend));
}

// The reach of the selected model, when a free move is asked of it.
async function loadReach() {
  reach = null;
  const decision = match.decision;
  if (!selected || !movesToPoints(decision) || !movable().includes(selected)) return;
  const asked = { match: match.id, model: selected, state: match };
  try {
    const found = await getJSON(`/api/matches/${encodeURIComponent(asked.match)}/reach?model=${encodeURIComponent(asked.model)}`);
    if (match !== asked.state || selected !== asked.model) return;
    reach = found;
    drawMatchBoard();
  } catch {
    reach = null; // a model that cannot move here has no reach to draw
  }
}

// The ruler's answer in words: the distance (and the gap between bases), and the line of sight by its rule.
async function measured(a, b) {
  const found = await getJSON(`/api/matches/${encodeURIComponent(match.id)}/measure?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  const units = t(`units_${found.units}`);
  const parts = [found.gap === null ? t("ruler_squares", { a, b, n: found.distance }) : t("ruler_distance", { a, b, distance: found.distance, gap: found.gap, units })];
  if (found.sight !== null) parts.push(t(found.sight ? "ruler_sees" : "ruler_blocked", { rule: found.sight_rule }));
  else parts.push(t("ruler_no_sight_rule"));
  return { ...found, text: parts.join(" · ") };
}

function boardHint() {
  const decision = match.decision;
  if (!decision || !decision.free) view.hint.textContent = "";
  else if (selected) view.hint.textContent = t("now_click_a_point", { model: selected });
  else view.hint.textContent = t("click_a_model");
}

// A click on a model selects it (the model that acts is selected already; a click on it keeps it so).
function pickModel(modelId) {
  selected = modelId;
  marker = null;
  reach = null;
  drawMatchBoard();
  loadReach();
  boardHint();
}

function pickPoint(x, y) {
  const notation = pointNotation(match.decision, selected, notationPoint(match.board, x, y), match.board);
  if (!notation) {
    view.hint.textContent = selected ? t("no_point_here") : t("click_a_model");
    return;
  }
  marker = { x, y };
  drawMatchBoard();
  view.notation.value = notation;
  choose(notation);
}

// The notation of a free choice at a point. A suggested option that ends in a point is the ruleset's own form
// ("move k1 to 312,440", "recoil to 290,455"): the clicked model takes the place of its model, the clicked point
// that of its point. With no such option, a free move is written "move <model> to x,y" (the form every ruleset
// documents for the "move" decision).
export function pointNotation(decision, model, point, board) {
  if (!decision || !decision.free) return null;
  const ids = new Set(board.models.map((m) => m.id));
  for (const option of decision.options) {
    const found = /^(.*?)(-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?)$/.exec(option.notation);
    if (!found) continue;
    let head = found[1];
    const named = [...ids].filter((id) => head.includes(` ${id} `) || head.startsWith(`${id} `)).sort((a, b) => b.length - a.length)[0];
    if (named && model) head = head.replace(named, model);
    else if (named && !model) return null;
    return `${head}${point}`;
  }
  if (decision.kind === "move" && model) return `move ${model} to ${point}`;
  return null;
}

async function choose(notation) {
  await act("choose", { notation });
}

async function act(what, body = null) {
  if (busy || !match) return;
  busy = true;
  view.problem.hidden = true;
  document.body.classList.add("waiting");
  try {
    const seen = match.events.length;
    const state = await postJSON(`/api/matches/${encodeURIComponent(match.id)}/${what}`, body || {});
    told = what === "undo" ? state.events.length : seen;
    selected = null;
    marker = null;
    reach = null;
    show(state);
  } catch (error) {
    marker = null;
    drawMatchBoard();
    fail(error);
  } finally {
    busy = false;
    document.body.classList.remove("waiting");
  }
}
