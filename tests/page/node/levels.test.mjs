// node --test: web/model/levels.js (the ladder of levels-data.js: which numbers are levels, the
// next level, node-limited or timed, names and descriptions in a language, the rating,
// and the migration of the older pages' level keys) and web/model/results.js (the results per
// level: outcomes, counts, the stored form and its checks).
import assert from "node:assert/strict";
import test from "node:test";

import { DEFAULT_LEVEL as DATA_DEFAULT, LEVEL_DATA } from "../../../web/model/levels-data.js";
import { TABLES, textOf } from "../../../web/model/i18n.js";
import * as L from "../../../web/model/levels.js";
import * as R from "../../../web/model/results.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";

const numbers = LEVEL_DATA.map((l) => l.number);
const top = Math.max(...numbers);

test("the generated table is a ladder 1..N, each level node-limited or timed, with both languages", () => {
  assert.deepEqual(numbers, numbers.map((_, i) => i + 1));
  assert.ok(LEVEL_DATA.length >= 3);
  for (const l of LEVEL_DATA) {
    assert.ok(/^[a-z]+$/.test(l.key), l.key);
    for (const lang of ["en", "zh"]) {
      const named = L.levelName(l, lang) !== "level_" + l.key && L.levelDescription(l, lang) !== "levelAbout_" + l.key;
      assert.ok(named, `${l.number} ${lang}`);
    }
    const nodes = Number.isInteger(l.nodes) && l.nodes >= 0; // 0: a bottom rung, no search
    const timed = Number.isInteger(l.timeMs) && l.timeMs >= 0;
    assert.ok(nodes !== timed, `level ${l.number}: nodes ${l.nodes}, timeMs ${l.timeMs}`);
    assert.ok(l.rating === null || Number.isFinite(l.rating), `rating of ${l.number}`);
    assert.ok(l.ratingError === null || Number.isFinite(l.ratingError), `ratingError of ${l.number}`);
  }
  // weaker levels first: the node budgets grow (a depth-limited level's nodes are only a
  // cap; the bottom rungs' are 0), the timed levels come last
  const budgets = LEVEL_DATA.filter((l) => l.nodes !== null && !l.depth).map((l) => l.nodes);
  assert.deepEqual(budgets, [...budgets].sort((a, b) => a - b));
  const firstTimed = LEVEL_DATA.findIndex((l) => l.nodes === null);
  assert.ok(firstTimed > 0 && LEVEL_DATA.slice(firstTimed).every((l) => l.nodes === null));
  // the ratings (where measured) grow up the ladder, on a positive scale
  const rated = LEVEL_DATA.filter((l) => l.rating !== null).map((l) => l.rating);
  assert.deepEqual(rated, [...rated].sort((a, b) => a - b));
  assert.ok(rated.length >= 3 && rated[0] > 0);
  // a first visit starts at the weakest level
  assert.equal(L.DEFAULT_LEVEL, 1);
  assert.equal(L.DEFAULT_LEVEL, DATA_DEFAULT);
  assert.ok(L.isLevel(L.DEFAULT_LEVEL));
  assert.equal(L.TOP_LEVEL, top);
  assert.deepEqual(L.LEVEL_NUMBERS, numbers);
});

test("isLevel: integers in the table only", () => {
  for (const n of numbers) assert.equal(L.isLevel(n), true, n);
  for (const v of [0, top + 1, 42, -1, 1.5, "1", "t1", null, undefined, NaN, true, [1], { number: 1 }]) {
    assert.equal(L.isLevel(v), false, String(v));
  }
});

test("levelOf, nextLevel, nodeLimited, thinkMs", () => {
  assert.equal(L.levelOf(1), LEVEL_DATA[0]);
  assert.equal(L.levelOf(42), null);
  assert.equal(L.levelOf("1"), null);
  for (const n of numbers) {
    const next = L.nextLevel(n);
    if (n === top) assert.equal(next, null);
    else assert.equal(next.number, n + 1);
  }
  assert.equal(L.nextLevel(42), null);
  assert.equal(L.nextLevel("3"), null);
  for (const l of LEVEL_DATA) {
    assert.equal(L.nodeLimited(l), l.nodes !== null, `level ${l.number}`);
    assert.equal(L.nodeLimited(l.number), l.nodes !== null, `level ${l.number} by number`);
    assert.equal(L.thinkMs(l), l.nodes !== null ? null : l.timeMs);
  }
  assert.equal(L.nodeLimited(42), false);
  for (const n of numbers) assert.equal(L.previousLevel(n)?.number ?? null, n === 1 ? null : n - 1);
  assert.equal(L.previousLevel(42), null);
  assert.equal(L.thinkMs(42), null);
  // the ladder as it stands: node levels below, Expert (10 s) and Unlimited (0) on top
  assert.equal(L.thinkMs(top), 0);
  assert.ok(L.nodeLimited(1));
});

test("names and descriptions in a language, English for an unknown one; the rating", () => {
  const l = L.levelOf(1);
  const { en, zh } = TABLES;
  assert.equal(L.levelName(l, "en"), en.level_starter);
  assert.equal(L.levelName(l, "zh"), zh.level_starter);
  assert.notEqual(zh.level_starter, en.level_starter);
  assert.equal(L.levelName(l, "fr"), en.level_starter);
  assert.equal(L.levelDescription(l, "zh"), zh.levelAbout_starter);
  assert.equal(L.levelDescription(l, "xx"), en.levelAbout_starter);
  assert.equal(textOf(L.levelNameMessage(l), "zh"), zh.level_starter);
  const unrated = { ...l, rating: null, ratingError: null };
  assert.equal(L.ratingText(unrated), null);
  assert.deepEqual(L.labelParts(unrated, "en"), { n: 1, name: en.level_starter, rating: null });
  const rated = { ...l, rating: 352.4, ratingError: 41 };
  assert.equal(L.ratingText(rated), "352 ± 41");
  assert.equal(L.ratingText({ ...rated, ratingError: null }), "352");
  assert.equal(L.ratingText({ ...rated, rating: -40 }), "-40 ± 41");
  assert.deepEqual(L.labelParts(rated, "zh"), { n: 1, name: zh.level_starter, rating: "350" });
  assert.equal(L.roundedRating(776), "800");
  assert.equal(L.roundedRating(1115), "1100");
});

