// The "win chance" control beside the options of the Play page (issue 23 §3): the server's advisor works out, in
// the background, each option's chance to win and to draw if the person takes it and the AI then plays both sides
// (POST /api/matches/{id}/advice); a progress bar follows its playouts, Cancel stops it, and the table gives each
// option's chances: exact (the reduced fraction, with the worth under best play) where the rest of the battle is
// small enough to work out, else from playouts with the 95% interval and their number. Advice is of one position: a
// decision made or undone cancels it.

import { ApiError, deleteJSON, getJSON, postJSON } from "./api.js";
import { levelWord, levelsText } from "./ailevels.js";
import { element } from "./dom.js";
import { Fraction, percent } from "./fraction.js";
import { t } from "./words.js";

const POLL_MS = 250;
const ENDED = ["done", "cancelled", "stopped", "failed"];

function pct(p) {
  return `${(p * 100).toFixed(1)}%`;
}

// A chance as the page shows it: a percentage, and the exact fraction beside it where there is one.
function share(value) {
  if (value.fraction === null) return [element("b", { text: pct(value.p) })];
  return [element("b", { text: percent(Fraction.parse(value.fraction)) }), element("span", { class: "fraction", text: ` ${value.fraction}` })];
}

export class AdvicePanel {
  constructor() {
    this.ask = element("button", { type: "button", class: "quiet", "data-action": "advise", text: t("win_chance"), title: t("win_chance_hint") });
    this.playouts = element("input", { type: "number", id: "advice-playouts", min: 1, max: 1000, step: 1, value: 100 });
    this.cancel = element("button", { type: "button", class: "quiet", "data-action": "cancel-advice", text: t("cancel_advice"), hidden: true });
    this.bar = element("progress", { id: "advice-progress", max: 1, value: 0, hidden: true });
    this.status = element("p", { class: "hint", id: "advice-status", "aria-live": "polite" });
    this.table = element("div", { class: "advice-table", id: "advice-table" });
    this.element = element(
      "section",
      { class: "advice", id: "advice" },
      element("div", { class: "row" }, this.ask, element("label", { for: "advice-playouts", text: t("advice_playouts") }), this.playouts, this.cancel),
      this.bar,
      this.status,
      this.table,
    );
    this.ask.addEventListener("click", () => this.start());
    this.cancel.addEventListener("click", () => {
      this.stop();
      this.status.textContent = t("advice_cancelled");
    });
    this.state = null;
    this.position = null;
    this.asked = null; // {match, id} of the advice followed
    this.ticket = 0;
  }

  // The match as it now stands: advice is offered at a person's decision, and a new position drops the old advice.
  update(state) {
    const decision = state.decision;
    const position = decision ? `${state.id}:${state.events.length}:${decision.player}:${decision.prompt}` : null;
    this.state = state;
    this.element.hidden = !decision || !state.people.includes(decision.player);
    if (position === this.position) return;
    this.position = position;
    this.stop();
    this.clear();
  }

  clear() {
    this.bar.hidden = true;
    this.status.textContent = "";
    this.table.replaceChildren();
  }

  async start() {
    const state = this.state;
    this.ask.disabled = true;
    this.clear();
    try {
      const made = await postJSON(`/api/matches/${encodeURIComponent(state.id)}/advice`, { playouts: Number(this.playouts.value) });
      this.follow({ match: state.id, id: made.id }, state);
    } catch (error) {
      this.status.textContent = error instanceof ApiError ? error.message : t("no_answer");
    } finally {
      this.ask.disabled = false;
    }
  }

  // Cancel the advice followed, if it is still being worked out; the page stops following it.
  stop() {
    this.ticket += 1;
    this.cancel.hidden = true;
    const asked = this.asked;
    this.asked = null;
    if (asked) deleteJSON(`/api/matches/${encodeURIComponent(asked.match)}/advice/${encodeURIComponent(asked.id)}`).catch(() => {});
  }

  async follow(asked, state) {
    const ticket = (this.ticket += 1);
    this.asked = asked;
    this.cancel.hidden = false;
    this.bar.hidden = false;
    while (ticket === this.ticket) {
      let advice;
      try {
        advice = await getJSON(`/api/matches/${encodeURIComponent(asked.match)}/advice/${encodeURIComponent(asked.id)}`);
      } catch (error) {
        this.status.textContent = error instanceof ApiError ? error.message : t("no_answer");
        return;
      }
      if (ticket !== this.ticket) return;
      this.bar.max = advice.total;
      this.bar.value = advice.done;
      this.status.dataset.status = advice.status;
      this.status.textContent = t(`advice_${advice.status}`, { done: advice.done, total: advice.total, ai: typeof advice.ai === "string" ? levelWord(advice.ai) : levelsText(advice.ai) });
      if (ENDED.includes(advice.status)) {
        this.asked = null;
        this.cancel.hidden = true;
        if (advice.error) this.status.textContent = advice.error;
        if (advice.options) this.table.replaceChildren(this.render(advice, state));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  // Each option in the order of the decision: its notation (its words on hover), the chances to win and to draw, how they were found, and
  // the worth under best play where the advisor solved the rest of the battle.
  render(advice, state) {
    const words = new Map((state.decision ? state.decision.options : []).map((o) => [o.notation, o.text]));
    const head = [t("advice_option"), t("advice_win"), t("advice_draw"), t("advice_how"), t("advice_best")];
    return element(
      "table",
      { class: "advice-chances" },
      element("thead", {}, element("tr", {}, ...head.map((text) => element("th", { text })))),
      element(
        "tbody",
        {},
        ...advice.options.map((o) =>
          element(
            "tr",
            { "data-notation": o.notation, "data-exact": String(o.exact) },
            element("th", { title: words.get(o.notation) || o.notation }, element("code", { text: o.notation })),
            element("td", { class: "num win" }, ...share(o.win)),
            element("td", { class: "num draw" }, ...share(o.draw)),
            element("td", {
              class: "how",
              text: o.exact ? t("advice_exact") : t("advice_interval", { low: pct(o.low), high: pct(o.high), playouts: o.playouts }),
            }),
            element("td", { class: "num best" }, ...(o.best ? share(o.best) : [t("none_value")])),
          ),
        ),
      ),
    );
  }
}
