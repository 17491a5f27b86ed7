// node --test: web/model/settings.js (the settings' fields, defaults and checks, among them the
// number of threads that parallel-client.js takes).
import assert from "node:assert/strict";
import test from "node:test";

import { DEFAULT_SETTINGS, MAX_THREADS, decodeSettings, defaultThreads, validThreads } from "../../../web/model/settings.js";
import * as Storage from "../../../web/model/storage.js";

test("threads: an integer 1..MAX_THREADS; the default is one worker", () => {
  assert.equal(MAX_THREADS, 4);
  for (let n = 1; n <= MAX_THREADS; n++) assert.equal(validThreads(n), true, String(n));
  for (const bad of [0, 5, -1, 1.5, "2", null, undefined, NaN]) assert.equal(validThreads(bad), false, String(bad));
  assert.equal(defaultThreads(), 1);
  assert.equal(validThreads(defaultThreads()), true);
});

test("decodeSettings keeps each valid field and defaults the others", () => {
  const all = {
    theme: "dark", lang: "zh", sound: true, numbers: true, coords: false, showPv: true, analysisMoves: 5, threads: 3,
    touchConfirm: false,
  };
  assert.deepEqual(decodeSettings(all), all);
  assert.deepEqual(decodeSettings({}), DEFAULT_SETTINGS);
  const odd = decodeSettings({ theme: "pink", lang: "fr", sound: "yes", analysisMoves: 9, threads: 0, touchConfirm: 0, extra: 1 });
  assert.deepEqual(odd, DEFAULT_SETTINGS);
  assert.equal("threads" in odd, false); // absent: automatic
  for (const bad of [null, [], "x", 3]) assert.throws(() => decodeSettings(bad), /not an object/);
});

test("decodeSettings returns a copy: the defaults are never changed", () => {
  const got = decodeSettings({});
  got.theme = "dark";
  assert.equal(DEFAULT_SETTINGS.theme, "auto");
});

test("storage.js stores the settings of settings.js", () => {
  assert.equal(Storage.DEFAULT_SETTINGS, DEFAULT_SETTINGS);
  assert.equal(Storage.decodeSettings, decodeSettings);
});
