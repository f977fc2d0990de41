// The battlefield drawn as SVG from a match's board() (plain data, the same shape in every ruleset): the table
// to scale in its own units (millimetres or inches) or the armies-clash grid of squares, the terrain, every model
// on its base (round bases to scale) or its footprint of squares, in its side's colour, its wounds as a bar and its
// statuses as small icons. A BoardView zooms (wheel, pinch, buttons) and pans, fits the models, writes labels that
// never overlap (labels.js) and coordinate ticks, shows a model's details on hover or tap, and where the page asks,
// a model's reach, a drag to move and a ruler. Where a model may go and what a ruler finds are the referee's to say
// (the page asks the server); here they are only drawn.
//
// [DECISION] Every board is drawn north up: y grows up the page, as the rulesets' tables measure it (song-of-blades
// "y up (north)", legions' south edge at y = 0); the armies-clash grid too, its row 0 at the bottom, so that every
// ruleset reads the same way on the page.

import { Camera, listen } from "./camera.js";
import { element } from "./dom.js";
import { drawTicks, placeLabels } from "./labels.js";
import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const TICK_ROOM = { left: 34, bottom: 20 }; // pixels beside the table for its ticks
const TAP_PIXELS = 22; // the least size of a model a finger can tap
const LOST = new Set(["fallen", "dead", "destroyed", "routed", "killed", "removed", "casualty"]);

// [DECISION] One small icon per status word, the same in every ruleset and language (the legend says its word).
export const ICONS = {
  activated: "✓", acting: "▶", fallen: "✕", dead: "✕", casualty: "✕", prone: "▼", transfixed: "✶",
  engaged: "⚔", pinned: "⊗", reserve: "◇", broken: "↯", routed: "⚑", cover: "▣", hidden: "◌",
  isolated: "⊙", joined: "⊞", commander: "★", dying: "♥", stable: "♡",
  first_fire: "◎", advance: "→", charge: "⇒", march: "»", fall_back: "←",
};

export function statusIcon(word) {
  return ICONS[word] || word.charAt(0).toUpperCase();
}

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

// The side's place in the scenario's order (its colour): 0, 1, 2, 3, then around again.
export function sideIndex(board, side) {
  return Math.max(0, board.sides.indexOf(side)) % 4;
}

// [DECISION] A side as a person reads it: the scenario's name for it; a scenario that names its sides only by a
// letter (armies-clash's a and b) shows "Side A".
export function sideName(side) {
  return /^[a-z]$/.test(side) ? t("side_letter", { letter: side.toUpperCase() }) : side;
}

// A point as notation writes it in the board's units: whole millimetres, tenths of an inch, the square.
export function notationPoint(board, x, y) {
  if (board.units === "square") return `${Math.floor(x)},${Math.floor(y)}`;
  const step = board.units === "inch" ? 10 : 1;
  const round = (v) => String(Math.round(v * step) / step);
  return `${round(x)},${round(y)}`;
}

// A rules word as the legend says it: the server's word for it, else the id with spaces.
export function statusWord(legend, word) {
  return legend.status[word] || word.replace(/_/g, " ");
}

export function modelDetails(model, legend) {
  const parts = [model.name === model.id ? model.id : `${model.name} (${model.id})`, sideName(model.side)];
  if (model.wounds_max !== null && model.wounds_max !== undefined) parts.push(t("board_wounds", { left: model.wounds, max: model.wounds_max }));
  if (model.group) parts.push(t("board_group", { group: model.group }));
  for (const word of model.status) parts.push(`${statusIcon(word)} ${statusWord(legend, word)}`);
  return parts.join(" · ");
}

// The page's y of a board y (north up); a footprint or square of *depth* squares has its page top at y + depth.
function pageY(board, y, depth = 0) {
  return board.height - y - depth;
}

// A model's centre and radius in page units (a footprint's half-size as its radius).
function modelShape(board, model, unit) {
  if (model.footprint) {
    const [w, d] = model.footprint;
    return { cx: model.x + w / 2, cy: pageY(board, model.y, d) + d / 2, r: Math.min(w, d) / 2, square: true };
  }
  return { cx: model.x, cy: pageY(board, model.y), r: (model.base || unit) / 2, square: false };
}

