// node --test: web/engine/engine-jobs.js under a game clock and with two players, on a fake
// engine client and fake clocks: the engine's think carries its time left and the game's
// start (matchMs, timeLeftMs) at every kind of level, its move is charged to its clock,
// a move that comes after its flag is not played, and with two players the engine never
// moves but gives hints for either colour.
import assert from "node:assert/strict";
import test from "node:test";

import * as Clock from "../../../web/model/clock.js";
import { clockFloorMs, clockThinkMs } from "../../../web/engine/deadlines.js";
import { LEVEL_FLOOR_MS, createEngineJobs } from "../../../web/engine/engine-jobs.js";
import * as Game from "../../../web/model/game.js";
import { LEVEL_DATA } from "../../../web/model/levels.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import { initialState, syncClock } from "../../../web/model/state.js";
import { createStore } from "../../../web/model/store.js";

const settle = () => new Promise((resolve) => setImmediate(resolve));
const reply = (move) => ({ type: "result", move, score: { cp: 0 }, black: 0.5, depth: 2, nodes: 40, pv: [move], source: "search" });
const FIVE_THREE = { baseMs: 300_000, incMs: 3000 };

class FakeEngine {
  constructor() { this.state = "ready"; this.restarts = 0; this.calls = []; }
  request(message, opts) { return new Promise((resolve, reject) => this.calls.push({ message, opts, resolve, reject })); }
  restart() { this.restarts += 1; }
}

// The engine's jobs on a store holding `game`; t.now is the job runner's time and the
// clock's (one fake time source); the clock started or stopped as the page's clock view
// does after every change (syncClock).
function setup(game, params = {}) {
  const t = { now: 0 };
  const sleepers = [];
  const sleeps = [];
  const engine = new FakeEngine();
  const store = createStore({ ...initialState({ game, settings: { ...DEFAULT_SETTINGS } }), engine: { state: "ready", restarts: 0, ready: null } });
  store.subscribe(() => store.update((s) => syncClock(s, t.now)));
  store.update((s) => syncClock(s, t.now));
  const flags = [];
  const jobs = createEngineJobs({
    store, engine,
    params: { test: false, time: null, deadline: null, slice: null, threads: null, ...params },
    analysisView: { offer: () => true, begin() {}, sliceEnded() {}, reset() {} },
    say: { announce() {}, notice() {} },
    onReady() {},
    now: () => t.now,
    sleep: (ms) => new Promise((resolve) => { sleeps.push(ms); sleepers.push(resolve); }),
    clockNow: () => t.now,
    onFlag: () => flags.push(t.now),
  });
  return { t, wake: () => sleepers.splice(0).forEach((r) => r()), sleeps, engine, store, jobs, flags };
}

// a clocked game with black's first move h8 made at time 0: the engine (white) to move
function clocked(setupArgs) {
  const game = Game.newGame({ clock: FIVE_THREE, human: BLACK, ...setupArgs });
  return setup(game);
}

async function firstMove(env, at = 0) {
  env.t.now = at;
  env.store.update((s) => ({ ...s, game: { ...Game.play(s.game, 7, 7), clock: Clock.moved(s.game.clock, BLACK, WHITE, at) } }));
  env.store.update((s) => syncClock(s, at));
}

test("a node level under a clock: {level, seed} with the clock's matchMs and timeLeftMs, a floor within the clock", async () => {
  const level = LEVEL_DATA.find((l) => l.nodes > 0);
  const env = clocked({ level: level.number, seed: 11 });
  await firstMove(env, 0);
  env.t.now = 2000; // the engine's clock has run 2 s (e.g. the coach's request first)
  env.jobs.engineMove();
  await settle();
  const { message } = env.engine.calls[0];
  assert.deepEqual(message.limits, { level: level.number, seed: 11, matchMs: 300_000, timeLeftMs: 298_000 });
  // its move: charged to its clock (from its turn's start, the floor aside), then the player's turn
  env.t.now = 2000 + LEVEL_FLOOR_MS;
  env.engine.calls[0].resolve(reply([8, 8]));
  await settle();
  env.wake();
  await settle();
  const { clock } = env.store.get().game;
  assert.deepEqual(env.store.get().game.moves, [[7, 7], [8, 8]]);
  assert.deepEqual(clock.left, [303_000, 300_000 - 2500 + 3000]);
  assert.deepEqual(clock.used, [0, 2500]);
  assert.equal(clock.running, BLACK);
  assert.equal(clock.since, 2500); // the player's time runs from the engine's stone
});

