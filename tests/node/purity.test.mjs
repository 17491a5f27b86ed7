// node --test: the page's pure modules (plain data in and out, no DOM, no worker) import
// only pure modules, so that each can be tested here and reasoned about alone. The import
// graph is read from the sources (static `import ... from "./x.js"` lines).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

const WEB = new URL("../../web/", import.meta.url);

const PURE = [
  "analysis.js", "coords.js", "engine-data.js", "game.js", "jobs.js", "levels.js", "levels-data.js", "params.js", "records.js", "renju.js",
  "results.js", "rules.js", "score.js", "settings.js", "state.js", "storage.js", "store.js", "review.js", "review-graph.js",
  "puzzles.js", "puzzles-data.js", "mistakes.js", "record-errors.js",
];
// pure functions of their arguments and the current language (i18n.js, which touches the
// DOM only when the language is set)
const WORDS = ["status.js", "coach.js"];

function imports(file) {
  const text = readFileSync(new URL(file, WEB), "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"\.\/([\w.-]+)"/gms)].map((m) => m[1]);
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
    const other = [...reach(file)].filter((dep) => !PURE.includes(dep) && dep !== "i18n.js");
    assert.deepEqual(other, [], `${file} reaches ${other.join(", ")}`);
  }
});

test("storage.js does not reach the engine clients", () => {
  const deps = reach("storage.js");
  assert.ok(deps.has("settings.js"));
  assert.ok(!deps.has("parallel-client.js") && !deps.has("engine-client.js"), [...deps].join(", "));
});

test("the pure modules use no browser globals", () => {
  for (const file of [...PURE, ...WORDS]) {
    const text = readFileSync(new URL(file, WEB), "utf8").replace(/\/\/.*$/gm, "");
    for (const word of ["document", "window", "localStorage", "navigator", "Worker"]) {
      assert.ok(!new RegExp(`\\b${word}\\b`).test(text), `${file} uses ${word}`);
    }
  }
});
