// node --test: web/engine/engine-jobs.js, the engine's move at a level, on a fake engine client and
// clock: at a node-limited level one think with limits {level, seed} and nothing else (no
// time, whatever ?time= says), its generous hard deadline, and the floor: the move is not
// played sooner than LEVEL_FLOOR_MS after the request. At a timed level the think is on
// the clock as before. And the parallel client sends a level think to the engine worker
// alone, whatever the threads.
import assert from "node:assert/strict";
import test from "node:test";

import { LEVEL_DEADLINE_AS_MS, LEVEL_FLOOR_MS, createEngineJobs, levelThink, thinkPosition } from "../../../web/engine/engine-jobs.js";
import * as Game from "../../../web/model/game.js";
import { LEVEL_DATA, levelOf } from "../../../web/model/levels.js";
import { ParallelEngineClient } from "../../../web/engine/parallel-client.js";
import { WHITE } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import { initialState } from "../../../web/model/state.js";
import { createStore } from "../../../web/model/store.js";

const settle = () => new Promise((resolve) => setImmediate(resolve));

class FakeEngine {
  constructor() {
    this.state = "ready";
    this.restarts = 0;
    this.calls = [];
  }
  request(message, opts) {
    return new Promise((resolve, reject) => this.calls.push({ message, opts, resolve, reject }));
  }
  restart() {
    this.restarts += 1;
  }
}

// The engine's jobs on a store whose game is `game` (the engine to move), a fake engine,
// a fake clock and timer; params as params.js reads them.
function setup(game, params = {}) {
  const clock = { t: 0 };
  const sleeps = [];
  const sleepers = [];
  const engine = new FakeEngine();
  const store = createStore({ ...initialState({ game, settings: { ...DEFAULT_SETTINGS } }), engine: { state: "ready", restarts: 0, ready: null } });
  const said = [];
  const jobs = createEngineJobs({
    store, engine,
    params: { test: false, time: null, deadline: null, slice: null, threads: null, ...params },
    analysisView: { offer: () => true, begin() {}, sliceEnded() {}, reset() {} },
    say: { announce: (text) => said.push(text), notice() {} },
    onReady() {},
    now: () => clock.t,
    sleep: (ms) => new Promise((resolve) => { sleeps.push(ms); sleepers.push(resolve); }),
  });
  return { clock, sleeps, wake: () => sleepers.splice(0).forEach((r) => r()), engine, store, jobs, said };
}

const nodeLevels = LEVEL_DATA.filter((l) => l.nodes);
const reply = (move) => ({ type: "result", move, score: { cp: 0 }, black: 0.5, depth: 2, nodes: 40, pv: [move], source: "search" });

test("a node level's move: limits {level, seed} only, a generous deadline, and the floor holds", async () => {
  for (const level of nodeLevels) {
    // the engine plays black and opens; ?time= is ignored at a node level
    const game = Game.newGame({ level: level.number, seed: 4242 + level.number, human: WHITE });
    const { clock, sleeps, wake, engine, store, jobs } = setup(game, { time: 200 });
    jobs.engineMove();
    await settle();
    assert.equal(engine.calls.length, 1);
    const { message, opts } = engine.calls[0];
    assert.deepEqual(message, { type: "think", size: 15, rule: "freestyle", first: "black", moves: [], limits: { level: level.number, seed: 4242 + level.number } });
    assert.deepEqual(Object.keys(message.limits).sort(), ["level", "seed"]);
    assert.equal(opts.deadlineMs, LEVEL_DEADLINE_AS_MS * 3 + 10000); // as a 20 s think's
    assert.deepEqual(store.get().job, { kind: "move", key: store.get().job.key, sliced: false });
    // the engine answers after 120 ms: the move waits for the floor
    clock.t = 120;
    engine.calls[0].resolve(reply([7, 7]));
    await settle();
    assert.deepEqual(sleeps, [LEVEL_FLOOR_MS - 120]);
    assert.deepEqual(store.get().game.moves, []);
    assert.notEqual(store.get().job, null);
    clock.t = LEVEL_FLOOR_MS;
    wake();
    await settle();
    assert.deepEqual(store.get().game.moves, [[7, 7]]);
    assert.equal(store.get().job, null);
  }
});

