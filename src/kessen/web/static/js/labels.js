// What is written over the board at the screen's own size, whatever the zoom: the labels of models and of their
// units or Detachments, and the coordinate ticks along the table's edges.
//
// [DECISION] Labels never overlap. They are placed one by one, most wanted first (the selected model, the model
// that acts, then the units in the scenario's order); each takes the first free place around its model (under,
// over, right, left) and is left out when none is free. While a model's base is smaller than a label's height on
// the screen, a unit or Detachment gets one label (its id, under its models), not one per model; closer in, each
// model shows its name. Every hidden detail is on the model's tap or hover.

const SVG = "http://www.w3.org/2000/svg";
const FONT_PX = 12;
const GAP = 2; // pixels kept free around each label
const TICK_GAP = { x: 56, y: 28 }; // the least distance between two ticks, in pixels

let measurer = null;

function textWidth(text) {
  if (!measurer) {
    measurer = document.createElement("canvas").getContext("2d");
  }
  measurer.font = `600 ${FONT_PX}px ${getComputedStyle(document.body).fontFamily}`;
  return measurer.measureText(text).width + 4; // the halo
}

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function overlaps(a, b) {
  return a.x0 < b.x1 + GAP && b.x0 < a.x1 + GAP && a.y0 < b.y1 + GAP && b.y0 < a.y1 + GAP;
}

// A model's name where it tells the models apart, else its id (the word notation uses).
function modelText(model, names) {
  return model.name && model.name !== model.id && names.get(model.name) === 1 ? model.name : model.id;
}

// The labels to place, most wanted first: {text, box (client px of what it names), kind, id}.
function candidates(board, shapes, { first, perModel }) {
  const found = [];
  const names = new Map();
  for (const model of board.models) names.set(model.name, (names.get(model.name) || 0) + 1);
  if (perModel) {
    for (const model of board.models) {
      const box = shapes.get(model.id);
      if (box) found.push({ text: modelText(model, names), box, kind: "model", id: model.id });
    }
  } else {
    const groups = new Map();
    for (const model of board.models) {
      const box = shapes.get(model.id);
      if (!box) continue;
      const key = model.group || `\u0000${model.id}`;
      const known = groups.get(key);
      if (known) {
        known.box = { x0: Math.min(known.box.x0, box.x0), y0: Math.min(known.box.y0, box.y0), x1: Math.max(known.box.x1, box.x1), y1: Math.max(known.box.y1, box.y1) };
      } else {
        groups.set(key, { text: model.group || modelText(model, names), box: { ...box }, kind: model.group ? "group" : "model", id: model.group || model.id });
      }
    }
    found.push(...groups.values());
  }
  const rank = (c) => (first.includes(c.id) ? first.indexOf(c.id) : first.length);
  return found.sort((a, b) => rank(a) - rank(b));
}

// The places a label may take around the box it names, in order.
function places(box, width) {
  const cx = (box.x0 + box.x1) / 2;
  const cy = (box.y0 + box.y1) / 2;
  const h = FONT_PX + 2;
  return [
    { x0: cx - width / 2, y0: box.y1 + 1, x1: cx + width / 2, y1: box.y1 + 1 + h },
    { x0: cx - width / 2, y0: box.y0 - 1 - h, x1: cx + width / 2, y1: box.y0 - 1 },
    { x0: box.x1 + 2, y0: cy - h / 2, x1: box.x1 + 2 + width, y1: cy + h / 2 },
    { x0: box.x0 - 2 - width, y0: cy - h / 2, x1: box.x0 - 2, y1: cy + h / 2 },
  ];
}

// Write the labels into *layer* (an SVG in client pixels whose origin is *origin*); *shapes* maps each model id
// to its box on the screen; *frame* is the box labels must stay inside. Returns the placed labels.
export function placeLabels(layer, board, shapes, { origin, frame, first = [], modelPixels }) {
  layer.replaceChildren();
  const grouped = board.models.some((m) => m.group);
  const perModel = !grouped || modelPixels >= FONT_PX + 4;
  const taken = [];
  for (const candidate of candidates(board, shapes, { first, perModel })) {
    const width = textWidth(candidate.text);
    const spot = places(candidate.box, width).find(
      (p) => p.x0 >= frame.x0 && p.x1 <= frame.x1 && p.y0 >= frame.y0 && p.y1 <= frame.y1 && !taken.some((q) => overlaps(p, q)),
    );
    if (!spot) continue;
    taken.push(spot);
    layer.append(
      svg("text", {
        class: `label label-${candidate.kind}`,
        x: (spot.x0 + spot.x1) / 2 - origin.x,
        y: (spot.y0 + spot.y1) / 2 - origin.y,
        "font-size": FONT_PX,
        "data-for": candidate.id,
      }, candidate.text),
    );
  }
  return taken;
}

// A step of 1, 2 or 5 times a power of ten, at least *least* board units (a whole number of squares).
export function tickStep(least, units) {
  const power = Math.pow(10, Math.floor(Math.log10(Math.max(least, 1e-9))));
  for (const k of [1, 2, 5, 10]) {
    const step = k * power;
    if (step >= least) return units === "square" ? Math.max(1, Math.round(step)) : step;
  }
  return 10 * power;
}

// Ticks along the bottom and the left of the table, in *layer* (client pixels from *origin*); *toClient* takes a
// board point (y up) to the screen. A square's tick is at its middle, numbered as the square.
export function drawTicks(layer, board, toClient, { origin, frame, scale }) {
  layer.replaceChildren();
  const half = board.units === "square" ? 0.5 : 0;
  const stepX = tickStep(TICK_GAP.x / scale, board.units);
  const stepY = tickStep(TICK_GAP.y / scale, board.units);
  const decimals = (step) => (step >= 1 ? 0 : Math.ceil(-Math.log10(step)));
  for (let v = 0; v <= board.width - half * 2 + 1e-9; v += stepX) {
    const at = toClient(v + half, 0);
    if (!at || at.x < frame.x0 || at.x > frame.x1) continue;
    const x = at.x - origin.x;
    layer.append(svg("line", { class: "tick", x1: x, y1: frame.y1 - origin.y, x2: x, y2: frame.y1 - origin.y + 4 }));
    layer.append(svg("text", { class: "tick-label tick-x", x, y: frame.y1 - origin.y + 14 }, v.toFixed(decimals(stepX))));
  }
  for (let v = 0; v <= board.height - half * 2 + 1e-9; v += stepY) {
    const at = toClient(0, v + half);
    if (!at || at.y < frame.y0 || at.y > frame.y1) continue;
    const y = at.y - origin.y;
    layer.append(svg("line", { class: "tick", x1: frame.x0 - origin.x - 4, y1: y, x2: frame.x0 - origin.x, y2: y }));
    layer.append(svg("text", { class: "tick-label tick-y", x: frame.x0 - origin.x - 6, y }, v.toFixed(decimals(stepY))));
  }
}
