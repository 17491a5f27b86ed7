// node --test: web/model/storage.js (the stored game, settings, finished games, results per level and
// reviews: round trips, migration of older data, and rejection of broken data).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { SIZES, parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { DEFAULT_LEVEL, LADDER_VERSION, levelOf } from "../../../web/model/levels.js";
import { parseMoves } from "../../../web/model/records.js";
import { addAnswer, newReview, reviewInHistory, withHistoryReview } from "../../../web/model/review.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import {
  DEFAULT_SETTINGS, FORMER_RESULTS, HISTORY_MAX, KEYS, addToHistory, decodeGame, encodeCurrentReview, encodeGame, encodeHistory,
  encodeResults, historyEntry, loadAll, save, saveReview,
} from "../../../web/model/storage.js";

// localStorage's interface over a Map; refuse = true makes every call throw.
class FakeStorage {
  constructor(items = {}) {
    this.items = new Map(Object.entries(items));
    this.refuse = false;
  }
  getItem(k) { this.check(); return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.check(); this.items.set(k, String(v)); }
  removeItem(k) { this.check(); this.items.delete(k); }
  check() { if (this.refuse) throw new Error("SecurityError"); }
}

const playAll = (game, texts) => texts.split(" ").reduce((g, t) => Game.play(g, ...parseCell(t, g.size)), game);
const WON = "h8 a1 h9 a2 h10 a3 h11 a4 h12";

test("nothing stored: no game, default settings, no finished games, no notice", () => {
  const got = loadAll(new FakeStorage());
  assert.deepEqual(got, { game: null, settings: DEFAULT_SETTINGS, history: [], results: {}, streak: null, review: null, notices: [] });
  assert.notEqual(got.settings, DEFAULT_SETTINGS); // a copy the page may change
});

test("a game with undone moves round-trips on every size", () => {
  for (const size of SIZES) {
    const e = size - 1;
    let g = Game.newGame({ size, rule: "standard", first: WHITE, human: WHITE, level: 9, seed: 1000 + size });
    for (const [x, y] of [[e, e], [0, 0], [e, 0], [0, e], [7, 7]]) g = Game.play(g, x, y);
    g = Game.goTo(g, 3);
    const storage = new FakeStorage();
    assert.equal(save(storage, KEYS.game, encodeGame(g)), true);
    const back = loadAll(storage);
    assert.deepEqual(back.game, g, `size ${size}`);
    assert.deepEqual(back.notices, []);
  }
});

test("older stored games are migrated: no size, rule, first or seed; old level names", () => {
  const old = { human: 2, level: "fast", moves: [[7, 7], [8, 8]], cursor: 2 };
  const notices = [];
  const g = decodeGame(old, notices);
  assert.deepEqual(g, { size: 15, rule: "freestyle", first: BLACK, human: WHITE, level: 9, seed: 0, moves: [[7, 7], [8, 8]], cursor: 2, recorded: false, twoPlayers: false, clock: null });
  assert.equal(decodeGame({ ...old, level: "strong" }).level, 10);
  assert.equal(decodeGame({ ...old, level: "normal" }).level, 10);
  const olds = { t03: 9, t1: 10, t3: 10, t10: 11, inf: 12 };
  for (const [key, n] of Object.entries(olds)) assert.equal(decodeGame({ ...old, level: key }, notices).level, n, key);
  // none at all: what the pages before the bottom rungs gave it, their default, Learner
  assert.equal(levelOf(decodeGame({ ...old, level: undefined }, notices).level).key, "learner");
  assert.deepEqual(notices, []); // migration is not a problem
  // a cursor that does not fit shows the whole line
  assert.equal(decodeGame({ ...old, cursor: 7 }).cursor, 2);
  assert.equal(decodeGame({ ...old, cursor: -1 }).cursor, 2);
});

