// node --test: two players on one device and the game clock in the page's model: the state
// (state.js: who may play, when the clock runs, a move charged, a flag, a take-back, what
// is kept), the game (game.js: the timeout), what is stored (storage.js), what the page
// says (status.js) and the records (records.js: a link's clock=).
import assert from "node:assert/strict";
import test from "node:test";

import * as Clock from "../../../web/model/clock.js";
import { parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { readLanguageFrom } from "../../../web/model/i18n.js";
import { parseFragment, toFragment } from "../../../web/model/records.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import * as State from "../../../web/model/state.js";
import * as Status from "../../../web/model/status.js";
import { KEYS, decodeHistory, encodeGame, encodeHistory, loadAll } from "../../../web/model/storage.js";

readLanguageFrom(() => "en");

const READY = { state: "ready", restarts: 0, ready: null };
const FIVE_THREE = { baseMs: 300_000, incMs: 3000 };
const make = (setup = {}, extra = {}) => ({
  ...State.initialState({ game: Game.newGame(setup), settings: { ...DEFAULT_SETTINGS } }), engine: READY, ...extra,
});
// moves ("h8 i9") played at the times given (ms of the clock's time source), one each
const playAt = (s, texts, times) => texts.split(" ").reduce(
  (st, c, i) => State.syncClock(State.played(st, ...parseCell(c, st.game.size), new Date(0), times[i]), times[i]), s);
const WON = "h8 a1 h9 a2 h10 a3 h11 a4 h12";

class FakeStorage {
  constructor(items = {}) { this.items = new Map(Object.entries(items)); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

// ---- two players -------------------------------------------------------------------------

test("two players: either colour may play, the engine never; a finished game is kept but counts for no level", () => {
  let s = make({ twoPlayers: true, level: 5 });
  assert.equal(State.playerMayPlay(s), true); // black
  s = playAt(s, "h8", [0]);
  assert.equal(State.playerMayPlay(s), true); // white too: both are people here
  assert.equal(State.playerMayPlay({ ...s, engineError: "boom", job: { kind: "move" } }), true); // the engine does not matter
  s = playAt(s, WON.split(" ").slice(1).join(" "), new Array(8).fill(0));
  assert.equal(State.shownOf(s.game).pos.winner, BLACK);
  assert.equal(s.finished.length, 1);
  assert.equal(s.finished[0].twoPlayers, true);
  assert.deepEqual(s.results, {}); // no level's record
  assert.equal(s.streak, null);
  assert.equal(s.offer, null); // and no next level offered
  // against the engine the same game counts at its level
  const vs = playAt(make({ level: 5 }), WON, new Array(9).fill(0));
  assert.deepEqual(vs.results, { 5: { won: 1, lost: 0, drawn: 0 } });
  assert.equal(vs.finished[0].twoPlayers, undefined);
});

test("two players: whose turn the status says, in both languages; the line under it; the finished games' words", () => {
  let s = make({ twoPlayers: true });
  assert.deepEqual(Status.statusOf(s), { code: "black-to-move", text: "Black to move" });
  s = playAt(s, "h8", [0]);
  assert.deepEqual(Status.statusOf(s), { code: "white-to-move", text: "White to move" });
  assert.deepEqual(Status.statusOf({ ...s, engine: { ...READY, state: "loading" } }).code, "white-to-move"); // no waiting for the engine
  assert.equal(Status.playerLine(s, "white-to-move", 15), "Two players on this device: black and white take turns.");
  assert.deepEqual(Status.howToPlay(s.game)[1], "Two players take turns on this device; black moves first.");
  readLanguageFrom(() => "zh");
  try {
    assert.deepEqual(Status.statusOf(s), { code: "white-to-move", text: "轮到白棋" });
    assert.equal(Status.statusOf(make({ twoPlayers: true })).text, "轮到黑棋");
  } finally {
    readLanguageFrom(() => "en");
  }
  const won = playAt(make({ twoPlayers: true }), WON, new Array(9).fill(0));
  assert.equal(Status.playerLine(won, Status.statusOf(won).code, 15), "Black wins — well played! Press New game to play again.");
  const label = Status.historyLabel(won.finished[0], "en");
  assert.match(label, / · Black won · 9 moves · two players · 15×15 · freestyle$/);
  assert.doesNotMatch(label, /level/);
});

// ---- the clock in the state --------------------------------------------------------------

test("the clock waits for the first stone, then runs for the side to move; each move is charged and switched", () => {
  let s = make({ clock: FIVE_THREE, human: BLACK });
  assert.equal(State.clockLive(s), false); // not started
  s = State.syncClock(s, 0);
  assert.equal(s.game.clock.since, null);
  s = playAt(s, "h8", [1000]); // black's first move: not charged
  assert.deepEqual(s.game.clock.left, [303_000, 300_000]);
  assert.equal(s.game.clock.running, WHITE);
  assert.equal(s.game.clock.since, 1000); // the engine is ready: its time runs
  s = playAt(s, "i9", [4000]); // the engine's 3 s
  assert.deepEqual(s.game.clock.left, [303_000, 300_000]);
  assert.deepEqual(s.game.clock.used, [0, 3000]);
  assert.equal(s.game.clock.running, BLACK);
});

test("when the clock runs: not in analysis, not on a hidden page, not for the engine while it loads or while looked back", () => {
  const s = playAt(make({ clock: FIVE_THREE, human: BLACK }), "h8", [0]); // the engine's (white's) turn
  assert.equal(State.clockLive(s), true);
  assert.equal(State.clockLive(s, false), false); // hidden, or the page left
  assert.equal(State.clockLive({ ...s, analysing: true }), false);
  for (const state of ["loading", "idle", "failed"]) assert.equal(State.clockLive({ ...s, engine: { ...READY, state } }), false, state);
  assert.equal(State.clockLive({ ...s, engineError: "x" }), false);
  assert.equal(State.clockLive(State.browsed(s, 0)), false); // the engine moves only at the end
  // the player's turn runs whatever the engine does, looked back included (they think)
  const mine = playAt(s, "i9", [100]);
  assert.equal(State.clockLive({ ...mine, engine: { ...READY, state: "loading" } }), true);
  assert.equal(State.clockLive(State.browsed(mine, 0)), true);
  // two players: always, the engine aside
  const two = playAt(make({ clock: FIVE_THREE, twoPlayers: true }), "h8", [0]);
  assert.equal(State.clockLive({ ...two, engine: { ...READY, state: "loading" } }), true);
  // syncClock: the engine's load stops its time; when it is ready again the time runs on
  const loading = { ...s, engine: { ...READY, state: "loading" } };
  const stopped = State.syncClock(loading, 5000);
  assert.equal(stopped.game.clock.since, null);
  assert.equal(stopped.game.clock.left[1], 295_000);
  assert.equal(State.syncClock(stopped, 9000), stopped); // nothing changes while it loads
  const again = State.syncClock({ ...stopped, engine: READY }, 60_000);
  assert.equal(Clock.remaining(again.game.clock, WHITE, 61_000), 294_000); // the load not charged
  // a game over stops it
  assert.equal(State.syncClock({ ...s, game: { ...s.game, clock: Clock.flagFall(s.game.clock, 1) } }, 2).game.clock.since, null);
});

test("a clock in play is played at its end: looked back, no stone; the status says looking back", () => {
  const s = playAt(make({ clock: FIVE_THREE, twoPlayers: true }), "h8 i9 j10", [0, 1, 2]);
  const back = State.browsed(s, 1);
  assert.equal(State.clockAtEnd(back.game), true);
  assert.equal(State.playerMayPlay(back), false);
  assert.deepEqual(Status.statusOf(back), { code: "review", text: "looking back: move 1 of 3" });
  assert.equal(State.playerMayPlay(s), true);
  // without a clock, two players may play on from there (a new line), as in analysis
  const free = playAt(make({ twoPlayers: true }), "h8 i9 j10", [0, 0, 0]);
  assert.equal(State.playerMayPlay(State.browsed(free, 1)), true);
});

test("a flag: due when the time is gone, the game lost on time, kept with its result and counted at its level", () => {
  let s = playAt(make({ clock: { baseMs: 60_000, incMs: 0 }, human: BLACK, level: 4 }), "h8 i9", [0, 1000]);
  assert.equal(State.flagDue(s, 60_999), false);
  assert.equal(State.flagDue(s, 61_000), true); // black's minute, from 1000
  s = State.flagFell(s, new Date(0), 61_050);
  const { pos } = State.shownOf(s.game);
  assert.deepEqual([pos.timeout, pos.winner, pos.over], [BLACK, WHITE, true]);
  assert.equal(State.flagDue(s, 1e9), false);
  assert.equal(State.playerMayPlay(s), false);
  assert.equal(s.finished.length, 1);
  assert.equal(s.finished[0].result, "white");
  assert.equal(s.finished[0].clock.flag, BLACK);
  assert.deepEqual(s.results, { 4: { won: 0, lost: 1, drawn: 0 } });
  assert.equal(s.game.recorded, true);
  assert.deepEqual(Status.statusOf(s), { code: "white-wins", text: "Black lost on time" });
  assert.equal(Status.resultSentence(pos), "Black lost on time.");
  assert.equal(Status.playerLine(s, "white-wins", 15), "The engine wins this one. Press New game to play again.");
  assert.match(Status.historyLabel(s.finished[0], "en"), / · Black lost on time · 2 moves · level 4 \(Newcomer\) · 15×15 · freestyle · clock 1\+0$/);
  readLanguageFrom(() => "zh");
  try {
    assert.equal(Status.statusOf(s).text, "黑棋超时负");
  } finally {
    readLanguageFrom(() => "en");
  }
  // browsed back, the earlier position is not over; the flag belongs to the end, and the
  // game is looked back at, not played there (the same moves as before the flag: no stale
  // answer of overAtEnd's cache)
  const back = State.browsed(s, 1);
  assert.equal(State.shownOf(back.game).pos.over, false);
  assert.equal(State.overAtEnd(back.game), true);
  assert.deepEqual(Status.statusOf(back), { code: "review", text: "looking back: move 1 of 2" });
});

test("a move that comes after the mover's time ran out is not played: the flag falls instead", () => {
  const s = playAt(make({ clock: { baseMs: 60_000, incMs: 0 }, twoPlayers: true }), "h8", [0]);
  const late = State.played(s, ...parseCell("i9", 15), new Date(0), 60_001);
  assert.equal(late.game.moves, s.game.moves);
  assert.equal(State.shownOf(late.game).pos.timeout, WHITE);
  assert.equal(late.finished[0].twoPlayers, true);
  assert.equal(State.flagFellBetween(s, late), true);
  assert.equal(State.flagFellBetween(late, late), false); // fallen before: not news
  // a stone along the line's own next move (the moves array kept) is no flag
  const plain = playAt(make(), "h8 i9", [0, 0]);
  const along = State.played(State.browsed(plain, 1), ...parseCell("i9", 15), new Date(0), 5);
  assert.equal(along.game.moves, plain.game.moves);
  assert.equal(State.flagFellBetween(State.browsed(plain, 1), along), false);
  assert.deepEqual(late.results, {}); // two players: no level's record
  assert.equal(Status.historyLabel(late.finished[0], "en").includes("White lost on time"), true);
});

test("a five ends the game and stops the clock at the move; a finished clocked game played on from earlier drops the clock", () => {
  let s = make({ clock: FIVE_THREE, twoPlayers: true });
  s = playAt(s, WON, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(State.shownOf(s.game).pos.winner, BLACK);
  assert.equal(s.game.clock.since, null);
  assert.equal(State.clockInPlay(s.game), false);
  const before = s.game.clock.left.slice();
  assert.deepEqual(State.syncClock(s, 1e6).game.clock.left, before); // stopped: nothing more charged
  const free = State.played(State.browsed(s, 4), ...parseCell("o15", 15), new Date(0), 99);
  assert.equal(free.game.clock, null);
  // played forward along the line it keeps the clock (only browsing)
  const along = State.played(State.browsed(s, 4), ...parseCell("h10", 15), new Date(0), 99);
  assert.equal(along.game.clock, s.game.clock);
});

test("analysis moves are untimed; undo under the clock takes the moves back for good, no time returned", () => {
  let s = playAt(make({ clock: FIVE_THREE, human: BLACK }), "h8 i9", [0, 2000]);
  const analysing = State.syncClock({ ...s, analysing: true }, 3000);
  const a = State.played(analysing, ...parseCell("j10", 15), new Date(0), 9000);
  assert.deepEqual(a.game.clock.used, [0, 2000, null]);
  assert.deepEqual(a.game.clock.left, [302_000, 301_000]); // black's 1 s before analysis only
  // take-back: black to move again, at move 2
  s = playAt(s, "j10 k11", [5000, 6000]); // black 3 s, the engine 1 s
  const back = State.tookBack(s, 2, 8000);
  assert.deepEqual(back.game.moves.length, 2);
  assert.equal(back.game.cursor, 2);
  assert.equal(Game.redoTarget(back.game), null); // for good
  assert.deepEqual(back.game.clock.used, [0, 2000]);
  assert.equal(back.game.clock.running, BLACK);
  assert.deepEqual(back.game.clock.left, s.game.clock.left.map((ms, i) => (i === 0 ? ms - 2000 : ms)));
});

// ---- what is stored ----------------------------------------------------------------------

test("the game survives a reload: mode, clock and times; a bad stored clock is dropped with a notice, the game kept", () => {
  let s = playAt(make({ clock: FIVE_THREE, twoPlayers: true }), "h8 i9", [0, 4000]);
  s = State.syncClock(s, 6500, false); // the page left: black's 2.5 s charged
  const storage = new FakeStorage({ [KEYS.game]: JSON.stringify(encodeGame(s.game)) });
  const back = loadAll(storage);
  assert.deepEqual(back.notices, []);
  assert.equal(back.game.twoPlayers, true);
  assert.deepEqual(back.game.clock, { ...s.game.clock, since: null });
  assert.deepEqual(back.game.clock.left, [300_500, 299_000]);
  // read back, the clock runs again from the new page's time
  const again = State.syncClock({ ...make(), game: back.game }, 10);
  assert.equal(again.game.clock.since, 10);
  const broken = new FakeStorage({ [KEYS.game]: JSON.stringify({ ...encodeGame(s.game), clock: { ...encodeGame(s.game).clock, left: [-5, 0] } }) });
  const mended = loadAll(broken);
  assert.deepEqual(mended.notices, ["badClock"]);
  assert.equal(mended.game.clock, null);
  assert.deepEqual(mended.game.moves, s.game.moves);
  // a game of older pages has neither
  const plain = loadAll(new FakeStorage({ [KEYS.game]: JSON.stringify({ moves: [[7, 7]] }) })).game;
  assert.deepEqual([plain.twoPlayers, plain.clock], [false, null]);
});

test("the finished games keep the mode and the clock (times, flag); a broken clock is dropped quietly", () => {
  let s = playAt(make({ clock: { baseMs: 60_000, incMs: 0 }, twoPlayers: true }), "h8 i9", [0, 1000]);
  s = State.flagFell(s, new Date(0), 61_000);
  const stored = JSON.parse(JSON.stringify(encodeHistory(s.finished)));
  const { history } = decodeHistory(stored);
  assert.equal(history[0].twoPlayers, true);
  assert.deepEqual(Clock.decodeClock(history[0].clock, 2), { ...s.game.clock, since: null });
  assert.equal(Status.historyLabel(history[0], "en").includes("Black lost on time"), true);
  const bad = decodeHistory([{ ...stored[0], clock: { nonsense: 1 } }]).history[0];
  assert.equal(bad.clock, undefined);
  assert.equal(bad.moves.length, 2);
});

// ---- records -------------------------------------------------------------------------------

test("a link carries the time control and reads it back; a bad one is refused with a clear sentence", () => {
  const game = playAt(make({ clock: FIVE_THREE }), "h8 i9", [0, 1]).game;
  const text = toFragment({ ...game, moves: Game.shownMoves(game) });
  assert.equal(text, "moves=h8,i9&rule=freestyle&size=15&clock=5+3");
  assert.deepEqual(parseFragment("#" + text), { moves: [[7, 7], [8, 6]], size: 15, rule: "freestyle", first: BLACK, control: FIVE_THREE });
  assert.deepEqual(parseFragment("#moves=h8&clock=5%2B3").control, FIVE_THREE); // escaped as well
  assert.equal(toFragment({ moves: [[7, 7]], size: 15, rule: "freestyle", first: BLACK }), "moves=h8&rule=freestyle&size=15");
  for (const bad of ["5", "5+", "0+3", "x+y", "1000+0"]) {
    assert.throws(() => parseFragment(`#moves=h8&clock=${bad}`), (err) => err.key === "rec_clock", bad);
  }
  // the record's clock: the control, both at the start's time, the side to move's turn
  const clock = Clock.clockOfRecord(FIVE_THREE, 2, BLACK);
  const opened = Game.fromRecord(parseFragment("#" + text), { clock });
  assert.deepEqual(opened.clock.left, [300_000, 300_000]);
  assert.equal(State.clockInPlay(opened), true);
});
