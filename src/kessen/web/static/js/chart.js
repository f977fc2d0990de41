// The chart of one outcome field, hand-written SVG: bars of P(= x) for each input (side by side when comparing),
// and over them the curve of P(≥ x) on its own 0–100% axis when the field is a number.

import { percent } from "./fraction.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 720;
const HEIGHT = 330;
const MARGIN = { top: 18, right: 56, bottom: 46, left: 56 };
const MAX_SPAN = 400;

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A round upper bound for the bars' axis: 5%, 10%, 20%, 25%, 50% or 100%.
function barCeiling(highest) {
  for (const step of [0.05, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.8, 1]) if (highest <= step + 1e-12) return step;
  return 1;
}

// series: [{name, className, entries: [{value, p, atLeast}]}]; show(value) words a value; numeric: draw P(≥ x).
export function drawChart({ series, show, numeric, labels }) {
  const values = [];
  const seen = new Set();
  for (const { entries } of series) {
    for (const { value } of entries) {
      const key = JSON.stringify(value);
      if (!seen.has(key)) {
        seen.add(key);
        values.push(value);
      }
    }
  }
  if (numeric) {
    values.sort((x, y) => x - y);
    // Every whole number between the least and the greatest gets its place, so gaps show as gaps.
    const [low, high] = [values[0], values[values.length - 1]];
    if (high - low < MAX_SPAN) values.splice(0, values.length, ...Array.from({ length: high - low + 1 }, (_, i) => low + i));
  }
  const lookup = series.map(({ entries }) => new Map(entries.map((e) => [JSON.stringify(e.value), e])));
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const highest = Math.max(0.0001, ...series.flatMap(({ entries }) => entries.map((e) => e.p.toNumber())));
  const ceiling = barCeiling(highest);
  const slot = plotW / Math.max(1, values.length);
  const barW = Math.max(1, (slot * 0.8) / series.length);
  const y = (p) => MARGIN.top + plotH * (1 - p / ceiling);
  const yAtLeast = (p) => MARGIN.top + plotH * (1 - p);

  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chart", role: "img", "aria-label": labels.title });
  root.append(svg("title", {}, labels.title));
  const grid = svg("g", { class: "grid" });
  for (let i = 0; i <= 4; i += 1) {
    const p = (ceiling * i) / 4;
    grid.append(svg("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(p), y2: y(p) }));
    grid.append(svg("text", { x: MARGIN.left - 6, y: y(p) + 4, class: "axis-left" }, `${Math.round(p * 1000) / 10}%`));
    if (numeric) grid.append(svg("text", { x: WIDTH - MARGIN.right + 6, y: yAtLeast(i / 4) + 4, class: "axis-right" }, `${i * 25}%`));
  }
  root.append(grid);
  root.append(svg("text", { x: 14, y: MARGIN.top + plotH / 2, class: "axis-title", transform: `rotate(-90 14 ${MARGIN.top + plotH / 2})` }, labels.exactly));
  if (numeric) {
    const x = WIDTH - 12;
    root.append(svg("text", { x, y: MARGIN.top + plotH / 2, class: "axis-title", transform: `rotate(90 ${x} ${MARGIN.top + plotH / 2})` }, labels.atLeast));
  }

  const bars = svg("g", { class: "bars" });
  const every = Math.max(1, Math.ceil(values.length / 24));
  values.forEach((value, index) => {
    const key = JSON.stringify(value);
    const left = MARGIN.left + slot * index + slot * 0.1;
    series.forEach((one, s) => {
      const entry = lookup[s].get(key);
      if (!entry) return;
      const top = y(entry.p.toNumber());
      const bar = svg("rect", { x: left + barW * s, y: top, width: barW, height: Math.max(0, MARGIN.top + plotH - top), class: `bar ${one.className}`, "data-value": key });
      bar.append(svg("title", {}, `${one.name} · ${show(value)}: ${entry.p} (${percent(entry.p)})`));
      bars.append(bar);
    });
    if (index % every === 0 || index === values.length - 1) {
      bars.append(svg("text", { x: MARGIN.left + slot * (index + 0.5), y: HEIGHT - MARGIN.bottom + 16, class: "axis-bottom" }, show(value)));
    }
  });
  root.append(bars);
  root.append(svg("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: MARGIN.top + plotH, y2: MARGIN.top + plotH, class: "baseline" }));
  root.append(svg("text", { x: MARGIN.left + plotW / 2, y: HEIGHT - 8, class: "axis-title" }, labels.field));

  if (numeric) {
    series.forEach((one, s) => {
      const entries = one.entries;
      const points = values
        .map((value, index) => [index, lookup[s].get(JSON.stringify(value)) || entries.find((e) => e.value > value)])
        .filter(([, entry]) => entry)
        .map(([index, entry]) => [MARGIN.left + slot * (index + 0.5), yAtLeast(entry.atLeast.toNumber()), entry, values[index]]);
      const curve = svg("g", { class: `curve ${one.className}` });
      curve.append(svg("polyline", { points: points.map(([px, py]) => `${px},${py}`).join(" ") }));
      for (const [px, py, entry, value] of points) {
        const dot = svg("circle", { cx: px, cy: py, r: values.length > 40 ? 1.8 : 3.2 });
        dot.append(svg("title", {}, `${one.name} · ≥ ${show(value)}: ${entry.atLeast} (${percent(entry.atLeast)})`));
        curve.append(dot);
      }
      root.append(curve);
    });
  }
  return root;
}