test("a broken stored game is removed with a notice, and the rest is kept", () => {
  const settings = JSON.stringify({ theme: "dark" });
  const broken = {
    "not JSON": "{size: 15",
    "a list": "[1, 2]",
    "a string": '"game"',
    "size 21": JSON.stringify({ size: 21, moves: [] }),
    "size as text": JSON.stringify({ size: "15", moves: [] }),
    "unknown rule": JSON.stringify({ size: 15, rule: "go", moves: [] }),
    "first 3": JSON.stringify({ size: 15, first: 3, moves: [] }),
    "human 0": JSON.stringify({ size: 15, human: 0, moves: [] }),
    "no moves": JSON.stringify({ size: 15 }),
    "taken point": JSON.stringify({ size: 15, moves: [[7, 7], [7, 7]] }),
    "off a 15x15 board": JSON.stringify({ size: 15, moves: [[15, 3]] }),
    "not a point": JSON.stringify({ size: 17, moves: [[1, 2, 3]] }),
    "after the win": JSON.stringify({ size: 15, moves: [...Game.shownMoves(playAll(Game.newGame(), WON)), [0, 0]] }),
  };
  for (const [what, text] of Object.entries(broken)) {
    const storage = new FakeStorage({ [KEYS.game]: text, [KEYS.settings]: settings });
    const got = loadAll(storage);
    assert.equal(got.game, null, what);
    assert.deepEqual(got.notices, ["corruptGame"], what);
    assert.equal(storage.items.has(KEYS.game), false, what);
    assert.equal(got.settings.theme, "dark", what);
  }
  // the same point is fine on a bigger board; a stored null is no game, not an error
  assert.equal(loadAll(new FakeStorage({ [KEYS.game]: JSON.stringify({ size: 16, moves: [[15, 3]] }) })).game.size, 16);
  assert.deepEqual(loadAll(new FakeStorage({ [KEYS.game]: "null" })).notices, []);
});

test("settings: the number of best moves shown in analysis is 3, 4 or 5, else 3", () => {
  assert.equal(DEFAULT_SETTINGS.analysisMoves, 3);
  for (const n of [3, 4, 5]) {
    const storage = new FakeStorage({ [KEYS.settings]: JSON.stringify({ analysisMoves: n }) });
    assert.equal(loadAll(storage).settings.analysisMoves, n);
  }
  for (const bad of [2, 6, 0, -3, 4.5, "4", null, true, [4], { n: 4 }]) {
    const got = loadAll(new FakeStorage({ [KEYS.settings]: JSON.stringify({ theme: "dark", analysisMoves: bad }) }));
    assert.equal(got.settings.analysisMoves, 3, JSON.stringify(bad));
    assert.equal(got.settings.theme, "dark"); // the other fields are kept
    assert.deepEqual(got.notices, []);
  }
  // written and read back
  const storage = new FakeStorage();
  save(storage, KEYS.settings, { ...DEFAULT_SETTINGS, analysisMoves: 4 });
  assert.equal(loadAll(storage).settings.analysisMoves, 4);
});

test("settings: valid fields kept, invalid ones take their default", () => {
  const stored = { theme: "dark", lang: "zh", sound: true, numbers: "yes", coords: false, showPv: 1, threads: 3, analysisMoves: 5, extra: 1 };
  const got = loadAll(new FakeStorage({ [KEYS.settings]: JSON.stringify(stored) }));
  assert.deepEqual(got.settings, {
    theme: "dark", lang: "zh", sound: true, numbers: false, coords: false, showPv: false, analysisMoves: 5, threads: 3,
    touchConfirm: true, // (not stored: the default, two taps)
  });
  const odd = loadAll(new FakeStorage({ [KEYS.settings]: JSON.stringify({ theme: "pink", lang: "fr", threads: 9 }) }));
  assert.deepEqual(odd.settings, DEFAULT_SETTINGS);
  assert.deepEqual(odd.notices, []);
  for (const text of ["[1, 2", "[1, 2]", "7", "null"]) {
    const storage = new FakeStorage({ [KEYS.settings]: text });
    const bad = loadAll(storage);
    assert.deepEqual(bad.settings, DEFAULT_SETTINGS, text);
    assert.deepEqual(bad.notices, ["corruptSettings"], text);
    assert.equal(storage.items.has(KEYS.settings), false, text);
  }
});