test("a short clock shortens the level's floor", async () => {
  const env = setup(Game.newGame({ clock: { baseMs: 60_000, incMs: 0 }, human: BLACK, level: 1 }));
  await firstMove(env, 0);
  env.store.update((s) => ({ ...s, game: { ...s.game, clock: { ...s.game.clock, left: [60_000, 4000] } } }));
  env.jobs.engineMove();
  await settle();
  assert.equal(env.engine.calls[0].message.limits.timeLeftMs, 4000);
  env.t.now = 10; // answered at once: it waits only the short floor, 1/40 of its 4 s
  env.engine.calls[0].resolve(reply([8, 8]));
  await settle();
  assert.equal(clockFloorMs(4000), 100);
  assert.deepEqual(env.sleeps, [90]);
  assert.equal(env.store.get().game.moves.length, 1);
  env.t.now = 100;
  env.wake();
  await settle();
  assert.equal(env.store.get().game.moves.length, 2);
});

test("Expert under a clock keeps its promise with the clock; Unlimited plays by the clock alone, in one think", async () => {
  const expert = LEVEL_DATA.find((l) => l.timeMs > 0);
  const env = clocked({ level: expert.number });
  await firstMove(env, 0);
  env.t.now = 1000;
  env.jobs.engineMove();
  await settle();
  assert.deepEqual(env.engine.calls[0].message.limits, { maxMs: expert.timeMs, matchMs: 300_000, timeLeftMs: 299_000 });
  assert.equal(env.store.get().job.sliced, false);

  const unlimited = LEVEL_DATA.find((l) => l.timeMs === 0);
  const u = clocked({ level: unlimited.number });
  await firstMove(u, 0);
  u.t.now = 500;
  u.jobs.engineMove();
  await settle();
  const call = u.engine.calls[0];
  assert.deepEqual(call.message.limits, { matchMs: 300_000, timeLeftMs: 299_500 });
  assert.equal(u.store.get().job.sliced, false); // no Move now: the clock decides
  assert.equal(call.opts.deadlineMs, clockThinkMs(299_500) * 3 + 10_000);
  u.t.now = 4000;
  call.resolve(reply([8, 8]));
  await settle();
  assert.equal(u.engine.calls.length, 1); // one think, no more slices
  assert.deepEqual(u.store.get().game.clock.used, [0, 4000]);
  // without a clock the same level still thinks in slices until Move now
  const plain = setup(Game.play(Game.newGame({ level: unlimited.number, human: BLACK }), 7, 7));
  plain.jobs.engineMove();
  await settle();
  assert.equal(plain.store.get().job.sliced, true);
  assert.deepEqual(Object.keys(plain.engine.calls[0].message.limits), ["timeMs"]);
});

test("the engine's move after its time ran out is not played: its flag falls and the page hears of it", async () => {
  const env = setup(Game.newGame({ clock: { baseMs: 60_000, incMs: 0 }, human: BLACK, level: 11 }));
  await firstMove(env, 0);
  env.jobs.engineMove();
  await settle();
  env.t.now = 60_001;
  env.engine.calls[0].resolve(reply([8, 8]));
  await settle();
  const s = env.store.get();
  assert.deepEqual(s.game.moves, [[7, 7]]);
  assert.equal(s.game.clock.flag, WHITE);
  assert.deepEqual(env.flags, [60_001]);
  assert.deepEqual(s.results, { 11: { won: 1, lost: 0, drawn: 0 } }); // the player won on time
});

test("two players: the engine never moves; a hint is given to either colour; no clock in the think", async () => {
  const env = setup(Game.newGame({ twoPlayers: true, human: BLACK }));
  env.jobs.engineMove(true);
  await settle();
  assert.equal(env.engine.calls.length, 0);
  env.store.update((s) => ({ ...s, game: Game.play(s.game, 7, 7) })); // white to move: not game.human
  env.jobs.hint();
  await settle();
  assert.equal(env.engine.calls.length, 1);
  assert.deepEqual(Object.keys(env.engine.calls[0].message.limits), ["maxMs"]);
  env.engine.calls[0].resolve(reply([8, 8]));
  await settle();
  assert.deepEqual(env.store.get().hint.move, [8, 8]);
  assert.deepEqual(env.store.get().game.moves, [[7, 7]]); // shown, not played
});
