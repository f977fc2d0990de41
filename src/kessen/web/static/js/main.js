// The page's one entry point: the header (pages, language) and the page its address names, each page a module
// with mount(app): odds calculator, battle viewer, play, simulate, scenario builder.

import { getJSON } from "./api.js";
import { currentLang, query, setQuery } from "./address.js";
import { loadPageWords, t } from "./words.js";
import * as odds from "./odds.js";
import * as viewer from "./viewer.js";
import * as play from "./play.js";
import * as simulate from "./simulate.js";
import * as build from "./build.js";

const PAGES = { odds, viewer, play, simulate, build };
const ROUTES = { "/": "odds", "/odds": "odds", "/viewer": "viewer", "/play": "play", "/simulate": "simulate", "/build": "build" };
const $ = (id) => document.getElementById(id);

const name = ROUTES[location.pathname] || "odds";
const page = PAGES[name];

async function language(lang) {
  await loadPageWords(getJSON, lang);
  document.documentElement.lang = lang;
  document.title = `${t(`${name}_title`)} · kessen`;
  $("page-title").textContent = t(`${name}_title`);
  $("api-link").textContent = t("api_docs");
  $("footer").textContent = t(`${name}_footer`);
  for (const link of $("pages").querySelectorAll("a")) {
    link.textContent = t(`${link.dataset.page}_title`);
    link.href = `/${link.dataset.page}?lang=${lang}`;
    if (link.dataset.page === name) link.setAttribute("aria-current", "page");
  }
  for (const node of $("lang-switch").querySelectorAll("button")) node.setAttribute("aria-pressed", String(node.dataset.lang === lang));
}

async function start() {
  await language(currentLang());
  for (const node of $("lang-switch").querySelectorAll("button")) {
    node.addEventListener("click", async () => {
      if (node.dataset.lang === currentLang()) return;
      setQuery({ lang: node.dataset.lang });
      await language(node.dataset.lang);
      await page.mount($("app"), { relabel: true });
    });
  }
  window.addEventListener("popstate", async () => {
    await language(currentLang());
    await page.mount($("app"), { relabel: true });
  });
  await page.mount($("app"), { relabel: false });
}

start().catch((error) => {
  $("app").textContent = `${error.message}`;
});


