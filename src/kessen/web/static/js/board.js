// The battlefield drawn as SVG from a match's board() (plain data, the same shape in every ruleset): the table
// to scale in its own units (millimetres or inches) or the armies-clash grid of squares, the terrain, every model
// on its base (round bases to scale) or its footprint of squares, in its side's colour, with wounds and statuses.
// The board is only drawn here: where a model may go is the ruleset's to say (the play page sends notation).
//
// [DECISION] A table is drawn north up: y grows up the page, as the rulesets' tables measure it (song-of-blades
// "y up (north)", legions' south edge at y = 0), the way the terminal's map shows it; a grid of squares is drawn as
// the armies-clash coordinates say, row 0 at the top ("as on a printed map").

import { element } from "./dom.js";
import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

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

// A point as notation writes it in the board's units: whole millimetres, tenths of an inch, the square.
export function notationPoint(board, x, y) {
  if (board.units === "square") return `${Math.floor(x)},${Math.floor(y)}`;
  const step = board.units === "inch" ? 10 : 1;
  const round = (v) => String(Math.round(v * step) / step);
  return `${round(x)},${round(y)}`;
}

function modelTitle(model, legend) {
  const parts = [model.name === model.id ? model.id : `${model.name} (${model.id})`, model.side];
  if (model.wounds_max !== null && model.wounds_max !== undefined) parts.push(t("board_wounds", { left: model.wounds, max: model.wounds_max }));
  if (model.group) parts.push(t("board_group", { group: model.group }));
  for (const word of model.status) parts.push(legend.status[word] || word);
  return parts.join(" · ");
}

// The page's y of a board y: flipped for a table (north up), as it is for a grid.
function pageY(board) {
  return board.units === "square" ? (y) => y : (y) => board.height - y;
}

function drawModel(board, model, legend, { selected, unit }) {
  const Y = pageY(board);
  const side = sideIndex(board, model.side);
  const statuses = model.status.map((word) => `status-${word.replace(/[^\w-]/g, "_")}`).join(" ");
  const group = svg("g", {
    class: `model side-${side} ${statuses}${selected === model.id ? " selected" : ""}`,
    "data-model": model.id,
    "data-side": model.side,
    "data-x": model.x,
    "data-y": model.y,
    "data-status": model.status.join(" "),
    "data-wounds": model.wounds ?? "",
  });
  group.append(svg("title", {}, modelTitle(model, legend)));
  let cx;
  let cy;
  let size;
  if (model.footprint) {
    const [w, d] = model.footprint;
    group.append(svg("rect", { class: "body", x: model.x + 0.06, y: Y(model.y) + 0.06, width: w - 0.12, height: d - 0.12, rx: 0.12 }));
    [cx, cy, size] = [model.x + w / 2, Y(model.y) + d / 2, Math.min(w, d)];
  } else {
    const r = (model.base || unit) / 2;
    group.append(svg("circle", { class: "body", cx: model.x, cy: Y(model.y), r }));
    [cx, cy, size] = [model.x, Y(model.y), r * 2];
  }
  // On a grid the id fits in the square; on a table it is written under the base, at a size read on the whole table.
  const text = board.units === "square" ? size * 0.3 : Math.max(board.width, board.height) / 85;
  const label = board.units === "square" && model.id.length > 7 ? model.id.slice(0, 6) + "…" : model.id;
  const labelY = board.units === "square" ? cy : cy + size / 2 + text * 0.9;
  group.append(svg("text", { class: board.units === "square" ? "label" : "label under", x: cx, y: labelY, "font-size": text, "dominant-baseline": "central" }, label));
  if (model.wounds_max !== null && model.wounds_max !== undefined && model.wounds_max > 1) {
    // one pip per wound, filled while the wound is left
    const pip = Math.min(size * 0.16, (size * 0.9) / (model.wounds_max * 1.3));
    const left = cx - ((model.wounds_max - 1) * pip * 1.3) / 2;
    const pipY = board.units === "square" ? cy + size * 0.32 : cy;
    for (let i = 0; i < model.wounds_max; i += 1) {
      group.append(svg("circle", { class: i < model.wounds ? "pip" : "pip lost", cx: left + i * pip * 1.3, cy: pipY, r: pip / 2 }));
    }
  }
  if (model.status.length) {
    const words = model.status.map((w) => legend.status[w] || w).join(", ");
    group.append(svg("text", { class: "status", x: cx, y: cy - size / 2 - text * 0.35, "font-size": text * 0.8 }, words));
  }
  return group;
}