test("the older pages' level keys are migrated; numbers stay; anything else is null", () => {
  // the think-time keys: 0.3 s Strong, 1 s and 3 s Advanced, 10 s Expert, unlimited Unlimited
  const want = { t03: "strong", t1: "advanced", t3: "advanced", t10: "expert", inf: "unlimited", fast: "strong", normal: "advanced", strong: "advanced" };
  for (const [key, name] of Object.entries(want)) assert.equal(L.levelOf(L.migrateLevel(key)).key, name, key);
  for (const n of numbers) assert.equal(L.migrateLevel(n, L.LADDER_VERSION), n);
  for (const v of [42, "x", "8", "toString", "__proto__", null, undefined, 2.5, {}]) {
    assert.equal(L.migrateLevel(v, L.LADDER_VERSION), null, String(v));
    assert.equal(L.migrateLevel(v), null, String(v));
  }
});

test("a number of the former ladder (before the bottom rungs) is the same opponent on this one", () => {
  // the former ladder, as pages before the bottom rungs numbered it
  const former = ["newcomer", "beginner", "learner", "casual", "club", "strong", "advanced", "expert", "unlimited"];
  former.forEach((key, i) => {
    for (const ladder of [undefined, 1, "x"]) assert.equal(L.levelOf(L.migrateLevel(i + 1, ladder)).key, key, `${i + 1} ${ladder}`);
  });
  assert.equal(L.migrateLevel(former.length + 1, undefined), null); // not a level then
  assert.equal(L.migrateLevel(0, undefined), null);
  assert.equal(L.migrateLevel("t1", undefined), L.migrateLevel("t1")); // keys are not numbers
  // the results per level of the former ladder move up with their levels
  const { results, dropped } = R.decodeResults({ 1: { won: 2, lost: 1, drawn: 0 }, 9: { won: 0, lost: 3, drawn: 0 }, 10: { won: 1, lost: 0, drawn: 0 } }, L.FORMER_SHIFT);
  assert.deepEqual(Object.keys(results).map((k) => L.levelOf(Number(k)).key), ["newcomer", "unlimited"]);
  assert.deepEqual(results[String(1 + L.FORMER_SHIFT)], { won: 2, lost: 1, drawn: 0 });
  assert.equal(dropped, 1);
});

test("results: the player's outcome of a result, from either side", () => {
  assert.equal(R.outcomeOf("black", BLACK), "won");
  assert.equal(R.outcomeOf("black", WHITE), "lost");
  assert.equal(R.outcomeOf("white", WHITE), "won");
  assert.equal(R.outcomeOf("white", BLACK), "lost");
  assert.equal(R.outcomeOf("draw", WHITE), "drawn");
  assert.throws(() => R.outcomeOf("won", BLACK), /bad result/);
});

test("results: counted per level, a new object each time", () => {
  const r0 = {};
  const r1 = R.withResult(r0, 3, "won");
  const r2 = R.withResult(R.withResult(r1, 3, "lost"), 3, "lost");
  const r3 = R.withResult(r2, 1, "drawn");
  assert.deepEqual(r0, {});
  assert.deepEqual(r1, { 3: { won: 1, lost: 0, drawn: 0 } });
  assert.deepEqual(R.recordAt(r3, 3), { won: 1, lost: 2, drawn: 0 });
  assert.deepEqual(R.recordAt(r3, 1), { won: 0, lost: 0, drawn: 1 });
  assert.deepEqual(R.recordAt(r3, 2), { won: 0, lost: 0, drawn: 0 });
  assert.throws(() => R.withResult(r0, 42, "won"), /unknown level 42/);
  assert.throws(() => R.withResult(r0, 1, "win"), /bad outcome/);
});

test("results: stored form round-trips; unreadable entries are dropped and counted", () => {
  const r = R.withResult(R.withResult({}, 2, "won"), top, "drawn");
  const back = R.decodeResults(JSON.parse(JSON.stringify(R.encodeResults(r))));
  assert.deepEqual(back, { results: r, dropped: 0 });
  const stored = {
    1: { won: 2, lost: 5, drawn: 0 },
    2: { won: 1, lost: 0, drawn: 0, extra: "ignored" },
    42: { won: 1, lost: 0, drawn: 0 }, // no such level
    x: { won: 1, lost: 0, drawn: 0 },
    "03": { won: 1, lost: 0, drawn: 0 }, // not how a number is written
    4: { won: -1, lost: 0, drawn: 0 },
    5: { won: 1.5, lost: 0, drawn: 0 },
    6: { won: 1, lost: 0 },
    7: [1, 0, 0],
    8: null,
  };
  const got = R.decodeResults(stored);
  assert.deepEqual(got.results, { 1: { won: 2, lost: 5, drawn: 0 }, 2: { won: 1, lost: 0, drawn: 0 } });
  assert.equal(got.dropped, 8);
  for (const v of [null, [], "x", 3]) assert.throws(() => R.decodeResults(v), /not an object/);
});
