// ESLint (flat config) for the page's own modules in assets/web/ (three.js under vendor/ is not ours).
// The browser's globals, ES modules; a caught error or an argument may go unused when it says so by its
// name ('_', '_x') or is a catch binding (an error deliberately ignored: private mode, no WebGL …).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["**/vendor/**", "node_modules/**", "tests/vendor/**"] },
  js.configs.recommended,
  {
    files: ["assets/web/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // the page's unit tests under Node's test runner (tests/js, run by tests/test_js_units.py)
    files: ["tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
