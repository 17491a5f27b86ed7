// node --test: web/model/params.js (the URL parameters: test hooks and overrides).
import assert from "node:assert/strict";
import test from "node:test";

import { readParams } from "../../../web/model/params.js";

test("no parameters: no test hooks, no overrides", () => {
  assert.deepEqual(readParams(""), { test: false, time: null, deadline: null, slice: null, threads: null, snapshot: true });
});

test("numbers are read and clamped to their ranges; unreadable ones are ignored", () => {
  assert.deepEqual(readParams("?test=1&time=200&deadline=9000&slice=300&threads=2"),
    { test: true, time: 200, deadline: 9000, slice: 300, threads: 2, snapshot: true });
  assert.deepEqual(readParams("?time=5&deadline=1&slice=99999&threads=9"),
    { test: false, time: 20, deadline: 500, slice: 10000, threads: 4, snapshot: true });
  assert.deepEqual(readParams("?time=fast&threads=&test=yes"),
    { test: false, time: null, deadline: null, slice: null, threads: null, snapshot: true });
});

test("snapshot=0 (and only 0) starts the workers without the build's snapshot", () => {
  assert.equal(readParams("?snapshot=0").snapshot, false);
  assert.equal(readParams("?snapshot=1").snapshot, true);
  assert.equal(readParams("?snapshot=no").snapshot, true);
});
