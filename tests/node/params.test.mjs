// node --test: web/params.js (the URL parameters: test hooks and overrides).
import assert from "node:assert/strict";
import test from "node:test";

import { readParams } from "../../web/params.js";

test("no parameters: no test hooks, no overrides", () => {
  assert.deepEqual(readParams(""), { test: false, time: null, deadline: null, slice: null, threads: null });
});

test("numbers are read and clamped to their ranges; unreadable ones are ignored", () => {
  assert.deepEqual(readParams("?test=1&time=200&deadline=9000&slice=300&threads=2"),
    { test: true, time: 200, deadline: 9000, slice: 300, threads: 2 });
  assert.deepEqual(readParams("?time=5&deadline=1&slice=99999&threads=9"),
    { test: false, time: 20, deadline: 500, slice: 10000, threads: 4 });
  assert.deepEqual(readParams("?time=fast&threads=&test=yes"),
    { test: false, time: null, deadline: null, slice: null, threads: null });
});