test("finished games round-trip with their size, at most HISTORY_MAX of them", () => {
  let history = [];
  for (const size of SIZES) {
    const g = playAll(Game.newGame({ size }), WON);
    history = addToHistory(history, historyEntry(g, "black", new Date(Date.UTC(2025, 0, size))));
  }
  const storage = new FakeStorage();
  save(storage, KEYS.history, encodeHistory(history));
  const stored = JSON.parse(storage.items.get(KEYS.history));
  assert.equal(stored[0].moves, WON);
  assert.equal(stored[5].size, 20);
  const back = loadAll(storage);
  assert.deepEqual(back.history, history);
  assert.deepEqual(back.notices, []);
  assert.equal(back.history[4].size, 19);
  assert.deepEqual(back.history[4].moves[0], [7, 11]); // h8 on 19x19

  for (let i = 0; i < 30; i++) history = addToHistory(history, historyEntry(Game.newGame(), "draw", new Date()));
  assert.equal(history.length, HISTORY_MAX);
  assert.throws(() => historyEntry(Game.newGame(), "nobody", new Date()), /bad result/);
});

test("finished games: older entries are 15x15; unreadable ones are dropped, once, the others kept", () => {
  const good = { date: "2025-01-02T03:04:05.000Z", rule: "freestyle", first: 1, human: 1, result: "black", moves: WON };
  const entries = [
    good,
    { ...good, size: 17, moves: "q17 a1" },
    { ...good, size: 15, moves: "q17 a1" }, // off the 15x15 board
    { ...good, result: "won" },
    { ...good, rule: "go" },
    { ...good, size: 22 },
    { ...good, moves: ["h8"] },
    "not an entry",
    { ...good, human: "?", result: "draw", moves: "" },
  ];
  const storage = new FakeStorage({ [KEYS.history]: JSON.stringify(entries) });
  const got = loadAll(storage);
  assert.deepEqual(got.history.map((e) => [e.size, e.result, e.moves.length, e.human, e.level, e.seed]),
    [[15, "black", 9, 1, null, 0], [17, "black", 2, 1, null, 0], [15, "draw", 0, BLACK, null, 0]]);
  assert.deepEqual(got.notices, ["droppedHistory"]);
  // the list was written back without them: no notice the next time
  const again = loadAll(storage);
  assert.deepEqual(again.history, got.history);
  assert.deepEqual(again.notices, []);
  // not a list at all: cleared
  const bad = new FakeStorage({ [KEYS.history]: '{"x": 1}' });
  assert.deepEqual(loadAll(bad), { game: null, settings: DEFAULT_SETTINGS, history: [], results: {}, streak: null, review: null, notices: ["corruptHistory"] });
  assert.equal(bad.items.has(KEYS.history), false);
});

test("a storage that refuses to write is reported, not thrown", () => {
  const storage = new FakeStorage();
  storage.refuse = true;
  assert.equal(save(storage, KEYS.game, encodeGame(Game.newGame())), false);
});

// ---- levels, seeds and the results per level ------------------------------------------

test("the seed is kept through storage: the game in progress and the finished games", () => {
  const storage = new FakeStorage();
  let g = playAll(Game.newGame({ level: 2, seed: 2 ** 31 - 1 }), "h8 i9 j10");
  save(storage, KEYS.game, encodeGame(g));
  assert.deepEqual(loadAll(storage).game, g);
  assert.equal(JSON.parse(storage.items.get(KEYS.game)).seed, 2 ** 31 - 1);
  g = playAll(Game.newGame({ level: 3, seed: 12345 }), WON);
  const history = addToHistory([], historyEntry(g, "black", new Date(0)));
  save(storage, KEYS.history, encodeHistory(history));
  const back = loadAll(storage);
  assert.deepEqual(back.history, history);
  assert.equal(back.history[0].seed, 12345);
  assert.equal(back.history[0].level, 3);
  assert.deepEqual(back.notices, []);
  // older entries: seed 0, level not known; old level keys migrated
  const old = { date: "2025-01-02T03:04:05.000Z", result: "black", moves: WON };
  const s2 = new FakeStorage({ [KEYS.history]: JSON.stringify([old, { ...old, level: "t10" }, { ...old, level: 42, seed: -4 }]) });
  assert.deepEqual(loadAll(s2).history.map((e) => [e.level, e.seed]), [[null, 0], [11, 0], [null, 0]]);
});

