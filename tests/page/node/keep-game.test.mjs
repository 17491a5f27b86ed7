// node --test: a player's game is never lost to a record (state.js opened keeps a game in
// progress in the finished games, "unfinished"); an empty link or move list is refused;
// the records' errors read in Chinese with no English sentence, a .psq error names its
// line; browsing a finished game never says "your turn"; the finished-games list says
// what a player thinks ("You won", "18 moves").
import assert from "node:assert/strict";
import test from "node:test";

import { parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { errorText } from "../../../web/model/i18n.js";
import { levelName, levelOf } from "../../../web/model/levels.js";
import { parseFragment, parseMoveList, parseMoves, parsePsq } from "../../../web/model/records.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { DEFAULT_SETTINGS } from "../../../web/model/settings.js";
import * as State from "../../../web/model/state.js";
import * as Status from "../../../web/model/status.js";
import { decodeHistory, encodeHistory } from "../../../web/model/storage.js";

const READY = { state: "ready", restarts: 0, ready: null };
const fresh = (game = Game.newGame()) => ({ ...State.initialState({ game, history: [], settings: { ...DEFAULT_SETTINGS } }), engine: READY });
const playAll = (s, texts) => texts.split(" ").filter(Boolean)
  .reduce((st, c) => State.played(st, ...parseCell(c, st.game.size), new Date(0)), s);
const LINK = { moves: [[0, 14], [1, 13]], size: 15, rule: "freestyle", first: BLACK }; // a1 b2
const WON = "h8 a1 h9 a2 h10 a3 h11 a4 h12";

test("opening a record over a game in progress keeps that game in the finished games, unfinished", () => {
  const s = playAll(fresh(Game.newGame({ level: 4, human: WHITE })), "h8 i9 j10");
  const when = new Date("2026-11-27T02:00:00Z");
  const next = State.opened(s, Game.fromRecord(LINK), false, when);
  assert.deepEqual(next.game.moves, LINK.moves);
  assert.equal(next.finished.length, 1);
  const kept = next.finished[0];
  assert.equal(kept.result, "unfinished");
  assert.deepEqual(kept.moves, s.game.moves);
  assert.equal(kept.level, 4);
  assert.equal(kept.human, WHITE);
  assert.equal(kept.date, when.toISOString());
  assert.ok(State.keptUnfinished(s, next));
  assert.deepEqual(next.results, s.results, "an unfinished game counts for no level");
  // it survives storage and reopens where it stood
  const back = decodeHistory(JSON.parse(JSON.stringify(encodeHistory(next.finished))));
  assert.equal(back.dropped, 0);
  assert.equal(back.history[0].result, "unfinished");
  const reopened = State.opened(next, Game.fromRecord(back.history[0]));
  assert.deepEqual(reopened.game.moves, s.game.moves);
  assert.equal(reopened.finished.length, 1, "the link's game, not played on, is the link's: not kept again");
});

test("nothing is kept when nothing would be lost", () => {
  const empty = fresh();
  assert.equal(State.opened(empty, Game.fromRecord(LINK)).finished, empty.finished, "no moves");
  const won = playAll(fresh(), WON);
  assert.equal(won.finished.length, 1);
  assert.equal(State.opened(won, Game.fromRecord(LINK)).finished.length, 1, "a finished game is in the list already");
  const browsedBack = State.browsed(won, 3);
  assert.equal(State.opened(browsedBack, Game.fromRecord(LINK)).finished.length, 1, "browsing it back changes nothing");
  const linked = State.opened(empty, Game.fromRecord(LINK));
  assert.equal(State.opened(linked, Game.fromRecord({ ...LINK, moves: [[7, 7]] })).finished.length, 0,
    "a record opened and not played on is the record's");
  const same = playAll(fresh(), "a1 b2");
  assert.equal(State.opened(same, Game.fromRecord(LINK)).finished.length, 0, "the same moves again");
  const playedOn = playAll(linked, "c3");
  assert.equal(State.opened(playedOn, Game.fromRecord(LINK)).finished.length, 1, "a record played on is a game");
});

test("a link or move list without a move is refused, naming the problem", () => {
  for (const hash of ["#moves=", "#moves=&size=15", "#moves=,,&rule=renju"]) {
    assert.throws(() => parseFragment(hash), (err) => err.key === "rec_emptyLink" && /no moves/.test(err.message), hash);
  }
  assert.throws(() => parseMoveList("  \n ", 15), (err) => err.key === "rec_emptyList");
  assert.deepEqual(parseMoveList("h8", 15), [[7, 7]]);
  assert.deepEqual(parseMoves("", 15), [], "a stored empty list still reads (storage.js)");
});

// every kind of record error, each in Chinese: no run of two English words (a point like
// h8, "x,y", a board size, "Piskvorky 15x15, 11:11, 0" and "black / white" are not)
test("the records' errors read in Chinese with no English sentence; a .psq error names its line", () => {
  const errors = [];
  const catchIt = (f) => { try { f(); } catch (err) { errors.push(err); return err; } assert.fail("no error from " + f); };
  catchIt(() => parseMoves("h8 h8", 15));
  catchIt(() => parseMoves("h8 zz9", 15));
  catchIt(() => parseMoves("h8 p3", 15));
  catchIt(() => parseMoves(WON + " o1", 15));
  catchIt(() => parseMoves("a1 ".repeat(226), 15));
  catchIt(() => parseMoves("a".repeat(20001), 15));
  catchIt(() => parseMoves("h10 a1 i10 c1 g9 e1 g8 o1 g10", 15, "renju"));
  catchIt(() => parseFragment("#moves=h8&size=14"));
  catchIt(() => parseFragment("#moves=h8&rule=caro"));
  catchIt(() => parseFragment("#moves=h8&first=red"));
  catchIt(() => parseFragment("#moves=h8&rule=renju&first=white"));
  catchIt(() => parseFragment("#moves="));
  catchIt(() => parsePsq(""));
  catchIt(() => parsePsq("hello\n"));
  catchIt(() => parsePsq("Piskvorky 21x21, 11:11, 0\n1,1,0\n"));
  const off = catchIt(() => parsePsq("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n"));
  const taken = catchIt(() => parsePsq("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,8,0\n"));
  for (const err of errors) {
    assert.ok(err.key, err.message);
    const zh = errorText(err, "zh");
    assert.ok(/[\u4e00-\u9fff]/.test(zh), zh);
    assert.doesNotMatch(zh.replace(/Piskvorky|Piskvork|black|white/g, ""), /[A-Za-z]{3,}\s+[A-Za-z]{2,}/, zh);
    assert.notEqual(zh, errorText(err, "en"));
  }
  assert.equal(errorText(off, "zh"), "第 3 行：第 2 手（16,1）在棋盘外（1..15）");
  assert.equal(errorText(taken, "zh"), "第 4 行：第 3 手下在已有棋子的点上");
  assert.equal(errorText(taken, "en"), "line 4: move 3 is on a taken point");
  assert.match(errorText(errors[6], "zh"), /黑棋禁手：/);
});

test("browsing a finished game never says your turn; an unfinished one at its end does", () => {
  const won = playAll(fresh(), WON); // black (the player) won with h12
  for (let n = 0; n < won.game.moves.length; n++) {
    const s = State.browsed(won, n);
    const st = Status.statusOf(s);
    assert.notEqual(st.code, "your-turn", `move ${n}`);
    assert.equal(st.text, `looking back: move ${n} of 9`);
    assert.match(Status.playerLine(s, st.code, 15), /earlier position/);
  }
  const going = playAll(fresh(), "h8 i9 j10 k11");
  assert.equal(Status.statusOf(going).code, "your-turn");
});

test("the finished-games list says the moves with their unit, the result from the player's side, the level", () => {
  const entry = (result, human, n = 18) => ({
    date: "2026-11-27T14:05:00.000Z", size: 15, rule: "freestyle", first: BLACK, human, level: 4, seed: 0, result,
    moves: Array.from({ length: n }, (_, i) => [i % 15, Math.floor(i / 15)]),
  });
  assert.equal(Status.playerResult(entry("black", BLACK)), "won");
  assert.equal(Status.playerResult(entry("black", WHITE)), "lost");
  assert.equal(Status.playerResult(entry("white", WHITE)), "won");
  assert.equal(Status.playerResult(entry("draw", WHITE)), "draw");
  const label = Status.historyLabel(entry("white", BLACK), "en");
  const name = levelName(levelOf(4), "en");
  assert.ok(label.endsWith(` · You lost · 18 moves · level 4 (${name}) · 15×15 · freestyle`), label);
  assert.match(label, /2026/);
  assert.match(Status.historyLabel(entry("black", BLACK, 1), "en"), / · You won · 1 move · /);
  assert.match(Status.historyLabel(entry("unfinished", BLACK, 3), "en"), / · Unfinished · 3 moves · /);
  assert.match(Status.historyLabel({ ...entry("draw", BLACK), level: null }, "en"), / · Draw · 18 moves · 15×15/);
});
