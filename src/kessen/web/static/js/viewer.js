// Page 2, the battle viewer: a scenario's board; then a battle replayed (an AI battle of it, a match played here,
// a save file, or an events file of kessen battle) with a scrubber and step buttons, the narration beside it and
// the board following the events. The boards are the server's replay of the match's save (GET .../replay); an AI
// battle is played by the server in the background first, and the page waits for it.
// The address keeps ?match and ?at (the position), so a link shows the same moment of the same battle.

import { currentLang, query, setQuery } from "./address.js";
import { AiLevels, aiPlays } from "./ailevels.js";
import { ApiError, getJSON, postJSON, postText } from "./api.js";
import { BoardView, drawLegend } from "./board.js";
import { element } from "./dom.js";
import { EventLog } from "./log.js";
import { ScenarioPicker } from "./picker.js";
import { renderResult } from "./result.js";
import { t } from "./words.js";

const SPEEDS = [2, 8, 32, 128]; // events a second

let view = null; // the page's parts, made once per mount
let replay = null; // the loaded replay
let position = 0; // events shown
let timer = null;
let loading = 0;

// The boards of a replay: the start, and after each frame the models as they then stand.
export class Replay {
  constructor(data) {
    this.data = data;
    this.events = data.events;
    this.boards = [];
    let models = new Map(data.start.models.map((m) => [m.id, m]));
    for (const frame of data.frames) {
      models = new Map(models);
      for (const id of frame.gone) models.delete(id);
      for (const m of frame.models) models.set(m.id, m);
      this.boards.push({ at: frame.at, models: [...models.values()] });
    }
  }

  // The board once *shown* events have been told: the last frame whose first event is among them.
  boardAt(shown) {
    let low = 0;
    let high = this.boards.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.boards[mid].at < shown) low = mid + 1;
      else high = mid;
    }
    const models = low === 0 ? this.data.start.models : this.boards[low - 1].models;
    return { ...this.data.start, models };
  }
}

function button(text, attributes, onClick) {
  const node = element("button", { type: "button", text, ...attributes });
  node.addEventListener("click", onClick);
  return node;
}

function build(app, lang) {
  const seed = element("input", { type: "number", id: "replay-seed", min: 0, step: 1, value: query().get("seed") || 1 });
  const file = element("input", { type: "file", id: "replay-file", accept: ".json,.jsonl,.txt,application/json" });
  const problem = element("div", { class: "error-line", role: "alert", id: "viewer-error", hidden: true });
  const stage = new BoardView({ id: "viewer-board" });
  const legend = element("div", { class: "legend-holder" });
  const range = element("input", { type: "range", id: "scrubber", min: 0, max: 0, value: 0, step: 1, "aria-label": t("scrubber") });
  const where = element("span", { class: "where", id: "position" });
  const speed = element("select", { id: "speed", "aria-label": t("speed") }, ...SPEEDS.map((n) => element("option", { value: n, text: t("speed_n", { n }) })));
  speed.value = "8";
  const play = button(t("play_replay"), { class: "primary", "data-action": "play" }, () => toggle());
  const controls = element(
    "div",
    { class: "controls", id: "replay-controls", hidden: true },
    button("|◀", { class: "quiet", "data-action": "first", title: t("first_event"), "aria-label": t("first_event") }, () => go(0)),
    button("◀", { class: "quiet", "data-action": "back", title: t("step_back"), "aria-label": t("step_back") }, () => go(position - 1)),
    play,
    button("▶", { class: "quiet", "data-action": "step", title: t("step_on"), "aria-label": t("step_on") }, () => go(position + 1)),
    button("▶|", { class: "quiet", "data-action": "last", title: t("last_event"), "aria-label": t("last_event") }, () => go(replay ? replay.events.length : 0)),
    range,
    where,
    speed,
  );
  range.addEventListener("input", () => go(Number(range.value)));
  const log = new EventLog({ label: t("battle_report"), onPick: (index) => go(index + 1) });
  const outcome = element("div", { class: "outcome-holder", id: "viewer-result" });
  const picker = new ScenarioPicker({ lang, chosen: query().get("scenario"), onChange: (preview) => previewed(preview) });
  const watch = button(t("watch_ai_battle"), { class: "primary", "data-action": "watch", disabled: true }, () => watchBattle());
  const ai = new AiLevels({ id: "viewer-ai-levels" });
  file.addEventListener("change", () => openFile());
  const setup = element(
    "section",
    { class: "card setup" },
    element("h2", { text: t("choose_battle") }),
    picker.element,
    ai.element,
    element("div", { class: "row" }, element("label", { for: "replay-seed", text: t("seed") }), seed, watch),
    element("div", { class: "row" }, element("label", { for: "replay-file", text: t("open_file") }), file),
    element("p", { class: "hint", text: t("file_hint") }),
    problem,
  );
  const report = element("aside", { class: "card report" }, element("h2", { text: t("battle_report") }), log.list, outcome);
  const levels = element("p", { class: "hint", id: "viewer-ai" });
  const board = element("section", { class: "card stage" }, element("h2", { id: "viewer-heading", text: t("board") }), levels, stage.element, legend, controls);
  app.replaceChildren(element("div", { class: "viewer-layout" }, setup, board, report));
  return { seed, file, problem, stage, legend, range, where, speed, play, controls, log, outcome, picker, watch, ai, levels };
}

