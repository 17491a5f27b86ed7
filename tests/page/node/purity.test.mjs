// node --test: the page's model (web/model/: the state and what it means, as plain data and
// pure functions, the words in the current language among them) imports only the model
// and uses no browser globals, so that each module can be tested here and reasoned about
// alone. The whole folder is checked: a module that needs the DOM, storage of its own or a
// worker belongs in web/ui/ or web/engine/. The import graph is read from the sources
// (static `import ... from "./x.js"` lines).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import test from "node:test";

const WEB = new URL("../../../web/", import.meta.url);

const MODEL = readdirSync(new URL("model/", WEB)).filter((f) => f.endsWith(".js")).map((f) => `model/${f}`);
// the engine-job runner and the page's think times and deadlines are pure too: the engine
// client, the clock and the timer are handed in
const RUNNER = ["engine/jobs.js", "engine/deadlines.js"];

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

test("the model is the page's pure modules, found by folder", () => {
  // a guard against a broken scan: these are model modules and reach others
  for (const file of ["model/game.js", "model/state.js", "model/storage.js", "model/i18n.js", "model/status.js"]) {
    assert.ok(MODEL.includes(file), file);
  }
  assert.ok(MODEL.length >= 20, MODEL.join(", "));
  assert.ok(reach("model/state.js").has("model/rules.js"));
});

test("the model's modules import only the model", () => {
  for (const file of MODEL) {
    const outside = [...reach(file)].filter((dep) => !MODEL.includes(dep));
    assert.deepEqual(outside, [], `${file} reaches ${outside.join(", ")}`);
  }
  for (const file of RUNNER) {
    const outside = [...reach(file)].filter((dep) => !RUNNER.includes(dep));
    assert.deepEqual(outside, [], `${file} reaches ${outside.join(", ")}`);
  }
});

test("storage.js does not reach the engine clients", () => {
  const deps = reach("model/storage.js");
  assert.ok(deps.has("model/settings.js"));
  assert.ok(!deps.has("engine/parallel-client.js") && !deps.has("engine/engine-client.js"), [...deps].join(", "));
});

test("the model uses no browser globals", () => {
  for (const file of [...MODEL, ...RUNNER]) {
    const text = readFileSync(new URL(file, WEB), "utf8").replace(/\/\/.*$/gm, "");
    for (const word of ["document", "window", "localStorage", "navigator", "Worker"]) {
      assert.ok(!new RegExp(`\\b${word}\\b`).test(text), `${file} uses ${word}`);
    }
  }
});

test("the model reads no clock and sets no timer: the time is passed in (clock.js's now)", () => {
  assert.ok(MODEL.includes("model/clock.js"));
  for (const file of MODEL) {
    const text = readFileSync(new URL(file, WEB), "utf8").replace(/\/\/.*$/gm, "");
    for (const word of ["Date\\.now", "performance", "setTimeout", "setInterval", "requestAnimationFrame"]) {
      assert.ok(!new RegExp(`\\b${word}\\b`).test(text), `${file} uses ${word}`);
    }
  }
});
