// Choosing a scenario: one of the shipped ones (by ruleset), or a pasted scenario's TOML text. The server checks
// it and gives its sides and its board at the start (POST /api/scenarios/board).

import { ApiError, getJSON, postJSON } from "./api.js";
import { element } from "./dom.js";
import { t } from "./words.js";

const PASTE = "";
export const BUILT = "built"; // ?scenario=built: the scenario the builder page made, kept in this tab's storage
const BUILT_KEY = "kessen-built-scenario";

// The builder's scenario ({ruleset, text}) for the other pages, kept for this tab only.
export function keepBuilt(ruleset, text) {
  sessionStorage.setItem(BUILT_KEY, JSON.stringify({ ruleset, text }));
}

function builtScenario() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(BUILT_KEY) || "null");
    return kept && typeof kept.text === "string" && typeof kept.ruleset === "string" ? kept : null;
  } catch {
    return null;
  }
}

let listing = null;

async function shipped(lang) {
  if (!listing || listing.lang !== lang) {
    const [scenarios, rulesets] = await Promise.all([getJSON("/api/scenarios"), getJSON(`/api/rulesets?lang=${lang}`)]);
    listing = { lang, scenarios: scenarios.scenarios, rulesets: rulesets.rulesets };
  }
  return listing;
}

// A scenario picker. onChange(preview | null) hears each newly chosen scenario's checked preview ({ruleset,
// scenario, sides, board, legend}), or null with the error line shown under the picker.
export class ScenarioPicker {
  constructor({ lang, chosen = null, onChange }) {
    this.lang = lang;
    this.onChange = onChange;
    this.preview = null;
    this.select = element("select", { id: "scenario", "aria-label": t("scenario") });
    this.text = element("textarea", { id: "scenario-text", rows: 12, spellcheck: "false", placeholder: t("paste_placeholder") });
    this.ruleset = element("select", { id: "scenario-ruleset", "aria-label": t("ruleset") });
    this.error = element("div", { class: "error-line", role: "alert", hidden: true });
    this.pasted = element(
      "div",
      { class: "pasted", hidden: true },
      this.text,
      element("div", { class: "row" }, element("label", { for: "scenario-ruleset", text: t("ruleset") }), this.ruleset, this.button()),
    );
    this.element = element(
      "div",
      { class: "picker" },
      element("label", { for: "scenario", class: "field-label", text: t("scenario") }),
      this.select,
      this.pasted,
      this.error,
    );
    this.select.addEventListener("change", () => this.changed());
    this.ready = this.fill(chosen);
  }

  button() {
    const check = element("button", { type: "button", class: "quiet", "data-action": "check-scenario", text: t("check_scenario") });
    check.addEventListener("click", () => this.check());
    return check;
  }

  async fill(chosen) {
    const { scenarios, rulesets } = await shipped(this.lang);
    this.ruleset.append(element("option", { value: "", text: t("ruleset_from_text") }), ...rulesets.map((r) => element("option", { value: r.id, text: r.title })));
    for (const ruleset of rulesets) {
      const group = element("optgroup", { label: ruleset.title });
      for (const s of scenarios.filter((one) => one.ruleset === ruleset.id)) group.append(element("option", { value: s.name, text: s.title, title: s.description }));
      if (group.children.length) this.select.append(group);
    }
    this.select.append(element("option", { value: PASTE, text: t("paste_scenario") }));
    if (chosen && scenarios.some((s) => s.name === chosen)) this.select.value = chosen;
    const built = chosen === BUILT ? builtScenario() : null;
    if (built) {
      this.select.value = PASTE;
      this.text.value = built.text;
      this.ruleset.value = built.ruleset;
    }
    await this.changed();
  }

  // The request's scenario: {scenario: name} or {scenario: text, ruleset?}.
  value() {
    if (this.select.value !== PASTE) return { scenario: this.select.value };
    return this.ruleset.value ? { scenario: this.text.value, ruleset: this.ruleset.value } : { scenario: this.text.value };
  }

  async changed() {
    const pasting = this.select.value === PASTE;
    this.pasted.hidden = !pasting;
    if (pasting && !this.text.value.trim()) {
      this.show(null, null);
      return;
    }
    await this.check();
  }

  async check() {
    try {
      this.show(await postJSON("/api/scenarios/board", { ...this.value(), lang: this.lang }), null);
    } catch (error) {
      this.show(null, error instanceof ApiError ? error.message : t("no_answer"));
    }
  }

  show(preview, error) {
    this.preview = preview;
    this.error.hidden = !error;
    this.error.textContent = error || "";
    this.onChange(preview);
  }
}
