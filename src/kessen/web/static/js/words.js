// The page's words in the chosen language (GET /api/texts/{lang}) and the ruleset's labels and value words.

let page = {};

export async function loadPageWords(getJSON, lang) {
  page = await getJSON(`/api/texts/${lang}`);
}

// A text of the page's catalogue, with {name} fields filled in.
export function t(key, fields = {}) {
  const text = page[key] ?? key;
  return String(text).replace(/\{(\w+)\}/g, (_, name) => (name in fields ? String(fields[name]) : `{${name}}`));
}

// The word for a value of a field: "field=value" first, then the value alone; booleans say yes or no.
export function valueWord(words, field, value) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (value === null || value === undefined) return t("none_value");
  const own = words[`${field}=${value}`] ?? words[String(value)];
  return own ?? String(value);
}

// The label of an outcome field; "target_#" in the catalogue stands for target_1, target_2, ...
export function outcomeLabel(outcomes, field) {
  if (field in outcomes) return outcomes[field];
  const numbered = /^(.*_)(\d+)$/.exec(field);
  if (numbered && `${numbered[1]}#` in outcomes) return outcomes[`${numbered[1]}#`].replace("{n}", numbered[2]);
  return field;
}