function drawTerrain(board, piece, legend, stroke) {
  const Y = pageY(board);
  const kind = piece.kind.replace(/[^\w-]/g, "_");
  const title = svg("title", {}, legend.terrain[piece.kind] || piece.kind);
  let node;
  if (piece.shape === "segment") {
    const [[x1, y1], [x2, y2]] = piece.points;
    node = svg("line", { class: `terrain segment terrain-${kind}`, x1, y1: Y(y1), x2, y2: Y(y2), "stroke-width": stroke * 3 });
  } else if (piece.shape === "square") {
    const [[x, y]] = piece.points;
    node = svg("rect", { class: `terrain square terrain-${kind}`, x, y: Y(y), width: 1, height: 1 });
  } else {
    const [[x0, y0], [x1, y1]] = piece.points;
    const [top, bottom] = [Y(y0), Y(y1)];
    node = svg("rect", { class: `terrain rect terrain-${kind}`, x: Math.min(x0, x1), y: Math.min(top, bottom), width: Math.abs(x1 - x0), height: Math.abs(bottom - top) });
  }
  node.setAttribute("data-terrain", piece.kind);
  node.append(title);
  return node;
}

// The board as an SVG element. onModel(id) hears a click on a model, onPoint(x, y) one on the table (in board units).
export function drawBoard(board, legend, { selected = null, marker = null, onModel = null, onPoint = null } = {}) {
  const { width, height } = board;
  const unit = board.units === "mm" ? 25 : 1; // a base with no size drawn as the smallest common one
  const pad = Math.max(width, height) * 0.015;
  const root = svg("svg", {
    class: `board units-${board.units}${onPoint || onModel ? " interactive" : ""}`,
    viewBox: `${-pad} ${-pad} ${width + 2 * pad} ${height + 2 * pad}`,
    role: "img",
    "aria-label": t("board_label", { width, height, units: t(`units_${board.units}`) }),
    "data-units": board.units,
    "data-flip": board.units === "square" ? null : "y",
    "data-height": height,
  });
  const stroke = Math.max(width, height) / 400;
  root.style.setProperty("--stroke", String(stroke));
  root.append(svg("rect", { class: "table", x: 0, y: 0, width, height }));
  if (board.units === "square" && width * height <= 40000) {
    const grid = svg("g", { class: "grid-lines" });
    for (let x = 1; x < width; x += 1) grid.append(svg("line", { x1: x, y1: 0, x2: x, y2: height }));
    for (let y = 1; y < height; y += 1) grid.append(svg("line", { x1: 0, y1: y, x2: width, y2: y }));
    root.append(grid);
  }
  const terrain = svg("g", { class: "terrain-layer" });
  for (const piece of board.terrain) terrain.append(drawTerrain(board, piece, legend, stroke));
  root.append(terrain);
  const models = svg("g", { class: "model-layer" });
  // the fallen and the routed under the standing
  const order = [...board.models].sort((a, b) => Number(b.status.length > 0) - Number(a.status.length > 0));
  for (const model of order) models.append(drawModel(board, model, legend, { selected, unit }));
  root.append(models);
  if (marker) {
    const r = board.units === "square" ? 0.3 : Math.max(width, height) / 120;
    root.append(svg("circle", { class: "marker", cx: marker.x, cy: pageY(board)(marker.y), r }));
  }
  if (onModel || onPoint) {
    root.addEventListener("click", (event) => {
      const hit = event.target.closest("[data-model]");
      if (hit && onModel) {
        onModel(hit.dataset.model);
        return;
      }
      const matrix = root.getScreenCTM();
      if (!matrix || !onPoint) return;
      const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      if (at.x < 0 || at.y < 0 || at.x > width || at.y > height) return;
      onPoint(at.x, pageY(board)(at.y)); // the flip is its own inverse
    });
  }
  return root;
}

// The key under the board: each side's colour, the terrain kinds and the statuses on it.
export function drawLegend(board, legend) {
  const item = (swatchClass, text) => element("span", { class: "legend-item" }, element("span", { class: `swatch ${swatchClass}` }), text);
  const items = board.sides.map((side) => item(`side-swatch side-${sideIndex(board, side)}`, side));
  for (const [kind, word] of Object.entries(legend.terrain)) items.push(item(`terrain-swatch terrain-${kind.replace(/[^\w-]/g, "_")}`, word));
  for (const [word, text] of Object.entries(legend.status)) items.push(element("span", { class: "legend-item status-word" }, text));
  const scale = t("board_scale", { width: board.width, height: board.height, units: t(`units_${board.units}`) });
  return element("div", { class: "legend board-legend" }, ...items, element("span", { class: "legend-item scale" }, scale));
}
