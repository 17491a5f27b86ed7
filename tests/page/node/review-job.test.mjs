// node --test: web/engine/review-job.js, the game review as one job of the runner (jobs.js), over
// a fake engine client answering with the worker's own answers
// (fixtures/review-answers.json): the requests 0..total with the game's moves, first
// player and budget; the answers streamed into the state; cancel; a worker that dies
// mid-way (the review goes on where it stopped once the engine is ready); an error
// reply; the review following its game, stored with it and with the finished game.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import * as Game from "../../../web/model/game.js";
import { textOf } from "../../../web/model/i18n.js";
import { createJobRunner } from "../../../web/engine/jobs.js";
import { parseMoves } from "../../../web/model/records.js";
import { DEEP_NODES, DEFAULT_NODES, isComplete, reviewKey } from "../../../web/model/review.js";
import { createReviewJob } from "../../../web/engine/review-job.js";
import { BLACK } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import * as State from "../../../web/model/state.js";
import { KEYS, encodeGame, historyEntry, loadAll, save } from "../../../web/model/storage.js";
import { createStore } from "../../../web/model/store.js";

const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/review-answers.json", import.meta.url), "utf8"));
const ANSWERS = FIXTURE.answers;
const GAME = Game.fromRecord({ moves: parseMoves(FIXTURE.game, 15), size: 15, rule: "freestyle", first: BLACK });

class Timeout extends Error {}

class FakeClient {
  constructor() {
    this.state = "ready";
    this.calls = [];
    this.restarts = 0;
  }
  request(message, opts) {
    return new Promise((resolve, reject) => this.calls.push({ message, opts, resolve, reject }));
  }
  restart() {
    this.restarts += 1;
  }
  get last() {
    return this.calls[this.calls.length - 1];
  }
}

class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup({ game = GAME, finished = [] } = {}) {
  const client = new FakeClient();
  const said = { announce: [], notice: [] };
  // as the view: what is said is a message (i18n.js), rendered when shown
  const say = { announce: (x) => said.announce.push(textOf(x)), notice: (x, kind = "info") => said.notice.push([textOf(x), kind]) };
  const state = {
    ...State.initialState({ game, history: finished, settings: { ...DEFAULT_SETTINGS } }),
    engine: { state: "ready", restarts: 0, ready: {} }, review: null,
  };
  const store = createStore(state);
  let review = null;
  const runner = createJobRunner({
    client,
    deadlineFor: (ms) => ms * 3 + 10000,
    isTimeout: (err) => err instanceof Timeout,
    onChange: (job) => store.update({ job }),
    // as engine-jobs.js: a review job's failure is the review's
    onFailure: (err, info) => (info.job && info.job.kind === "review" ? review.failed(err, info) : null),
    sleep: () => Promise.resolve(),
  });
  const storage = new FakeStorage();
  let stopped = 0;
  review = createReviewJob({
    store, jobs: { runner }, storage, say, words: () => "summary words", stopAnalysis: () => {
      stopped += 1;
      store.update({ analysing: false });
    },
  });
  // answer the request under way with the worker's answer for its index
  const answer = async (patch = {}) => {
    await settle();
    const { message } = client.last;
    client.last.resolve({ ...ANSWERS[message.index], id: "x", ...patch });
    await settle();
    return message.index;
  };
  return { client, store, review, runner, said, storage, answer, stopped: () => stopped };
}

test("a review is one job: requests 0..total with the game's moves, first player and budget", async () => {
  const { client, store, review, said, answer } = setup();
  store.update((s) => State.browsed(s, 3)); // the shown position does not matter
  assert.equal(review.start(DEFAULT_NODES), true);
  assert.equal(store.get().job.kind, "review");
  assert.deepEqual(said.announce, ["Reviewing the game."]);
  const seen = [];
  for (let i = 0; i <= 9; i++) {
    await settle();
    const { message, opts } = client.last;
    assert.deepEqual(message, { type: "review", size: 15, rule: "freestyle", moves: GAME.moves, first: "black", index: i, nodes: 12000 });
    assert.equal(opts.deadlineMs, 3000 * 3 + 10000);
    seen.push(await answer());
    assert.equal(store.get().review.black.length, i + 1, "each answer in the state as it comes");
  }
  assert.deepEqual(seen, [...Array(10).keys()]);
  assert.equal(client.calls.length, 10);
  assert.equal(store.get().job, null);
  assert.equal(isComplete(store.get().review), true);
  assert.equal(store.get().review.moves[6].cls, "blunder");
  assert.equal(said.announce[said.announce.length - 1], "summary words");
  assert.equal(review.start(DEFAULT_NODES), false, "complete: nothing to do");
  // Deep: another budget, a new review
  assert.equal(review.start(DEEP_NODES), true);
  await settle();
  assert.equal(client.last.message.nodes, 60000);
  assert.equal(client.last.message.index, 0);
  assert.equal(client.last.opts.deadlineMs, 15000 * 3 + 10000);
});

test("cancel stops it; Review again goes on where it stopped", async () => {
  const { client, store, review, said, answer } = setup();
  review.start(DEFAULT_NODES);
  await answer();
  await answer();
  await answer();
  await settle();
  review.cancel();
  assert.equal(store.get().job, null);
  assert.equal(said.announce[said.announce.length - 1], "Review cancelled.");
  client.last.resolve(ANSWERS[3]); // the search under way ends: its answer is not taken
  await settle();
  assert.equal(store.get().review.black.length, 3);
  assert.equal(client.calls.length, 4);
  review.start(DEFAULT_NODES);
  await settle();
  assert.equal(client.last.message.index, 3);
  // the first request of a run may find a worker new to the game: positions 0..3 first
  assert.equal(client.last.opts.deadlineMs, 4 * 3000 * 3 + 10000);
  await answer();
  await settle();
  assert.equal(client.last.opts.deadlineMs, 3000 * 3 + 10000, "then one step's time");
  for (let i = 4; i <= 9; i++) await answer();
  assert.equal(isComplete(store.get().review), true);
  assert.equal(client.calls.length, 11);
});