function drawModel(board, model, legend, shape, { selected, actor }) {
  const side = sideIndex(board, model.side);
  const statuses = model.status.map((word) => `status-${word.replace(/[^\w-]/g, "_")}`).join(" ");
  const lost = model.status.some((word) => LOST.has(word));
  const group = svg("g", {
    class: `model side-${side} ${statuses}${lost ? " lost" : ""}${selected === model.id ? " selected" : ""}${actor === model.id || (actor && actor === model.group) ? " acting" : ""}`,
    "data-model": model.id,
    "data-side": model.side,
    "data-x": model.x,
    "data-y": model.y,
    "data-status": model.status.join(" "),
    "data-wounds": model.wounds ?? "",
  });
  group.append(svg("title", {}, modelDetails(model, legend)));
  const { cx, cy, r } = shape;
  if (model.footprint) {
    const [w, d] = model.footprint;
    group.append(svg("rect", { class: "body", x: model.x + 0.06, y: pageY(board, model.y, d) + 0.06, width: w - 0.12, height: d - 0.12, rx: 0.12 }));
  } else {
    group.append(svg("circle", { class: "body", cx, cy, r }));
  }
  if (model.wounds_max !== null && model.wounds_max !== undefined && model.wounds_max > 1) {
    // wounds or hit points as a bar: its filled part the share left
    const width = r * 1.7;
    const height = r * 0.32;
    const top = model.footprint ? cy + r * 0.45 : cy + r + height * 0.4;
    const share = Math.max(0, Math.min(1, model.wounds / model.wounds_max));
    const tone = share > 0.5 ? "high" : share > 0.25 ? "mid" : "low";
    group.append(svg("rect", { class: "bar-back", x: cx - width / 2, y: top, width, height }));
    group.append(svg("rect", { class: `bar-left bar-${tone}`, x: cx - width / 2, y: top, width: width * share, height }));
  }
  model.status.forEach((word, i) => {
    const size = r * 0.9;
    group.append(svg("text", {
      class: "icon", x: cx + r * 0.75 + i * size * 0.95, y: cy - r * 0.7, "font-size": size, "data-status": word,
    }, statusIcon(word)));
  });
  return group;
}

function drawTerrain(board, piece, legend, stroke) {
  const kind = piece.kind.replace(/[^\w-]/g, "_");
  const title = svg("title", {}, legend.terrain[piece.kind] || piece.kind.replace(/_/g, " "));
  let node;
  if (piece.shape === "segment") {
    const [[x1, y1], [x2, y2]] = piece.points;
    node = svg("line", { class: `terrain segment terrain-${kind}`, x1, y1: pageY(board, y1), x2, y2: pageY(board, y2), "stroke-width": stroke * 3 });
  } else if (piece.shape === "square") {
    const [[x, y]] = piece.points;
    node = svg("rect", { class: `terrain square terrain-${kind}`, x, y: pageY(board, y, 1), width: 1, height: 1 });
  } else {
    const [[x0, y0], [x1, y1]] = piece.points;
    const [top, bottom] = [pageY(board, y0), pageY(board, y1)];
    node = svg("rect", { class: `terrain rect terrain-${kind}`, x: Math.min(x0, x1), y: Math.min(top, bottom), width: Math.abs(x1 - x0), height: Math.abs(bottom - top) });
  }
  node.setAttribute("data-terrain", piece.kind);
  node.append(title);
  return node;
}

