// node --test: every relative import of the page's modules (web/ and its rooms: model/,
// engine/, ui/) names a file that is there, and so do the pages' scripts and the workers'
// URLs, so that a module moved or added in the wrong room fails here and not only in a
// browser.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import test from "node:test";

const WEB = new URL("../../../web/", import.meta.url);
const MODULES = readdirSync(WEB, { recursive: true }).filter((f) => f.endsWith(".js"));

test("every relative import in web/ names a file that is there", () => {
  let count = 0;
  for (const file of MODULES) {
    const url = new URL(file, WEB);
    const text = readFileSync(url, "utf8");
    for (const m of text.matchAll(/(?:^(?:import|export)\s[^;]*?from\s+|\bimport\(\s*)"(\.\.?\/[^"]+)"/gms)) {
      count += 1;
      assert.ok(existsSync(new URL(m[1], url)), `${file}: ${m[1]}`);
    }
  }
  assert.ok(count > 150, `only ${count} imports found: the scan is broken`);
});

test("the pages' scripts and the workers' URLs name files that are there", () => {
  for (const page of ["index.html", "puzzles.html"]) {
    const srcs = [...readFileSync(new URL(page, WEB), "utf8").matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(srcs.length > 0, page);
    for (const src of srcs) assert.ok(existsSync(new URL(src, WEB)), `${page}: ${src}`);
  }
  // new Worker(url) and new URL("...", location.href) resolve against the page (web/)
  const workers = [];
  for (const file of ["main.js", "puzzles-page.js"]) {
    const text = readFileSync(new URL(file, WEB), "utf8");
    for (const m of text.matchAll(/(?:new URL\(|workerUrl:\s*)"([\w./-]+\.js)"/g)) workers.push([file, m[1]]);
  }
  assert.ok(workers.length >= 2, JSON.stringify(workers));
  for (const [file, src] of workers) assert.ok(existsSync(new URL(src, WEB)), `${file}: ${src}`);
});
