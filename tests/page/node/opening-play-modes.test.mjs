// node --test: an opening rule with two players on one device and with a game clock. Two
// players make every opening choice on the device (the engine none: engine-jobs.js sends
// it nothing), and the page names the first or second player in both languages; a clock
// starts when the opening is over (its stones are the clock's untimed moves: no time
// charged, no increment; the engine's opening choices are not on its clock), and a game
// stored, linked or taken back keeps the two together. Learn from your mistakes keeps the
// opening's stones out of the review of the last game.
import assert from "node:assert/strict";
import test from "node:test";

import * as Clock from "../../../web/model/clock.js";
import { parseCell } from "../../../web/model/coords.js";
import { createEngineJobs } from "../../../web/engine/engine-jobs.js";
import * as Game from "../../../web/model/game.js";
import { readLanguageFrom, textOf } from "../../../web/model/i18n.js";
import { gameToLearnFrom } from "../../../web/model/mistakes.js";
import { parseFragment, toFragment } from "../../../web/model/records.js";
import { reviewMessage } from "../../../web/model/review.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import * as State from "../../../web/model/state.js";
import * as Status from "../../../web/model/status.js";
import { KEYS, decodeGame, encodeGame, encodeHistory, historyEntry, loadAll } from "../../../web/model/storage.js";
import { createStore } from "../../../web/model/store.js";

readLanguageFrom(() => "en");

const READY = { state: "ready", restarts: 0, ready: null };
const FIVE_THREE = { baseMs: 300_000, incMs: 3000 };
const at = (text) => parseCell(text, 15);
const make = (game, extra = {}) => ({ ...State.initialState({ game, settings: { ...DEFAULT_SETTINGS } }), engine: READY, ...extra });

// the game after opening actions given as words ("h8 h9 j10 two i9 k8 white")
function acted(game, words) {
  let g = game;
  for (const w of words.split(" ").filter(Boolean)) {
    const { phase } = Game.openingOf(g).state;
    let action;
    if (["black", "white", "two"].includes(w)) action = { kind: w };
    else if (/^\d$/.test(w)) action = { kind: "declare", n: Number(w) };
    else action = { kind: phase === "select" ? "select" : "place", at: at(w) };
    g = Game.openingAct(g, action);
  }
  return g;
}