test("browsing leaves it running; a change of the moves ends it and drops the review", async () => {
  const { client, store, review, answer } = setup();
  review.start(DEFAULT_NODES);
  await answer();
  await answer();
  store.update((s) => State.browsed(s, 4));
  assert.equal(store.get().job.kind, "review");
  await answer();
  assert.equal(store.get().review.black.length, 3);
  // a new branch: white plays elsewhere at move 4 (i9 -> a15)
  store.update((s) => State.played(s, 0, 0, new Date(0)));
  assert.equal(store.get().review, null);
  assert.equal(store.get().job, null);
  await settle();
  client.last.resolve(ANSWERS[3]);
  await settle();
  assert.equal(client.calls.length, 4, "no more requests");
  assert.equal(store.get().review, null);
});

test("a worker that dies mid-way: the review goes on where it stopped once the engine is ready", async () => {
  const { client, store, review, said, answer } = setup();
  review.start(DEFAULT_NODES);
  for (let i = 0; i < 4; i++) await answer();
  await settle();
  assert.equal(client.last.message.index, 4);
  client.last.reject(new Timeout("the engine did not answer within 13.0 s"));
  await settle();
  assert.equal(store.get().job, null);
  assert.equal(store.get().review.resume, true);
  assert.equal(said.notice[said.notice.length - 1][1], "warn");
  // the engine client started a new worker; once it is ready:
  review.engineReady();
  await settle();
  assert.equal(store.get().job.kind, "review");
  assert.equal(client.last.message.index, 4, "resumed, not restarted");
  for (let i = 4; i <= 9; i++) await answer();
  assert.equal(isComplete(store.get().review), true);
  assert.deepEqual(store.get().review.black, ANSWERS.map((a) => a.position.black));
  review.engineReady(); // nothing to resume
  await settle();
  assert.equal(store.get().job, null);
});

test("a worker that keeps dying: the review stops with a message, and can be started again", async () => {
  const { client, store, review, said, answer } = setup();
  review.start(DEFAULT_NODES);
  await answer();
  for (let k = 0; k < 3; k++) {
    await settle();
    client.last.reject(new Timeout("the engine did not answer"));
    await settle();
    if (k < 2) {
      assert.equal(store.get().review.resume, true);
      review.engineReady();
    }
  }
  assert.equal(store.get().job, null);
  assert.equal(store.get().review.resume, false);
  assert.match(store.get().review.error, /did not answer/);
  assert.deepEqual(said.notice[said.notice.length - 1], [
    "The review stopped: the engine did not answer. Press Review to try again; your game is unchanged.", "error",
  ]);
  assert.equal(review.start(DEFAULT_NODES), true);
  await settle();
  assert.equal(client.last.message.index, 1);
  assert.equal(store.get().review.error, null);
  await answer();
  assert.equal(store.get().review.black.length, 2);
});

test("an error reply stops the review with its message; the game is unchanged", async () => {
  const { client, store, review, said, answer } = setup();
  const game = store.get().game;
  review.start(DEFAULT_NODES);
  await answer();
  await settle();
  client.last.resolve({ type: "error", id: "x", message: "nodes must be an integer in 1..200000, got -1" });
  await settle();
  assert.equal(store.get().job, null);
  assert.equal(store.get().game, game);
  assert.equal(store.get().engineError, null, "the engine itself is fine");
  assert.equal(store.get().review.black.length, 1);
  assert.match(said.notice[said.notice.length - 1][0], /^The review stopped: nodes must be an integer/);
  // a malformed answer is one too
  review.start(DEFAULT_NODES);
  await answer({ index: 5 });
  assert.match(store.get().review.error, /reviewed position 5, expected 1/);
});

test("only a reviewable game, with the engine ready; analysis ends", async () => {
  const played = Game.play(Game.play(Game.newGame(), 7, 7), 8, 8);
  assert.equal(setup({ game: played }).review.start(DEFAULT_NODES), false);
  const busy = setup();
  busy.store.update((s) => ({ ...s, engine: { ...s.engine, state: "loading" } }));
  assert.equal(busy.review.start(DEFAULT_NODES), false);
  const analysing = setup();
  analysing.store.update({ analysing: true });
  assert.equal(analysing.review.start(DEFAULT_NODES), true);
  assert.equal(analysing.stopped(), 1);
  assert.equal(analysing.store.get().analysing, false);
});

test("stored with the game as it grows; kept with the finished game once complete, and brought back", async () => {
  const entry = historyEntry(GAME, "black", new Date(0));
  const { store, review, storage, answer } = setup({ finished: [entry] });
  save(storage, KEYS.game, encodeGame(GAME));
  review.start(DEFAULT_NODES);
  await answer();
  await answer();
  assert.equal(loadAll(storage).review.black.length, 2);
  for (let i = 2; i <= 9; i++) await answer();
  const done = store.get().review;
  assert.deepEqual(loadAll(storage).review, done);
  assert.ok(store.get().finished[0].review, "the finished game has it");
  // a new game: no review; the finished game opened again: its review, no request
  store.update((s) => State.newGame(s, {}));
  assert.equal(store.get().review, null);
  assert.equal(storage.items.has(KEYS.review), false);
  store.update((s) => State.opened(s, Game.fromRecord(s.finished[0])));
  assert.deepEqual(store.get().review, done);
  assert.equal(store.get().review.key, reviewKey(GAME));
  assert.equal(store.get().job, null);
});
