// node --test: web/model/state.js (the page's state: the shown position, the changes made by
// playing, browsing, a new game, a record and the engine's reports, and what is stored).
import assert from "node:assert/strict";
import test from "node:test";

import { parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { TOP_LEVEL } from "../../../web/model/levels.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import * as State from "../../../web/model/state.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import { KEYS, encodeGame } from "../../../web/model/storage.js";

const fresh = (game = Game.newGame()) => State.initialState({ game, history: [], settings: { ...DEFAULT_SETTINGS } });
const playAll = (s, texts) => texts.split(" ").reduce((st, c) => State.played(st, ...parseCell(c, st.game.size), new Date(0)), s);
const WON = "h8 a1 h9 a2 h10 a3 h11 a4 h12";

test("the initial state: the stored game or a new one, nothing from the engine yet", () => {
  const s = State.initialState({ game: null, settings: DEFAULT_SETTINGS });
  assert.deepEqual(s.game, Game.newGame());
  assert.deepEqual(s.finished, []);
  assert.equal(s.analysing, false);
  assert.equal(s.job, null);
  assert.deepEqual(s.engine, { state: "idle", restarts: 0, ready: null });
  assert.equal(s.workers, null);
});

test("shownOf: the shown position and its forbidden points, worked out once per game", () => {
  const s = playAll(fresh(Game.newGame({ rule: "renju" })), "h10 a1 i10 c1 g9 e1 g8 o1");
  const a = State.shownOf(s.game);
  assert.equal(State.shownOf(s.game), a);
  assert.equal(a.pos.stones.size, 8);
  assert.deepEqual([...a.forbidden], [["6,5", "double three"]]); // g10
  assert.notEqual(State.shownOf(State.browsed(s, 7).game), a);
  assert.equal(State.shownOf(State.browsed(s, 7).game).forbidden.size, 0); // white to move
});

test("played: a stone for the side to move, the hint gone, the old state unchanged", () => {
  const s0 = { ...fresh(), hint: { key: "k", move: [1, 1] } };
  const s1 = State.played(s0, 7, 7, new Date(0));
  assert.deepEqual(s1.game.moves, [[7, 7]]);
  assert.equal(s1.hint, null);
  assert.deepEqual(s0.game.moves, []);
  assert.throws(() => State.played(s1, 7, 7, new Date(0)), /taken/);
});

test("a game that ends goes to the finished games, once", () => {
  const s = playAll(fresh(), WON);
  assert.equal(s.finished.length, 1);
  assert.equal(s.finished[0].result, "black");
  assert.equal(s.finished[0].date, new Date(0).toISOString());
  assert.equal(s.game.recorded, true);
  const back = State.browsed(s, 8);
  const again = State.played(back, ...parseCell("h12", 15), new Date(1)); // the same win again
  assert.equal(again.finished.length, 1);
});

test("browsed, a new game and a record", () => {
  const s = { ...playAll(fresh(), "h8 i9 j10"), hint: { key: "k", move: [0, 0] }, info: { keys: [] }, lastEngine: { move: "i9", secs: "1.0" } };
  const b = State.browsed(s, 1);
  assert.equal(b.game.cursor, 1);
  assert.equal(b.hint, null);
  assert.equal(b.info, s.info);
  const n = State.newGame({ ...s, analysing: true }, { human: WHITE, size: 17 });
  assert.deepEqual([n.game.size, n.game.human, n.game.moves.length], [17, WHITE, 0]);
  assert.deepEqual([n.analysing, n.hint, n.info, n.lastEngine], [false, null, null, null]);
  const game = Game.fromRecord({ moves: [[7, 7]], size: 15, rule: "freestyle", first: BLACK });
  const o = State.opened({ ...s, analysing: true }, game);
  assert.deepEqual([o.game, o.analysing, o.hint, o.info, o.lastEngine], [game, true, null, null, s.lastEngine]);
  assert.equal(State.opened({ ...s, analysing: true }, game, false).analysing, false);
});

test("the engine's report is shown for the position it is about, and after the engine's move", () => {
  const s = playAll(fresh(), "h8");
  const key = State.positionKey(s);
  const reply = { type: "result", move: [8, 6], score: { cp: 30 }, black: 0.4626, source: "search", pv: [[8, 6], [9, 5]] };
  const a = State.withInfo(s, reply, WHITE, key);
  assert.deepEqual(a.info, { ...reply, stm: WHITE, keys: [key] });
  assert.equal(State.currentInfo(a), a.info);
  assert.equal(State.currentInfo(State.browsed(a, 0)), null);
  assert.equal(State.withInfo(s, { depth: 3 }, WHITE, key).info.source, null);
  const m = State.engineMoved(s, reply, WHITE, key, [8, 6], { move: "i9", secs: "0.5" }, new Date(0));
  assert.deepEqual(m.game.moves, [[7, 7], [8, 6]]);
  assert.deepEqual(m.info.keys, [key, State.positionKey(m)]);
  assert.equal(State.currentInfo(m), m.info);
  assert.deepEqual(m.lastEngine, { move: "i9", secs: "0.5" });
});

test("playerMayPlay: in analysis always, else on the player's turn with the engine free", () => {
  const s = fresh();
  assert.equal(State.playerMayPlay(s), true);
  assert.equal(State.playerMayPlay({ ...s, job: { kind: "move" } }), false);
  assert.equal(State.playerMayPlay({ ...s, job: { kind: "hint" } }), true);
  assert.equal(State.playerMayPlay({ ...s, engineError: "x" }), false);
  const w = playAll(s, "h8");
  assert.equal(State.playerMayPlay(w), false);
  assert.equal(State.playerMayPlay({ ...w, analysing: true }), true);
  assert.equal(State.playerMayPlay({ ...playAll(s, WON), analysing: true }), false);
});

test("persistence writes what changed: the game, the settings, the finished games, the results, the streak", () => {
  const writes = [];
  const storage = { setItem: (k, v) => writes.push([k, JSON.parse(v)]) };
  const persist = State.persistence(storage);
  const s0 = fresh();
  const s1 = State.played(s0, 7, 7, new Date(0));
  persist(s1, s0);
  assert.deepEqual(writes, [[KEYS.game, encodeGame(s1.game)]]);
  writes.length = 0;
  persist({ ...s1, info: {}, job: { kind: "move" } }, s1);
  assert.deepEqual(writes, []);
  const s2 = { ...s1, settings: { ...s1.settings, numbers: true } };
  persist(s2, s1);
  assert.deepEqual(writes, [[KEYS.settings, s2.settings]]);
  writes.length = 0;
  const won = playAll(s0, WON);
  persist(won, s0);
  assert.deepEqual(writes.map(([k]) => k), [KEYS.game, KEYS.history, KEYS.results, KEYS.streak]);
  assert.equal(writes[1][1][0].moves, "h8 a1 h9 a2 h10 a3 h11 a4 h12");
  assert.deepEqual(writes[3][1], { level: won.game.level, losses: 0 });
});

// ---- results per level and the next level offered -------------------------------------

test("a finished game against the engine counts for its level, from the player's side", () => {
  const won = playAll(fresh(Game.newGame({ level: 3, seed: 5 })), WON); // black (the player) makes five
  assert.deepEqual(won.results, { 3: { won: 1, lost: 0, drawn: 0 } });
  assert.equal(won.finished.at(-1).level, 3);
  assert.equal(won.finished.at(-1).seed, 5);
  const lost = playAll(fresh(Game.newGame({ level: 3, human: WHITE })), WON);
  assert.deepEqual(lost.results, { 3: { won: 0, lost: 1, drawn: 0 } });
  assert.equal(lost.offer, null);
  // the results of earlier games stay; a recorded game is not counted again
  const two = playAll({ ...fresh(Game.newGame({ level: 3 })), results: won.results }, WON);
  assert.deepEqual(two.results, { 3: { won: 2, lost: 0, drawn: 0 } });
  const undone = State.browsed(two, 8);
  assert.deepEqual(playAll(undone, "h12").results, two.results);
  // in analysis the player plays both sides: not a game against the engine
  const analysed = playAll({ ...fresh(Game.newGame({ level: 3 })), analysing: true }, WON);
  assert.deepEqual(analysed.results, {});
  assert.equal(analysed.offer, null);
  assert.equal(analysed.finished.length, 1);
});

test("a draw counts as drawn", () => {
  let s = fresh(Game.newGame({ level: 2 }));
  // fill the board without five (game.test.mjs's pattern: pairs of columns alternate)
  const size = 15;
  const sides = [[], []];
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) sides[((x + 2 * y) >> 1) & 1].push([x, y]);
  for (let i = 0; i < size * size; i++) s = State.played(s, ...sides[i % 2][i >> 1], new Date(0));
  assert.equal(State.shownOf(s.game).pos.draw, true);
  assert.deepEqual(s.results, { 2: { won: 0, lost: 0, drawn: 1 } });
});

