// The page's state in its address: ?lang and each page's own keys (a match, a simulation, a replay position).

export function query() {
  return new URLSearchParams(location.search);
}

export function currentLang() {
  const lang = query().get("lang");
  if (lang === "ja" || lang === "en") return lang;
  return navigator.language.startsWith("ja") ? "ja" : "en";
}

// Set (or with null, drop) keys of the address; push adds a step to the browser's history.
export function setQuery(values, { push = false } = {}) {
  const next = query();
  if (!next.has("lang")) next.set("lang", currentLang());
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) next.delete(key);
    else next.set(key, String(value));
  }
  const url = `${location.pathname}?${next}`;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}