// [DECISION] Cover a ruleset gives its models rather than a piece with a shape (legions' Cover Saves, §3.7: the
// wall of hold-the-line) is drawn as a cover band around each unit's models that have it, under them.
function coverBands(board, shapes) {
  const bands = new Map();
  for (const model of board.models) {
    if (!model.status.includes("cover")) continue;
    const { cx, cy, r } = shapes.get(model.id);
    const key = model.group || model.id;
    const band = bands.get(key) || { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    bands.set(key, { x0: Math.min(band.x0, cx - r), y0: Math.min(band.y0, cy - r), x1: Math.max(band.x1, cx + r), y1: Math.max(band.y1, cy + r) });
  }
  return [...bands.entries()].map(([key, b]) => {
    const margin = Math.max(b.x1 - b.x0, b.y1 - b.y0) * 0.04 + 0.3;
    return svg("rect", { class: "terrain rect terrain-cover cover-band", "data-terrain": "cover", "data-for": key, x: b.x0 - margin, y: b.y0 - margin, width: b.x1 - b.x0 + 2 * margin, height: b.y1 - b.y0 + 2 * margin, rx: margin });
  });
}

// Where a model may go, as the server's reach route gives it: squares (each clicked to choose its notation), or
// an area reached along rays and the ring of its farthest point.
function drawReach(board, reach) {
  const layer = svg("g", { class: "reach-layer", "data-model": null, "data-reach": reach.model });
  for (const square of reach.squares || []) {
    const node = svg("rect", { class: "reach-square", x: square.x, y: pageY(board, square.y, 1), width: 1, height: 1, "data-x": square.x, "data-y": square.y, "data-notation": square.notation });
    node.append(svg("title", {}, square.text || square.notation));
    layer.append(node);
  }
  if (reach.area && reach.area.length > 2) {
    layer.append(svg("polygon", { class: "reach-area", points: reach.area.map(([x, y]) => `${x},${pageY(board, y)}`).join(" ") }));
  }
  if (reach.ring) {
    layer.append(svg("circle", { class: "reach-ring", cx: reach.ring.x, cy: pageY(board, reach.ring.y), r: reach.ring.r }));
  }
  return layer;
}

function toolButton(action, text, label, onClick) {
  const node = element("button", { type: "button", class: "quiet tool", "data-action": action, title: label, "aria-label": label, text });
  node.addEventListener("click", onClick);
  return node;
}

// A board on the page that keeps its zoom while what it shows changes.
//   onModel(id): a tap on a model; onPoint(x, y): a tap on the table (board units); onSquare(square): a tap on a
//   reach square; onDrag(id, x, y): a model dragged to a point; measure(a, b): a promise of the ruler's answer
//   {text, from, to} for two models (the ruler button shows only with it); onHandle(handle, x, y): a handle (the
//   builder's place of a scenario entry) dragged to a point; onRect(x0, y0, x1, y1): a rectangle drawn while
//   drawing is on (setDrawing).
export class BoardView {
  constructor({ id, onModel = null, onPoint = null, onSquare = null, onDrag = null, measure = null, onHandle = null, onRect = null } = {}) {
    this.handlers = { onModel, onPoint, onSquare, onDrag, measure, onHandle, onRect };
    this.drawing = false;
    this.board = null;
    this.svg = svg("svg", { class: "board", role: "img", preserveAspectRatio: "xMidYMid meet" });
    this.content = svg("g", { class: "content" });
    this.svg.append(this.content);
    this.ticks = svg("g", { class: "ticks" });
    this.labels = svg("g", { class: "labels" });
    this.ghost = svg("g", { class: "ghost" });
    this.overlay = svg("svg", { class: "board-overlay", "aria-hidden": "true" });
    this.overlay.append(this.ticks, this.labels, this.ghost);
    this.frame = element("div", { class: "board-frame" }, this.svg, this.overlay);
    this.details = element("p", { class: "board-details", "aria-live": "polite" });
    this.ruling = null; // the models chosen for the ruler, while it is on
    const tools = [
      toolButton("zoom-in", "+", t("zoom_in"), () => this.camera?.zoomCentre(1.5)),
      toolButton("zoom-out", "−", t("zoom_out"), () => this.camera?.zoomCentre(1 / 1.5)),
      toolButton("fit-models", t("fit_models"), t("fit_models"), () => this.fitModels()),
      toolButton("fit-table", t("fit_table"), t("fit_table"), () => this.camera?.set(this.camera.whole())),
    ];
    if (measure) {
      this.rulerButton = toolButton("ruler", t("ruler"), t("ruler_hint"), () => this.toggleRuler());
      this.rulerButton.setAttribute("aria-pressed", "false");
      tools.push(this.rulerButton);
    }
    this.toolbar = element("div", { class: "board-tools" }, ...tools);
    this.element = element("div", { class: "board-holder", id }, this.toolbar, this.frame, this.details);
    listen(this.frame, { zoomAt: (...a) => this.camera?.zoomAt(...a), panBy: (...a) => this.camera?.panBy(...a) }, {
      draggable: (x, y) => this.draggable(x, y),
      onTap: (x, y) => this.tap(x, y),
      onDrag: (start, now, done) => this.drag(start, now, done),
      onHover: (x, y) => this.hover(x, y),
    });
    new ResizeObserver(() => this.resize()).observe(this.frame);
  }

  // Draw *board* with the words of *legend*; options: selected (a model id), actor (who acts: a model or a unit),
  // marker ({x, y}), reach (the reach route's answer), interactive (taps choose), movable (ids that may be dragged).
  show(board, legend, { selected = null, actor = null, marker = null, reach = null, interactive = false, movable = [], handles = [] } = {}) {
    const resized = !this.board || this.board.width !== board.width || this.board.height !== board.height || this.board.units !== board.units;
    this.board = board;
    this.legend = legend;
    this.options = { selected, actor, marker, reach, interactive, movable: new Set(movable), handles };
    const { width, height } = board;
    this.unit = board.units === "mm" ? 25 : 1; // a base with no size drawn as the smallest common one
    const pad = Math.max(width, height) * 0.01;
    if (resized) {
      this.camera = new Camera(this.svg, { width, height, units: board.units, pad }, () => this.relayout());
    }
    this.svg.setAttribute("class", `board units-${board.units}${interactive ? " interactive" : ""}`);
    this.svg.setAttribute("aria-label", t("board_label", { width, height, units: t(`units_${board.units}`) }));
    this.svg.dataset.units = board.units;
    this.svg.dataset.flip = "y";
    this.svg.dataset.height = String(height);
    this.svg.dataset.width = String(width);
    const stroke = Math.max(width, height) / 400;
    this.svg.style.setProperty("--stroke", String(stroke));
    this.shapes = new Map(board.models.map((m) => [m.id, modelShape(board, m, this.unit)]));
    const parts = [svg("rect", { class: "table", x: 0, y: 0, width, height })];
    if (board.units === "square" && width * height <= 40000) {
      const grid = svg("g", { class: "grid-lines" });
      for (let x = 1; x < width; x += 1) grid.append(svg("line", { x1: x, y1: 0, x2: x, y2: height }));
      for (let y = 1; y < height; y += 1) grid.append(svg("line", { x1: 0, y1: y, x2: width, y2: y }));
      parts.push(grid);
    }
    const terrain = svg("g", { class: "terrain-layer" });
    for (const piece of board.terrain) terrain.append(drawTerrain(board, piece, legend, stroke));
    terrain.append(...coverBands(board, this.shapes));
    parts.push(terrain);
    if (reach) parts.push(drawReach(board, reach));
    const models = svg("g", { class: "model-layer" });
    // the fallen and the routed under the standing
    const order = [...board.models].sort((a, b) => Number(b.status.some((w) => LOST.has(w))) - Number(a.status.some((w) => LOST.has(w))));
    for (const model of order) models.append(drawModel(board, model, legend, this.shapes.get(model.id), { selected, actor }));
    parts.push(models);
    this.rulerLine = svg("g", { class: "ruler-layer" });
    parts.push(this.rulerLine);
    if (handles.length) {
      const layer = svg("g", { class: "handle-layer" });
      const r = board.units === "square" ? 0.22 : Math.max(width, height) / 110;
      handles.forEach((handle, i) => {
        const [x, y] = this.handlePoint(handle);
        const node = svg("rect", { class: "handle", x: x - r, y: pageY(board, y) - r, width: 2 * r, height: 2 * r, transform: `rotate(45 ${x} ${pageY(board, y)})`, "data-handle": i, "data-label": handle.label });
        node.append(svg("title", {}, handle.label));
        layer.append(node);
      });
      parts.push(layer);
    }
    if (marker) {
      const r = board.units === "square" ? 0.3 : Math.max(width, height) / 120;
      parts.push(svg("circle", { class: "marker", cx: marker.x, cy: pageY(board, marker.y), r }));
    }
    this.content.replaceChildren(...parts);
    if (resized) this.resize(true);
    else this.camera.set(this.camera.view);
    if (this.ruling) this.ruling = [];
  }

  // The frame's height for its width: the table's shape, at most most of the window's height.
  resize(reset = false) {
    if (!this.board) return;
    const width = this.frame.clientWidth;
    if (!width) return;
    const inner = width - TICK_ROOM.left;
    const wanted = (inner * (this.board.height + 2 * this.camera.table.pad)) / (this.board.width + 2 * this.camera.table.pad) + TICK_ROOM.bottom;
    const height = Math.round(Math.min(wanted, Math.max(220, window.innerHeight * 0.72)));
    if (Math.abs(this.frame.clientHeight - height) > 1) this.frame.style.height = `${height}px`;
    this.camera.set(reset ? this.camera.whole() : this.camera.view);
  }

  fitModels() {
    if (!this.board || !this.board.models.length) return;
    let box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const { cx, cy, r } of this.shapes.values()) box = [Math.min(box[0], cx - r), Math.min(box[1], cy - r), Math.max(box[2], cx + r), Math.max(box[3], cy + r)];
    this.camera.fit(box, Math.max(this.board.width, this.board.height) * 0.04);
  }

  // A model's box on the screen (client pixels), at least a fingertip wide.
  screenBox(shape) {
    const c = this.camera.toClient(shape.cx, shape.cy);
    const r = Math.max(shape.r * this.camera.scale(), TAP_PIXELS / 2);
    return { x0: c.x - r, y0: c.y - r, x1: c.x + r, y1: c.y + r, cx: c.x, cy: c.y };
  }

  // The model under a point of the screen: of those whose tap box holds it, the nearest centre.
  modelAt(clientX, clientY) {
    let best = null;
    for (const model of this.board?.models || []) {
      const box = this.screenBox(this.shapes.get(model.id));
      if (clientX < box.x0 || clientX > box.x1 || clientY < box.y0 || clientY > box.y1) continue;
      const distance = Math.hypot(clientX - box.cx, clientY - box.cy) + (model.status.some((w) => LOST.has(w)) ? 1000 : 0);
      if (!best || distance < best.distance) best = { model, distance };
    }
    return best && best.model;
  }

  boardPoint(clientX, clientY) {
    const at = this.camera.toPage(clientX, clientY);
    if (!at || at.x < 0 || at.y < 0 || at.x > this.board.width || at.y > this.board.height) return null;
    return { x: at.x, y: this.board.height - at.y }; // the flip is its own inverse
  }

  relayout() {
    if (!this.board) return;
    const frame = this.frame.getBoundingClientRect();
    const table = this.svg.getBoundingClientRect();
    const origin = { x: frame.left, y: frame.top };
    const scale = this.camera.scale();
    const boxes = new Map();
    let smallest = Infinity;
    for (const model of this.board.models) {
      const shape = this.shapes.get(model.id);
      const c = this.camera.toClient(shape.cx, shape.cy);
      const r = shape.r * scale;
      smallest = Math.min(smallest, 2 * r);
      boxes.set(model.id, { x0: c.x - r, y0: c.y - r, x1: c.x + r, y1: c.y + r });
    }
    const first = [this.options.selected, this.options.actor].filter(Boolean);
    const inside = { x0: table.left, y0: table.top, x1: table.right, y1: table.bottom };
    placeLabels(this.labels, this.board, boxes, { origin, frame: inside, first, modelPixels: smallest });
    drawTicks(this.ticks, this.board, (x, y) => this.camera.toClient(x, pageY(this.board, y)), { origin, frame: inside, scale });
    this.element.dataset.scale = scale.toFixed(4);
    this.element.classList.toggle("zoomed", this.camera.zoomed());
  }

  hover(clientX, clientY) {
    const model = this.board && this.modelAt(clientX, clientY);
    this.details.textContent = model ? modelDetails(model, this.legend) : "";
  }

  // A handle's point on the board: an entry's x, y, or the middle of its square.
  handlePoint(handle) {
    return handle.form === "at" ? [handle.x + 0.5, handle.y + 0.5] : [handle.x, handle.y];
  }

  handleAt(clientX, clientY) {
    let best = null;
    for (const handle of this.options.handles) {
      const [x, y] = this.handlePoint(handle);
      const at = this.camera.toClient(x, pageY(this.board, y));
      const distance = Math.hypot(at.x - clientX, at.y - clientY);
      if (distance <= TAP_PIXELS / 2 && (!best || distance < best.distance)) best = { handle, distance, at };
    }
    return best;
  }

  // What a press at a point would drag: a rectangle being drawn, a handle, or a movable model.
  draggable(clientX, clientY) {
    if (!this.board) return null;
    if (this.drawing && this.handlers.onRect) {
      const point = this.boardPoint(clientX, clientY);
      return point ? { rect: point } : null;
    }
    const handle = this.handlers.onHandle && this.handleAt(clientX, clientY);
    if (handle) return { handle: handle.handle, from: handle.at };
    if (!this.handlers.onDrag) return null;
    const model = this.modelAt(clientX, clientY);
    return model && this.options.movable.has(model.id) ? { model: model.id, from: this.screenBox(this.shapes.get(model.id)) } : null;
  }

  drag(start, now, done) {
    this.ghost.replaceChildren();
    const what = start.draggable;
    const box = this.frame.getBoundingClientRect();
    if (!done) {
      if (what.rect) {
        const from = this.camera.toClient(what.rect.x, pageY(this.board, what.rect.y));
        const [x0, x1] = [Math.min(from.x, now.x), Math.max(from.x, now.x)];
        const [y0, y1] = [Math.min(from.y, now.y), Math.max(from.y, now.y)];
        this.ghost.append(svg("rect", { class: "drag-rect", x: x0 - box.left, y: y0 - box.top, width: x1 - x0, height: y1 - y0 }));
        return;
      }
      const from = what.from;
      const x = from.cx ?? from.x;
      const y = from.cy ?? from.y;
      this.ghost.append(svg("line", { class: "drag-line", x1: x - box.left, y1: y - box.top, x2: now.x - box.left, y2: now.y - box.top }));
      this.ghost.append(svg("circle", { class: "drag-ghost", cx: now.x - box.left, cy: now.y - box.top, r: Math.max(6, from.x1 ? (from.x1 - from.x0) / 2 : 6) }));
      return;
    }
    const point = now && this.boardPoint(now.x, now.y);
    if (!point) return;
    if (what.rect) this.handlers.onRect(what.rect.x, what.rect.y, point.x, point.y);
    else if (what.handle) this.handlers.onHandle(what.handle, point.x, point.y);
    else this.handlers.onDrag(what.model, point.x, point.y);
  }

  // While drawing is on, a drag on the table draws a rectangle (onRect) instead of panning.
  setDrawing(on) {
    this.drawing = on;
    this.frame.classList.toggle("drawing", on);
  }

  tap(clientX, clientY) {
    if (!this.board) return;
    const model = this.modelAt(clientX, clientY);
    if (this.ruling) {
      if (model) this.rule(model.id);
      return;
    }
    if (model) this.details.textContent = modelDetails(model, this.legend);
    const point = this.boardPoint(clientX, clientY);
    const square = point && this.options.reach && (this.options.reach.squares || []).find((s) => Math.floor(point.x) === s.x && Math.floor(point.y) === s.y);
    if (square && this.handlers.onSquare && !(model && model.id !== this.options.reach.model && this.options.movable.has(model.id))) {
      this.handlers.onSquare(square);
      return;
    }
    if (!this.options.interactive) return;
    if (model && this.handlers.onModel) this.handlers.onModel(model.id);
    else if (point && this.handlers.onPoint) this.handlers.onPoint(point.x, point.y);
  }

  toggleRuler() {
    this.ruling = this.ruling ? null : [];
    this.rulerButton.setAttribute("aria-pressed", String(Boolean(this.ruling)));
    this.rulerLine.replaceChildren();
    this.details.textContent = this.ruling ? t("ruler_hint") : "";
  }

  async rule(id) {
    this.ruling.push(id);
    if (this.ruling.length < 2) {
      this.details.textContent = t("ruler_second", { model: id });
      return;
    }
    const [a, b] = this.ruling;
    this.ruling = [];
    try {
      const answer = await this.handlers.measure(a, b);
      const [from, to] = [this.shapes.get(a), this.shapes.get(b)];
      this.rulerLine.replaceChildren(svg("line", { class: "ruler", x1: from.cx, y1: from.cy, x2: to.cx, y2: to.cy, "data-from": a, "data-to": b }));
      this.details.textContent = answer.text;
      this.details.dataset.measured = `${a}|${b}`;
    } catch (error) {
      this.details.textContent = error.message;
    }
  }
}

// The key under the board: each side's colour and name, the terrain kinds and the status icons with their words.
export function drawLegend(board, legend) {
  const item = (swatchClass, text) => element("span", { class: "legend-item" }, element("span", { class: `swatch ${swatchClass}` }), text);
  const items = board.sides.map((side) => item(`side-swatch side-${sideIndex(board, side)}`, sideName(side)));
  for (const [kind, word] of Object.entries(legend.terrain)) items.push(item(`terrain-swatch terrain-${kind.replace(/[^\w-]/g, "_")}`, word));
  if (board.models.some((m) => m.status.includes("cover")) && !legend.terrain.cover) items.push(item("terrain-swatch terrain-cover", statusWord(legend, "cover")));
  for (const word of Object.keys(legend.status)) {
    items.push(element("span", { class: "legend-item status-word", "data-status": word }, element("span", { class: "status-icon", text: statusIcon(word) }), statusWord(legend, word)));
  }
  if (board.models.some((m) => m.wounds_max > 1)) items.push(item("bar-swatch", t("board_bar")));
  const scale = t("board_scale", { width: board.width, height: board.height, units: t(`units_${board.units}`) });
  return element("div", { class: "legend board-legend" }, ...items, element("span", { class: "legend-item scale" }, scale));
}