test("a win below the top level offers the next one until the game changes; at the top nothing", () => {
  const s = playAll(fresh(Game.newGame({ level: 3 })), WON);
  assert.equal(s.offer, 4);
  assert.equal(State.browsed(s, 3).offer, null);
  assert.equal(State.newGame(s, { level: 4 }).offer, null);
  assert.equal(State.opened(s, Game.newGame()).offer, null);
  assert.equal({ ...s, info: {} }.offer, 4); // the engine's report does not change it
  const top = playAll(fresh(Game.newGame({ level: TOP_LEVEL })), WON);
  assert.equal(top.offer, null);
  assert.deepEqual(top.results, { [TOP_LEVEL]: { won: 1, lost: 0, drawn: 0 } });
  // the initial state offers nothing and has the stored results
  const results = { 1: { won: 1, lost: 0, drawn: 0 } };
  const init = State.initialState({ game: null, results, settings: DEFAULT_SETTINGS });
  assert.equal(init.offer, null);
  assert.equal(init.results, results);
  assert.deepEqual(State.initialState({ game: null, settings: DEFAULT_SETTINGS }).results, {});
});

test("the third loss in a row at a level offers the one below, once; a game not lost or another level starts again", () => {
  const LOST = { human: WHITE }; // WON is black's five: the player (white) loses
  const lose = (s, level) => playAll(State.newGame(s, { ...LOST, level }), WON);
  let s = fresh(Game.newGame({ level: 5 }));
  s = lose(s, 5);
  s = lose(s, 5);
  assert.deepEqual([s.offer, s.streak], [null, { level: 5, losses: 2 }]);
  s = lose(s, 5);
  assert.deepEqual([s.offer, s.offerKind, s.streak.losses], [4, "easier", 3]);
  assert.equal(State.newGame(s, { level: 5 }).offer, null); // gone with the next change
  s = lose(s, 5);
  assert.deepEqual([s.offer, s.streak.losses], [null, 4]); // offered once a streak
  // a loss at another level starts a new streak there; a win resets it
  s = lose(lose(s, 6), 6);
  assert.deepEqual([s.offer, s.streak], [null, { level: 6, losses: 2 }]);
  s = playAll(State.newGame(s, { level: 6 }), WON);
  assert.deepEqual([s.offer, s.offerKind, s.streak], [7, "next", { level: 6, losses: 0 }]);
  s = lose(lose(lose(s, 6), 6), 6);
  assert.deepEqual([s.offer, s.offerKind], [5, "easier"]);
  // at the bottom there is nothing below; in analysis nothing counts
  const bottom = lose(lose(lose(fresh(), 1), 1), 1);
  assert.deepEqual([bottom.offer, bottom.streak.losses], [null, 3]);
  const analysed = playAll({ ...State.newGame(s, { ...LOST, level: 6 }), analysing: true }, WON);
  assert.deepEqual([analysed.offer, analysed.streak], [null, s.streak]);
  // the stored streak goes on after a reload
  const reloaded = lose(lose(State.initialState({ game: null, streak: { level: 8, losses: 1 }, settings: DEFAULT_SETTINGS }), 8), 8);
  assert.deepEqual([reloaded.offer, reloaded.offerKind], [7, "easier"]);
});
