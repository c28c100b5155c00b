// ESLint's recommended rules for the browser modules in ludoteca/server/static (plain ES
// modules loaded by the pages as they are: no build step).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["ludoteca/server/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    // the service worker: its own globals, and the two constants the server puts before it
    files: ["ludoteca/server/static/sw.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.serviceworker, VERSION: "readonly", ASSETS: "readonly" },
    },
  },
  {
    // theme.js is a classic script, loaded in <head> before the page is drawn
    files: ["ludoteca/server/static/lib/theme.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // every request goes through lib/http.js, the one reader of the server's answers and
    // errors; i18n.js loads the catalogue that http.js's own messages need, and the service
    // worker caches the pages' requests
    files: ["ludoteca/server/static/**/*.js"],
    ignores: ["ludoteca/server/static/lib/http.js", "ludoteca/server/static/lib/i18n.js",
              "ludoteca/server/static/sw.js"],
    rules: {
      "no-restricted-globals": ["error", { name: "fetch", message: "Use the helpers of /static/lib/http.js." }],
      "no-restricted-properties": ["error",
        ...["window", "self", "globalThis"].map((object) => ({
          object, property: "fetch", message: "Use the helpers of /static/lib/http.js." }))],
    },
  },
];
