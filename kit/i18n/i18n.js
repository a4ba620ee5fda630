// Words in the reader's language, on a page (docs/i18n.md): the same rules as kit/i18n in
// Python, so a message reads the same on the panel, the sheet and the CSV. No build step.
//
//   await I18n.load();                       // the catalog of the reader's language
//   I18n.t("panel.hide_roles")               // a page's own words
//   I18n.words({key, params})                // a message from the server (a Words)
//   I18n.line({cite, key, params})           // a record line: its citation, then its words
//   I18n.text({ru: "Дон", en: "Don"})        // a book's own words
//   I18n.translate(document)                 // every [data-i18n] element's text
//   I18n.switcher(element, redraw)           // the language switch; redraw() after a change
//
// {{name}} is a parameter: a number as the language writes it (Intl.NumberFormat: CLDR), a
// list of numbers with ", ", nested words, a book's text in the reader's language, any other
// text exactly as given. A message with a `count` parameter has a form per CLDR plural
// category (Intl.PluralRules): key_one, key_few, key_many, key_other.
"use strict";
const I18n = (() => {
  let language = "en", messages = {}, languages = [], plurals = null, numbers = null;
  const warned = new Set();
  const COOKIE = "lang";
  const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;

  async function load(wanted) {
    const asked = wanted || new URLSearchParams(location.hash.slice(1)).get("lang");
    const response = await fetch("/i18n/catalog.json" + (asked ? `?lang=${encodeURIComponent(asked)}` : ""),
      { credentials: "same-origin" });
    const body = await response.json();
    language = body.language;
    messages = body.messages;
    languages = body.languages;
    plurals = new Intl.PluralRules(language);
    numbers = new Intl.NumberFormat(language, { useGrouping: false, maximumFractionDigits: 3 });
    document.documentElement.lang = language;
    return language;
  }

  function missing(key) {
    if (warned.has(key)) return;
    warned.add(key);
    console.warn(`i18n: ${key} (${language}) in no catalog: the key shown`);
  }

  function template(key, count) {
    if (typeof count === "number") {
      for (const form of [`${key}_${plurals.select(count)}`, `${key}_other`]) {
        if (form in messages) return messages[form];
      }
    }
    if (key in messages) return messages[key];
    if (`${key}_other` in messages) return messages[`${key}_other`];  // given no count
    missing(key);
    return key;
  }

  function text(value) {  // a book's own words: the reader's language, else English, else any
    if (language in value) return value[language];
    if ("en" in value) return value.en;
    const all = Object.values(value);
    return all.length ? all[0] : "";
  }

  function value(given, params, depth) {
    if (typeof given === "boolean") return String(given);
    if (typeof given === "number") return numbers.format(given);
    if (Array.isArray(given)) return given.map((v) => value(v, params, depth)).join(", ");
    if (given && typeof given === "object") {
      if ("key" in given) return words(given);
      const said = text(given);
      return depth < 2 ? fill(said, params || {}, depth + 1) : said;
    }
    return given === null || given === undefined ? "" : String(given);
  }

  function fill(pattern, params, depth = 0) {
    return pattern.replace(PLACEHOLDER, (whole, name) =>
      (name in params ? value(params[name], params, depth) : whole));
  }

  function words(w) {
    const params = w.params || {};
    const said = fill(template(w.key, params.count), params);
    const cite = w.cite && typeof w.cite === "object" ? text(w.cite) : w.cite;  // Line's cited
    return cite ? `${cite}: ${said}` : said;
  }

  function t(key, params = {}) { return words({ key, params }); }

  function translate(root = document) {  // a page's own words, by its elements' attributes
    root.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = t(e.dataset.i18n); });
    root.querySelectorAll("[data-i18n-placeholder]").forEach((e) => {
      e.placeholder = t(e.dataset.i18nPlaceholder);
    });
    root.querySelectorAll("[data-i18n-title]").forEach((e) => { e.title = t(e.dataset.i18nTitle); });
    const title = document.querySelector("title[data-i18n]");
    if (title) document.title = title.textContent;
  }

  function choose(code) {  // remembered for the whole site, as the server's ?lang= switch does
    const secure = location.protocol === "https:" ? "; secure" : "";
    document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; samesite=strict${secure}`;
  }

  function switcher(element, redraw) {  // a button per language, in its own name
    const draw = () => {
      element.replaceChildren(...languages.map((l) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "lang" + (l.code === language ? " current" : "");
        button.lang = l.code;
        button.textContent = l.name;
        button.setAttribute("aria-pressed", String(l.code === language));
        button.onclick = async () => {
          choose(l.code);
          await load(l.code);
          translate();
          draw();
          redraw();
        };
        return button;
      }));
    };
    draw();
  }

  return { load, t, words, line: words, text, number: (n) => numbers.format(n), translate,
    switcher, get language() { return language; } };
})();