export async function mount(app) {
  stop();
  replay = null;
  view = build(app, currentLang());
  const id = query().get("match");
  if (id) await load(id, Number(query().get("at") || 0));
}

function fail(error) {
  view.problem.hidden = false;
  view.problem.textContent = error instanceof ApiError ? error.message : t("no_answer");
}

function previewed(preview) {
  view.watch.disabled = !preview;
  view.ai.show(preview ? preview.sides : []);
  if (replay || !preview) return;
  view.stage.show(preview.board, preview.legend);
  view.legend.replaceChildren(drawLegend(preview.board, preview.legend));
}

async function watchBattle() {
  view.problem.hidden = true;
  try {
    const seed = Number(view.seed.value);
    const made = await postJSON("/api/matches", { ...view.picker.value(), seed, people: [], lang: currentLang(), ai: view.ai.value() });
    setQuery({ match: made.id, at: 0 }, { push: true });
    await load(made.id, 0);
  } catch (error) {
    fail(error);
  }
}

// A save file replays as it is; any other file is taken as the events of an AI battle of the chosen scenario and seed.
async function openFile() {
  view.problem.hidden = true;
  const chosen = view.file.files[0];
  if (!chosen) return;
  try {
    const text = await chosen.text();
    let save = false;
    try {
      const data = JSON.parse(text);
      save = Boolean(data && typeof data === "object" && String(data.format || "").startsWith("kessen-save/"));
    } catch {
      save = false;
    }
    const made = save
      ? await postText("/api/matches/load", text)
      : await postJSON("/api/matches/from-events", { ...view.picker.value(), seed: Number(view.seed.value), events: text, lang: currentLang() });
    setQuery({ match: made.id, at: 0 }, { push: true });
    await load(made.id, 0);
  } catch (error) {
    fail(error);
  } finally {
    view.file.value = "";
  }
}

const POLL_MS = 200;

// An AI battle is played by the server in the background: wait until it is no longer playing. The levels its AI
// sides play at are said above the board.
async function played(id, ticket) {
  const heading = document.getElementById("viewer-heading");
  let state;
  while ((state = await getJSON(`/api/matches/${encodeURIComponent(id)}`)).status === "playing") {
    if (ticket !== loading) return;
    heading.textContent = t("ai_playing");
    view.levels.textContent = aiPlays(state.ai);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  view.levels.textContent = aiPlays(state.ai);
}

async function load(id, at) {
  const ticket = (loading += 1);
  stop();
  try {
    await played(id, ticket);
    if (ticket !== loading) return;
    const data = await getJSON(`/api/matches/${encodeURIComponent(id)}/replay`);
    if (ticket !== loading) return;
    replay = new Replay(data);
  } catch (error) {
    fail(error);
    return;
  }
  view.controls.hidden = false;
  view.range.max = String(replay.events.length);
  document.getElementById("viewer-heading").textContent = t("replay_of", { scenario: replay.data.scenario, seed: replay.data.seed });
  view.log.set(replay.events);
  go(Math.min(Math.max(0, at), replay.events.length));
}

// Show the battle once *shown* events are told (its board, the narration up to there, and the result at the end).
function go(shown) {
  if (!replay) return;
  position = Math.min(Math.max(0, shown), replay.events.length);
  const board = replay.boardAt(position);
  view.stage.show(board, replay.data.legend);
  view.legend.replaceChildren(drawLegend(board, replay.data.legend));
  view.range.value = String(position);
  view.where.textContent = t("event_of", { n: position, total: replay.events.length });
  view.log.mark(position);
  const ended = position === replay.events.length && replay.data.result;
  view.outcome.replaceChildren(...(ended ? [renderResult(replay.data.result, replay.data.sides)] : []));
  view.stage.element.dataset.position = String(position);
  if (!timer) setQuery({ at: position }); // while it plays, the address is written when it stops
}

function toggle() {
  if (timer) {
    stop();
    setQuery({ at: position });
    return;
  }
  if (!replay) return;
  if (position >= replay.events.length) go(0);
  view.play.textContent = t("pause_replay");
  view.play.dataset.playing = "true";
  const tick = () => {
    if (!replay || position >= replay.events.length) {
      stop();
      setQuery({ at: position });
      return;
    }
    go(position + 1);
    timer = setTimeout(tick, 1000 / Number(view.speed.value));
  };
  timer = setTimeout(tick, 1000 / Number(view.speed.value));
}

function stop() {
  clearTimeout(timer);
  timer = null;
  if (view) {
    view.play.textContent = t("play_replay");
    view.play.dataset.playing = "false";
  }
}