test("a node level's move that took longer than the floor is played at once; the seed is the game's", async () => {
  const game = Game.play(Game.newGame({ level: 1, seed: 99 }), 7, 7);
  const { clock, sleeps, engine, store, jobs } = setup(game);
  jobs.engineMove();
  await settle();
  assert.deepEqual(engine.calls[0].message.limits, { level: 1, seed: 99 });
  assert.deepEqual(engine.calls[0].message.moves, [[7, 7]]);
  clock.t = LEVEL_FLOOR_MS + 300;
  engine.calls[0].resolve(reply([8, 8]));
  await settle();
  assert.deepEqual(sleeps, []);
  assert.deepEqual(store.get().game.moves, [[7, 7], [8, 8]]);
  // ?deadline= still overrides the hard deadline (a test hook)
  const hooked = setup(Game.play(Game.newGame({ level: 2, seed: 1 }), 7, 7), { deadline: 8000 });
  hooked.jobs.engineMove();
  await settle();
  assert.equal(hooked.engine.calls[0].opts.deadlineMs, 8000);
});

test("levelThink: the shown position only, on any size and rule", () => {
  let game = Game.newGame({ size: 19, rule: "renju", level: 3, seed: 5 });
  for (const [x, y] of [[9, 9], [10, 10], [11, 9]]) game = Game.play(game, x, y);
  game = Game.goTo(game, 2);
  assert.deepEqual(levelThink(game, levelOf(3)), {
    type: "think", size: 19, rule: "renju", first: "black", moves: [[9, 9], [10, 10]], limits: { level: 3, seed: 5 },
  });
});

test("think messages name the colour of the first move (the colours of the engine's scores)", () => {
  const white = Game.play(Game.newGame({ first: WHITE, level: 2, seed: 1 }), 7, 7);
  assert.deepEqual(thinkPosition(white), { type: "think", size: 15, rule: "freestyle", first: "white", moves: [[7, 7]] });
  assert.equal(levelThink(white, levelOf(2)).first, "white");
  assert.equal(thinkPosition(Game.newGame()).first, "black");
});

test("a timed level thinks on the clock: Expert one think with its time as the maximum (maxMs), Unlimited slices", async () => {
  const expert = LEVEL_DATA.find((l) => l.timeMs > 0);
  const unlimited = LEVEL_DATA.find((l) => l.timeMs === 0);
  const a = setup(Game.play(Game.newGame({ level: expert.number }), 7, 7));
  a.jobs.engineMove();
  await settle();
  assert.deepEqual(a.engine.calls[0].message.limits, { maxMs: expert.timeMs });
  const b = setup(Game.play(Game.newGame({ level: expert.number }), 7, 7), { time: 300 });
  b.jobs.engineMove();
  await settle();
  assert.deepEqual(b.engine.calls[0].message.limits, { maxMs: 300 });
  const c = setup(Game.play(Game.newGame({ level: unlimited.number }), 7, 7));
  c.jobs.engineMove();
  await settle();
  assert.deepEqual(c.engine.calls[0].message.limits, { timeMs: 500 });
  assert.equal(c.store.get().job.sliced, true);
});

test("a hint is the full engine's at any level", async () => {
  const { engine, jobs } = setup(Game.newGame({ level: 1, seed: 3 }));
  jobs.hint();
  await settle();
  assert.deepEqual(engine.calls[0].message.limits, { maxMs: 2000 }); // at most 2 s
});

test("the parallel client sends a level think to the engine worker alone", async () => {
  const client = new ParallelEngineClient({ workerUrl: "w.js", searchWorkerUrl: "w.js?role=search", threads: 2 });
  const posted = [];
  const searchPosted = [];
  client.worker = { postMessage: (m) => posted.push(m), terminate() {} };
  client.state = "ready";
  client.pool.slots = [0, 1].map((index) => ({ index, state: "ready", worker: { postMessage: (m) => searchPosted.push(m) } }));
  const message = levelThink(Game.play(Game.newGame({ level: 2, seed: 11 }), 7, 7), levelOf(2));
  const answer = client.request(message, { deadlineMs: 1000 });
  await settle();
  assert.equal(posted.length, 1);
  assert.equal(posted[0].type, "think");
  assert.deepEqual(posted[0].limits, { level: 2, seed: 11 });
  assert.deepEqual(searchPosted, []);
  client._onMessage({ type: "result", id: posted[0].id, move: [8, 8] }, 0);
  assert.deepEqual((await answer).move, [8, 8]);
  assert.equal(client.stats.parallel, 0);
});