class FakeStorage {
  constructor(items = {}) { this.items = new Map(Object.entries(items)); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

class FakeEngine {
  constructor() { this.state = "ready"; this.restarts = 0; this.calls = []; }
  request(message, opts) { return new Promise((resolve, reject) => this.calls.push({ message, opts, resolve, reject })); }
  restart() { this.restarts += 1; }
}

// the engine's jobs on a store holding game, the clock kept in step as the clock's view does
function jobsOn(game) {
  const t = { now: 0 };
  const engine = new FakeEngine();
  const said = [];
  const store = createStore(make(game));
  store.subscribe(() => store.update((s) => State.syncClock(s, t.now)));
  const jobs = createEngineJobs({
    store, engine, params: { test: false, time: null, deadline: null, slice: null, threads: null },
    analysisView: { offer: () => true, begin() {}, sliceEnded() {}, reset() {} },
    say: { announce: (m) => said.push(m), notice() {} },
    onReady() {}, now: () => t.now, sleep: () => new Promise(() => {}), clockNow: () => t.now,
  });
  return { t, engine, store, jobs, said };
}

// ---- two players ---------------------------------------------------------------------------

const twoSwap2 = () => Game.newGame({ twoPlayers: true, opening: { rule: "swap2", player: 1 } });

test("two players: every opening action is made on the device, by either player", () => {
  let g = twoSwap2();
  for (const words of ["", "h8 h9", "h8 h9 j10", "h8 h9 j10 two", "h8 h9 j10 two i9 k8"]) {
    const now = acted(g, words);
    assert.equal(Game.openingTurn(now), "human", words); // the second player's turns too
  }
  // stones: either player may put one down (the engine's state does not matter)
  assert.equal(State.playerMayPlay(make(acted(g, "h8"))), true);
  assert.equal(State.playerMayPlay(make(acted(g, "h8 h9 j10 two")), { engineError: "boom" }), true);
  // a choice is not a stone: the buttons make it
  assert.equal(State.playerMayPlay(make(acted(g, "h8 h9 j10"))), false);
  g = acted(g, "h8 h9 j10 two i9 k8 white"); // the first player takes white
  assert.equal(Game.inOpening(g), false);
  assert.equal(Game.sideToMove(g), WHITE);
  assert.equal(State.playerMayPlay(make(g)), true);
  // against the engine the same phases are the engine's when its player acts
  const vs = Game.newGame({ opening: { rule: "swap2", player: 1 } });
  assert.equal(Game.openingTurn(acted(vs, "h8 h9 j10")), "engine");
});

test("two players: the status names the first or second player, in English and Chinese", () => {
  const g = twoSwap2();
  const say = (words) => Status.statusOf(make(acted(g, words)));
  assert.deepEqual(say(""), { code: "your-turn", text: "first player's turn: place the three opening stones (black now, 1 of 3)" });
  assert.equal(say("h8 h9 j10").text, "second player's turn: place two more stones, or choose a colour");
  assert.equal(say("h8 h9 j10 two i9").text, "second player's turn: place two more stones (black now)");
  assert.equal(say("h8 h9 j10 two i9 k8").text, "first player's turn: choose a colour");
  assert.equal(Status.playerLine(make(acted(g, "h8")), "your-turn", 15),
    "Opening rule: swap2. Two players on this device; the first player is black for now.");
  // the engine's state is no one's business here: no "engine's turn", no error status
  assert.equal(Status.statusOf(make(acted(g, "h8 h9 j10"), { engineError: "boom" })).code, "your-turn");
  // the newcomer's lines: the opening decides the colours, not "black moves first"
  assert.deepEqual(Status.howToPlay(g)[1], "The opening rule decides the colours: the line below says whose turn it is and what to do.");
  readLanguageFrom(() => "zh");
  try {
    assert.equal(say("h8 h9 j10").text, "轮到后手方：再摆两子，或选择颜色");
    assert.equal(Status.playerLine(make(acted(g, "h8")), "your-turn", 15), "开局规则：交换二。双人对弈：先手方暂时执黑棋。");
  } finally {
    readLanguageFrom(() => "en");
  }
  // over: the colours said as the players', and then the usual two-player status
  const over = acted(g, "h8 h9 j10 two i9 k8 white");
  const said = Status.openingOverMessage(over);
  assert.equal(textOf(said, "en"), "The opening is over: the first player plays white, the second black.");
  assert.equal(textOf(said, "zh"), "开局结束：先手方执白棋，后手方执黑棋。");
  assert.equal(Status.openingOverMessage(acted(g, "h8 h9")), "");
  assert.deepEqual(Status.statusOf(make(over)), { code: "white-to-move", text: "White to move" });
  assert.match(Status.playerLine(make(over), "white-to-move", 15), /^Two players on this device: black and white take turns\. .*swap2/);
  const clocked = acted(Game.newGame({ twoPlayers: true, clock: FIVE_THREE, opening: { rule: "swap2", player: 1 } }), "h8 h9 j10 white");
  assert.equal(Status.playerLine(make(clocked), "white-to-move", 15),
    "Two players on this device: black and white take turns. Game:\u00a0swap2, clock 5+3.");
  readLanguageFrom(() => "zh");
  try {
    assert.equal(Status.playerLine(make(clocked), "white-to-move", 15), "双人对弈：黑白双方在本设备上轮流落子。对局：交换二，计时 5+3。");
  } finally {
    readLanguageFrom(() => "en");
  }
});

test("two players: the engine makes no opening choice; against it, it does", async () => {
  const two = jobsOn(twoSwap2());
  two.jobs.engineMove();
  two.jobs.engineMove(true);
  await settle();
  assert.equal(two.engine.calls.length, 0);
  // against the engine, its player opening: an opening message, its stones applied
  const vs = jobsOn(Game.newGame({ opening: { rule: "swap2", player: 2 } }));
  vs.jobs.engineMove();
  await settle();
  assert.equal(vs.engine.calls.length, 1);
  assert.equal(vs.engine.calls[0].message.type, "opening");
  vs.t.now = 5000; // (past the job's floor)
  vs.engine.calls[0].resolve({ type: "opening", actions: ["h8", "h9", "j10"].map((c) => ({ kind: "place", at: at(c) })) });
  await settle();
  assert.equal(vs.store.get().game.moves.length, 3);
  assert.equal(textOf(vs.said.at(-1), "en"), "The engine places h8 h9 j10.");
  assert.equal(textOf(vs.said.at(-1), "zh"), "引擎摆了 h8 h9 j10。");
});

// ---- the clock -----------------------------------------------------------------------------

test("a clock starts when the opening is over: the opening's stones are untimed, white's time runs first", () => {
  const g = Game.newGame({ clock: FIVE_THREE, opening: { rule: "swap2", player: 1 } });
  let s = make(acted(g, "h8 h9 j10"));
  assert.equal(s.game.clock.running, 0);
  assert.equal(State.clockLive(s), false);
  assert.equal(State.syncClock(s, 1000), s); // nothing runs during the opening
  assert.equal(State.flagDue(s, 10 ** 9), false); // and no flag can fall
  s = { ...s, game: acted(s.game, "black") }; // the engine (second player) takes black
  const { clock } = s.game;
  assert.equal(Game.inOpening(s.game), false);
  assert.equal(s.game.human, WHITE);
  assert.equal(clock.running, WHITE);
  assert.deepEqual(clock.used, [null, null, null]);
  assert.deepEqual(clock.left, [300_000, 300_000]); // no increment for the opening's stones
  s = State.syncClock(s, 1000);
  assert.equal(s.game.clock.since, 1000); // the player's time runs now
  s = State.played(s, ...at("k11"), new Date(0), 5000);
  assert.deepEqual(s.game.clock.left, [300_000, 299_000]); // 4 s charged, 3 s back
  assert.deepEqual(s.game.clock.used, [null, null, null, 4000]);
  assert.equal(s.game.clock.running, BLACK);
  // undo stops at the opening's stones, the clock runs on for the side to move there
  assert.equal(Game.undoTarget(s.game), 3);
  const back = State.tookBack(s, 3, 6000);
  assert.deepEqual(back.game.moves, s.game.moves.slice(0, 3));
  assert.equal(back.game.clock.running, WHITE);
  assert.deepEqual(back.game.clock.used, [null, null, null]);
  // swap2 ended by the first player's choice after two more stones: five untimed stones
  const five = acted(g, "h8 h9 j10 two i9 k8 black");
  assert.deepEqual(five.clock.used, [null, null, null, null, null]);
  assert.equal(five.clock.running, WHITE);
});

test("a clocked game in its opening is stored and read back with its clock, before and after the opening", () => {
  const g = Game.newGame({ clock: FIVE_THREE, opening: { rule: "soosorv8", player: 2 }, rule: "renju" });
  for (const words of ["h8 h9", "h8 h9 j10 white i7 2 black j8", "h8 h9 j10 white i7 1 black j8 j8"]) {
    const game = acted(g, words);
    const notices = [];
    const back = decodeGame(JSON.parse(JSON.stringify(encodeGame(game))), notices);
    assert.deepEqual(notices, [], words);
    assert.deepEqual(back.clock, game.clock, words);
    assert.deepEqual(back.opening, game.opening, words);
  }
  // the page's own load: no notice that the clock could not be read, the game and its clock kept
  const mid = acted(g, "h8 h9 j10");
  const loaded = loadAll(new FakeStorage({ [KEYS.game]: JSON.stringify(encodeGame(mid)) }));
  assert.deepEqual(loaded.notices, []);
  assert.deepEqual(loaded.game.clock, mid.clock);
  // a finished game (unfinished, mid-opening) keeps its clock in the list too
  const entry = historyEntry(mid, "unfinished", new Date(0));
  const { history } = loadAll(new FakeStorage({ [KEYS.history]: JSON.stringify(encodeHistory([entry])) }));
  assert.deepEqual(history[0].clock, Clock.encodeClock(mid.clock));
});

test("a link keeps the opening and the time control together", () => {
  const g = acted(Game.newGame({ clock: FIVE_THREE, opening: { rule: "swap2", player: 1 } }), "h8 h9 j10 two i9 k8 white");
  const fragment = toFragment({ moves: g.moves, size: 15, rule: "freestyle", first: BLACK, opening: Game.recordOpening(g), clock: g.clock });
  assert.equal(fragment, "moves=h8,h9,j10,i9,k8&rule=freestyle&size=15&opening=swap2&choices=two,white&clock=5+3");
  const record = parseFragment("#" + fragment);
  assert.deepEqual(record.opening, { rule: "swap2", choices: ["two", "white"], offers: [] });
  assert.deepEqual(record.control, FIVE_THREE);
});

test("the engine's opening choices are not on its clock; its first move after the opening is", async () => {
  // the human is the second player: the engine opens (three stones), the human takes
  // black, and the engine is white, to move on its clock
  const env = jobsOn(Game.newGame({ clock: FIVE_THREE, opening: { rule: "swap2", player: 2 } }));
  env.t.now = 1000;
  env.jobs.engineMove();
  await settle();
  assert.equal(env.engine.calls[0].message.type, "opening");
  assert.equal("limits" in env.engine.calls[0].message, false);
  env.t.now = 60_000; // a minute of the engine's thinking
  env.engine.calls[0].resolve({ type: "opening", actions: ["h8", "h9", "j10"].map((c) => ({ kind: "place", at: at(c) })) });
  await settle();
  assert.deepEqual(env.store.get().game.clock.left, [300_000, 300_000]);
  // the human takes black: the opening is over, white (the engine) to move on the clock
  env.store.update((s) => State.openingActed(s, { kind: "black" }));
  assert.equal(env.store.get().game.clock.since, 60_000);
  env.t.now = 62_000;
  env.jobs.engineMove();
  await settle();
  const think = env.engine.calls[1].message;
  assert.equal(think.type, "think");
  assert.deepEqual({ matchMs: think.limits.matchMs, timeLeftMs: think.limits.timeLeftMs }, { matchMs: 300_000, timeLeftMs: 298_000 });
});

// ---- learn from your mistakes ---------------------------------------------------------------

test("the last game to learn from keeps its opening: the review leaves its stones unjudged", () => {
  let g = acted(Game.newGame({ opening: { rule: "swap2", player: 1 } }), "h8 h9 j10 two i9 k8 black");
  g = Game.play(g, ...at("a1"));
  const entry = historyEntry(g, "white", new Date(0));
  const { game } = gameToLearnFrom({ history: [entry] });
  assert.deepEqual(game.opening, g.opening);
  assert.equal(reviewMessage(game, 0, 12000).fixed, 5);
});
