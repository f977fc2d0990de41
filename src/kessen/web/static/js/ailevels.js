// The AI level of each side the machine plays (issue 23 §1), on the Play, Simulate and viewer pages: one select per
// machine side (greedy, search, random, or search with N positions a decision up to the server's limit, GET
// /api/ai), greedy unless chosen; and the levels of a match or simulation in words.

import { getJSON } from "./api.js";
import { sideName } from "./board.js";
import { element } from "./dom.js";
import { t } from "./words.js";

const WITH_NODES = "search:N";
let offered = null;
let made = 0;

function levels() {
  if (!offered) offered = getJSON("/api/ai");
  return offered;
}

export class AiLevels {
  constructor({ id }) {
    this.element = element("div", { class: "ai-levels", id });
    this.rows = new Map(); // side → {select, nodes, row}
  }

  // One select for each side of *sides* (the sides the machine plays); a side shown before keeps its level.
  async show(sides) {
    const { levels: names, default: chosen, nodes } = await levels();
    const rows = sides.map((side) => this.rows.get(side) || this.row(side, names, chosen, nodes));
    this.rows = new Map(sides.map((side, i) => [side, rows[i]]));
    this.element.replaceChildren(...rows.map((r) => r.row), ...(rows.length ? [element("p", { class: "hint", text: t("ai_hint") })] : []));
  }

  row(side, names, chosen, nodes) {
    made += 1;
    const id = `ai-level-${made}`;
    const label = t("ai_of", { side: sideName(side) });
    const select = element(
      "select",
      { id, "data-side": side, "aria-label": label },
      ...names.map((name) => element("option", { value: name, text: t(`ai_${name}`) })),
      element("option", { value: WITH_NODES, text: t("ai_search_n") }),
    );
    select.value = chosen;
    const most = nodes.most.toLocaleString();
    const count = element("input", {
      type: "number", class: "ai-nodes", "data-side": side, min: 1, max: nodes.most, step: 1, value: Math.min(nodes.most, 5 * nodes.search),
      hidden: true, title: t("ai_nodes", { most }), "aria-label": t("ai_nodes", { most }),
    });
    select.addEventListener("change", () => {
      count.hidden = select.value !== WITH_NODES;
    });
    return { select, count, row: element("div", { class: "row ai-row", "data-side": side }, element("label", { for: id, text: label }), select, count) };
  }

  // The request's ai: side → level of every side shown.
  value() {
    return Object.fromEntries(
      [...this.rows].map(([side, r]) => [side, r.select.value === WITH_NODES ? `search:${Math.trunc(Number(r.count.value))}` : r.select.value]),
    );
  }
}

// A level in words: "search", "search, 5,000 positions a decision".
export function levelWord(level) {
  const nodes = /^search:(\d+)$/.exec(level);
  return nodes ? t("ai_search_nodes", { n: Number(nodes[1]).toLocaleString() }) : t(`ai_${level}`);
}

// The levels of the machine's sides in words: "Goblins: search".
export function levelsText(ai) {
  return Object.entries(ai || {})
    .map(([side, level]) => t("ai_side_level", { side: sideName(side), level: levelWord(level) }))
    .join(" · ");
}

// "AI: Goblins: search · Hero: greedy", or nothing where no side is the machine's.
export function aiPlays(ai) {
  return Object.keys(ai || {}).length ? t("ai_plays", { levels: levelsText(ai) }) : "";
}