test("a stored unknown level becomes the default level with a notice naming it; nothing else is lost", () => {
  const game = { size: 17, rule: "standard", first: WHITE, human: WHITE, seed: 777, moves: [[1, 1], [2, 2], [3, 3]], cursor: 2, recorded: false };
  const settings = JSON.stringify({ theme: "dark", analysisMoves: 5 });
  const history = encodeHistory(addToHistory([], historyEntry(playAll(Game.newGame({ level: 5, seed: 9 }), WON), "black", new Date(0))));
  const results = JSON.stringify({ 2: { won: 1, lost: 2, drawn: 3 } });
  for (const level of [42, "x", 0, -1, 2.5, null, "8", [1], { n: 1 }]) {
    const storage = new FakeStorage({
      [KEYS.game]: JSON.stringify({ ...game, level }), [KEYS.settings]: settings,
      [KEYS.history]: JSON.stringify(history), [KEYS.results]: results,
    });
    const got = loadAll(storage);
    assert.deepEqual(got.game, { ...game, level: DEFAULT_LEVEL, twoPlayers: false, clock: null }, JSON.stringify(level));
    assert.deepEqual(got.notices, [{ key: "unknownLevel", vars: { level: JSON.stringify(level), n: DEFAULT_LEVEL } }]);
    assert.equal(got.settings.theme, "dark");
    assert.equal(got.settings.analysisMoves, 5);
    assert.equal(got.history.length, 1);
    assert.equal(got.history[0].seed, 9);
    assert.deepEqual(got.results, { 2: { won: 1, lost: 2, drawn: 3 } });
    // the mended game was written back: the notice is shown once
    const again = loadAll(storage);
    assert.deepEqual(again.game, got.game);
    assert.deepEqual(again.notices, []);
  }
});

test("a stored bad seed becomes 0 with a notice; a game that cannot be read gets its own notice only", () => {
  const got = loadAll(new FakeStorage({ [KEYS.game]: JSON.stringify({ level: 3, seed: -7, moves: [[7, 7]], ladder: LADDER_VERSION }) }));
  assert.equal(got.game.seed, 0);
  assert.equal(got.game.level, 3);
  assert.deepEqual(got.notices, [{ key: "badSeed", vars: { seed: "-7" } }]);
  for (const seed of [2 ** 31, 1.5, "3", true]) {
    assert.equal(loadAll(new FakeStorage({ [KEYS.game]: JSON.stringify({ seed, moves: [] }) })).game.seed, 0);
  }
  const broken = loadAll(new FakeStorage({ [KEYS.game]: JSON.stringify({ level: 42, moves: [[7, 7], [7, 7]] }) }));
  assert.equal(broken.game, null);
  assert.deepEqual(broken.notices, ["corruptGame"]);
});

test("results per level: kept; unreadable entries dropped once with a notice; not an object: cleared", () => {
  const storage = new FakeStorage();
  const results = { 1: { won: 2, lost: 5, drawn: 0 }, 9: { won: 0, lost: 1, drawn: 1 } };
  save(storage, KEYS.results, encodeResults(results));
  assert.deepEqual(loadAll(storage).results, results);
  storage.items.set(KEYS.results, JSON.stringify({ ...results, 42: { won: 1, lost: 0, drawn: 0 }, 3: { won: "1" } }));
  const got = loadAll(storage);
  assert.deepEqual(got.results, results);
  assert.deepEqual(got.notices, ["droppedResults"]);
  assert.deepEqual(loadAll(storage).notices, []); // written back without them
  for (const text of ["{", "[]", "7", "null", '"x"']) {
    const bad = new FakeStorage({ [KEYS.results]: text, [KEYS.settings]: JSON.stringify({ theme: "dark" }) });
    const r = loadAll(bad);
    assert.deepEqual(r.results, {}, text);
    assert.deepEqual(r.notices, ["corruptResults"], text);
    assert.equal(bad.items.has(KEYS.results), false, text);
    assert.equal(r.settings.theme, "dark");
  }
});

