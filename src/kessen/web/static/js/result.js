// The end of a battle as the server words it: the winner (or a draw) and the summary, each key with its label.

import { sideName } from "./board.js";
import { element } from "./dom.js";
import { t } from "./words.js";

function shown(value, words) {
  if (value === null || value === undefined) return t("none_value");
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (Array.isArray(value)) return value.length ? value.map((v) => shown(v, words)).join(", ") : t("none_value");
  if (typeof value === "string") return words[value] ?? value;
  return String(value);
}

export function renderResult(result, sides) {
  const heading = result.winner === null ? t("result_draw") : t("result_winner", { side: sideName(result.winner) });
  const bySide = Object.entries(result.summary).filter(([, v]) => v && typeof v === "object" && !Array.isArray(v));
  const single = Object.entries(result.summary).filter(([, v]) => !(v && typeof v === "object" && !Array.isArray(v)));
  const table = element(
    "table",
    { class: "result-table" },
    element("thead", {}, element("tr", {}, element("th", {}), ...sides.map((side) => element("th", { text: sideName(side) })))),
    element(
      "tbody",
      {},
      ...bySide.map(([key, values]) =>
        element(
          "tr",
          { "data-key": key },
          element("th", { text: result.labels[key] || key }),
          ...sides.map((side) => element("td", { text: shown(values[side], result.words) })),
        ),
      ),
      ...single.map(([key, value]) =>
        element("tr", { "data-key": key }, element("th", { text: result.labels[key] || key }), element("td", { colspan: sides.length, text: shown(value, result.words) })),
      ),
    ),
  );
  return element("section", { class: "result", "data-winner": result.winner ?? "" }, element("h2", { text: heading }), table);
}
