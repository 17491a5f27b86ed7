// node --test: the page's pure modules (plain data in and out, no DOM, no worker) import
// only pure modules, so that each can be tested here and reasoned about alone. The import
// graph is read from the sources (static `import ... from "./x.js"` lines).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

const WEB = new URL("../../web/", import.meta.url);

const PURE = [
  "analysis.js", "coords.js", "game.js", "records.js", "renju.js", "rules.js", "score.js", "settings.js",
  "storage.js",
];

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

test("storage.js does not reach the engine clients", () => {
  const deps = reach("storage.js");
  assert.ok(deps.has("settings.js"));
  assert.ok(!deps.has("parallel-client.js") && !deps.has("engine-client.js"), [...deps].join(", "));
});

test("the pure modules use no browser globals", () => {
  for (const file of PURE) {
    const text = readFileSync(new URL(file, WEB), "utf8").replace(/\/\/.*$/gm, "");
    for (const word of ["document", "window", "localStorage", "navigator", "Worker"]) {
      assert.ok(!new RegExp(`\\b${word}\\b`).test(text), `${file} uses ${word}`);
    }
  }
});