// ---- reviews (review.js): with the game in progress and with the finished games ----------

const REVIEW = JSON.parse(readFileSync(new URL("./fixtures/review-answers.json", import.meta.url), "utf8"));
const reviewedGame = () => {
  const game = Game.fromRecord({ moves: parseMoves(REVIEW.game, 15), size: 15, rule: "freestyle", first: BLACK });
  const review = REVIEW.answers.reduce((r, a) => addAnswer(r, a, game), newReview(game));
  return { game, review };
};

test("the game's review round-trips with the game; a partial one too", () => {
  const { game, review } = reviewedGame();
  for (const r of [review, { ...review, black: review.black.slice(0, 4), moves: review.moves.slice(0, 4), summary: null }]) {
    const storage = new FakeStorage();
    save(storage, KEYS.game, encodeGame(Game.goTo(game, 2)));
    assert.equal(saveReview(storage, r, game), true);
    const back = loadAll(storage);
    assert.deepEqual(back.review, r);
    assert.deepEqual(back.notices, []);
    assert.equal(back.game.cursor, 2);
  }
  const storage = new FakeStorage();
  saveReview(storage, review, game);
  saveReview(storage, null, game);
  assert.equal(storage.items.has(KEYS.review), false);
});

test("a broken stored review is dropped with a notice, the game kept; another game's quietly", () => {
  const { game, review } = reviewedGame();
  const stored = encodeCurrentReview(review, game);
  const broken = {
    "not JSON": "{",
    "no key": JSON.stringify({ review: stored.review }),
    "a chance out of range": JSON.stringify({ ...stored, review: { ...stored.review, black: stored.review.black.map(() => 2) } }),
    "an unknown class": JSON.stringify({ ...stored, review: { ...stored.review, moves: stored.review.moves.map(() => ({ class: "?" })) } }),
    "no summary": JSON.stringify({ ...stored, review: { ...stored.review, summary: undefined } }),
  };
  for (const [what, text] of Object.entries(broken)) {
    const storage = new FakeStorage({ [KEYS.game]: JSON.stringify(encodeGame(game)), [KEYS.review]: text });
    const got = loadAll(storage);
    assert.deepEqual(got.game, game, what);
    assert.equal(got.review, null, what);
    assert.deepEqual(got.notices, ["corruptReview"], what);
    assert.equal(storage.items.has(KEYS.review), false, what);
    assert.deepEqual(loadAll(storage).notices, [], "said once");
  }
  // another game's review (the stored game moved on): gone without a word
  const other = Game.fromRecord({ moves: game.moves.slice(0, 5), size: 15, rule: "freestyle", first: BLACK });
  const storage = new FakeStorage({ [KEYS.game]: JSON.stringify(encodeGame(other)), [KEYS.review]: JSON.stringify(stored) });
  const got = loadAll(storage);
  assert.equal(got.review, null);
  assert.deepEqual(got.notices, []);
  assert.equal(storage.items.has(KEYS.review), false);
  // no game: no review
  assert.equal(loadAll(new FakeStorage({ [KEYS.review]: JSON.stringify(stored) })).review, null);
});

