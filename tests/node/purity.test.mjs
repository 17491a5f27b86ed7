// node --test: the page's pure modules (plain data in and out, no DOM, no worker) import
// only pure modules, so that each can be tested here and reasoned about alone. The import
// graph is read from the sources (static `import ... from "./x.js"` lines).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

const WEB = new URL("../../web/", import.meta.url);

const PURE = [
  "model/analysis.js", "model/coords.js", "model/game.js", "engine/jobs.js", "model/levels.js", "model/levels-data.js",
  "model/params.js", "model/records.js", "model/renju.js", "model/results.js", "model/rules.js", "model/score.js",
  "model/settings.js", "model/state.js", "model/storage.js", "model/store.js", "model/review.js", "model/review-graph.js",
  "model/puzzles.js", "model/puzzles-data.js", "model/mistakes.js", "model/record-errors.js",
];
// pure functions of their arguments and the current language (i18n.js, which touches the
// DOM only when the language is set)
const WORDS = ["model/status.js", "model/coach.js"];

// the files a module imports, as paths under web/
function imports(file) {
  const url = new URL(file, WEB);
  const text = readFileSync(url, "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.\.?\/[\w./-]+)"/gms)]
    .map((m) => new URL(m[1], url).href.slice(WEB.href.length));
}

// every module file reaches, itself excluded
function reach(file, seen = new Set()) {
  for (const dep of imports(file)) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    reach(dep, seen);
  }
  return seen;
}

test("the pure modules import only pure modules", () => {
  for (const file of PURE) {
    const impure = [...reach(file)].filter((dep) => !PURE.includes(dep));
    assert.deepEqual(impure, [], `${file} reaches ${impure.join(", ")}`);
  }
});

test("the modules of words import only pure modules and i18n.js", () => {
  for (const file of WORDS) {
    const other = [...reach(file)].filter((dep) => !PURE.includes(dep) && dep !== "model/i18n.js");
    assert.deepEqual(other, [], `${file} reaches ${other.join(", ")}`);
  }
});

test("storage.js does not reach the engine clients", () => {
  const deps = reach("model/storage.js");
  assert.ok(deps.has("model/settings.js"));
  assert.ok(!deps.has("engine/parallel-client.js") && !deps.has("engine/engine-client.js"), [...deps].join(", "));
});

test("the pure modules use no browser globals", () => {
  for (const file of [...PURE, ...WORDS]) {
    const text = readFileSync(new URL(file, WEB), "utf8").replace(/\/\/.*$/gm, "");
    for (const word of ["document", "window", "localStorage", "navigator", "Worker"]) {
      assert.ok(!new RegExp(`\\b${word}\\b`).test(text), `${file} uses ${word}`);
    }
  }
});