test("finished games keep their reviews; a broken review is dropped with a notice, the game kept", () => {
  const { game, review } = reviewedGame();
  const entry = historyEntry(game, "black", new Date(0));
  const history = withHistoryReview([entry, historyEntry(Game.newGame(), "draw", new Date(0))], review);
  const storage = new FakeStorage();
  save(storage, KEYS.history, encodeHistory(history));
  const back = loadAll(storage);
  assert.deepEqual(back.notices, []);
  assert.deepEqual(reviewInHistory(back.history, game), review);
  assert.equal(back.history[1].review, undefined);

  const stored = JSON.parse(storage.items.get(KEYS.history));
  stored[0].review.black[2] = -1;
  stored[1].review = { nodes: 5 }; // a review of a game of no moves, without chances
  const bad = new FakeStorage({ [KEYS.history]: JSON.stringify(stored) });
  const got = loadAll(bad);
  assert.equal(got.history.length, 2);
  assert.deepEqual(got.history[0].moves, game.moves);
  assert.equal(got.history[0].review, undefined);
  assert.equal(got.history[1].review, undefined);
  assert.deepEqual(got.notices, ["droppedReview"]);
  assert.deepEqual(loadAll(bad).notices, [], "written back: said once");
});

test("what a page before the bottom rungs stored keeps its opponents: the game, finished games, results", () => {
  const former = ["newcomer", "beginner", "learner", "casual", "club", "strong", "advanced", "expert", "unlimited"];
  const keyOf = (n) => levelOf(n).key;
  const old = { date: "2025-01-02T03:04:05.000Z", result: "black", moves: WON };
  const storage = new FakeStorage({
    [KEYS.game]: JSON.stringify({ size: 15, level: 1, seed: 3, moves: [[7, 7]], cursor: 1 }),
    [KEYS.history]: JSON.stringify([{ ...old, level: 3 }, { ...old, level: 9 }, { ...old, level: "t1" }]),
    [FORMER_RESULTS]: JSON.stringify({ 1: { won: 0, lost: 4, drawn: 0 }, 7: { won: 2, lost: 0, drawn: 1 } }),
  });
  const got = loadAll(storage);
  assert.equal(keyOf(got.game.level), "newcomer");
  assert.deepEqual(got.history.map((e) => keyOf(e.level)), ["learner", "unlimited", "advanced"]);
  assert.deepEqual(Object.entries(got.results).map(([n, r]) => [keyOf(Number(n)), r.lost]), [["newcomer", 4], ["advanced", 0]]);
  assert.deepEqual(got.notices, []);
  // the results moved to their new key once; the rest reads the same until rewritten
  assert.equal(storage.items.has(FORMER_RESULTS), false);
  assert.deepEqual(JSON.parse(storage.items.get(KEYS.results)), encodeResults(got.results));
  assert.deepEqual(loadAll(storage), got);
  // written again, they say which ladder they are on, and read back unchanged
  save(storage, KEYS.game, encodeGame(got.game));
  save(storage, KEYS.history, encodeHistory(got.history));
  assert.equal(JSON.parse(storage.items.get(KEYS.game)).ladder, LADDER_VERSION);
  assert.ok(JSON.parse(storage.items.get(KEYS.history)).every((e) => e.ladder === LADDER_VERSION));
  const back = loadAll(storage);
  assert.deepEqual([back.game, back.history, back.results], [got.game, got.history, got.results]);
  // every former level maps to the level of the same name
  former.forEach((key, i) => {
    const s = new FakeStorage({ [KEYS.game]: JSON.stringify({ level: i + 1, moves: [] }) });
    assert.equal(keyOf(loadAll(s).game.level), key);
  });
  // results stored on this ladder are not moved again
  const fresh = new FakeStorage({ [KEYS.results]: JSON.stringify({ 1: { won: 1, lost: 0, drawn: 0 } }) });
  assert.deepEqual(loadAll(fresh).results, { 1: { won: 1, lost: 0, drawn: 0 } });
});

test("the losses in a row are kept; one that cannot be read is forgotten quietly", () => {
  const ok = new FakeStorage({ [KEYS.streak]: JSON.stringify({ level: 5, losses: 2 }) });
  assert.deepEqual(loadAll(ok).streak, { level: 5, losses: 2 });
  for (const v of ["{", "[]", JSON.stringify({ level: 99, losses: 1 }), JSON.stringify({ level: 2, losses: -1 })]) {
    const got = loadAll(new FakeStorage({ [KEYS.streak]: v }));
    assert.deepEqual([got.streak, got.notices], [null, []], v);
  }
});
