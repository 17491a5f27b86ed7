// node --test: web/model/analysis.js (analysis with several moves: the engine's top moves read,
// chosen, written for data-top-moves, drawn and spoken; the setting's range).
import assert from "node:assert/strict";
import test from "node:test";

import {
  TOP_DEFAULT, TOP_MAX, TOP_MIN, boardMarks, chooseTop, isTopCount, lineOverlay, readTop, replacesTop,
  shouldAnnounce, spokenTop, topIndexAt, topMovesText,
} from "../../../web/model/analysis.js";
import { SIZES, parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { textIn } from "../../../web/model/i18n.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";
import { scoreWords } from "../../../web/model/score.js";

const P = (text, size = 15) => parseCell(text, size);
const entry = (cell, score, line = [], size = 15) => ({
  move: P(cell, size), score, pv: [cell, ...line].map((c) => P(c, size)),
});
const en = (key, vars) => textIn("en", key, vars);
const zh = (key, vars) => textIn("zh", key, vars);
const playAll = (game, texts) => texts.split(" ").reduce((g, t) => Game.play(g, ...P(t, g.size)), game);

test("the setting: 3, 4 or 5 moves, default 3", () => {
  assert.deepEqual([TOP_MIN, TOP_DEFAULT, TOP_MAX], [3, 3, 5]);
  for (const n of [3, 4, 5]) assert.equal(isTopCount(n), true);
  for (const n of [2, 6, 0, 3.5, "3", null, undefined, NaN]) assert.equal(isTopCount(n), false, String(n));
});

test("readTop: the engine's moves, lines starting with the move itself", () => {
  const reply = { top: [entry("i9", { cp: 80 }, ["h9", "j9"]), entry("h9", { cp: 50 }), entry("g7", { win: 5 }, ["g6"])] };
  const top = readTop(reply, 15);
  assert.deepEqual(top.map((t) => [t.x, t.y, t.score]), [[8, 6, { cp: 80 }], [7, 6, { cp: 50 }], [6, 8, { win: 5 }]]);
  assert.deepEqual(top[0].pv, [P("i9"), P("h9"), P("j9")]);
  // a line that leaves out its first move gets it back; no line at all: the move alone
  const odd = readTop({ top: [{ move: P("i9"), score: { cp: 10 }, pv: [P("h9")] }, { move: P("k2"), score: { cp: -30 } }] }, 15);
  assert.deepEqual(odd[0].pv, [P("i9"), P("h9")]);
  assert.deepEqual(odd[1].pv, [P("k2")]);
  // no top (an older worker): the reply's own line and score
  assert.deepEqual(readTop({ pv: [P("h8"), P("i9")], score: { cp: 20 } }, 15).map((t) => [t.x, t.y, t.score, t.pv.length]),
    [[7, 7, { cp: 20 }, 2]]);
  assert.deepEqual(readTop({ top: [], pv: [], score: { cp: 20 } }, 15), []);
  assert.deepEqual(readTop({}, 15), []);
});

test("readTop: a malformed top is an error naming what is wrong", () => {
  const good = entry("i9", { cp: 80 });
  const cases = [
    [null, /the reply is not an object/],
    [{ top: "i9" }, /top must be a list, got "i9"/],
    [{ top: [good, 7] }, /top\[1\] is not an object/],
    [{ top: [{ ...good, move: [15, 0] }] }, /top\[0\]\.move must be a point \[x, y\] of the 15x15 board, got \[15,0\]/],
    [{ top: [{ ...good, move: [1.5, 2] }] }, /top\[0\]\.move must be a point/],
    [{ top: [{ ...good, move: "i9" }] }, /top\[0\]\.move must be a point/],
    [{ top: [good, { ...good, score: "+0.8" }] }, /top\[1\]\.score must be like \{cp: 80\} or \{win: 5\}, got "\+0\.8"/],
    [{ top: [good, { ...good, score: { mate: 3 } }] }, /top\[1\]\.score must be like/],
    [{ top: [{ ...good, score: undefined }] }, /top\[0\]\.score/],
    [{ top: [{ ...good, pv: [[7, 7], [-1, 3]] }] }, /top\[0\]\.pv must be a list of points of the board/],
    [{ top: [{ ...good, pv: "h8 i9" }] }, /top\[0\]\.pv must be a list/],
  ];
  for (const [reply, re] of cases) assert.throws(() => readTop(reply, 15), re, JSON.stringify(reply));
  // the board's size decides what is on the board: t20 is on 20x20 only
  const far = { top: [{ move: [19, 0], score: { cp: 0 } }] };
  assert.throws(() => readTop(far, 19), /of the 19x19 board/);
  assert.equal(readTop(far, 20)[0].x, 19);
});

test("chooseTop: the first `count` playable moves, the engine's best marked", () => {
  const top = readTop({ top: ["i9", "h9", "g7", "j10", "k11", "l12"].map((c, i) => entry(c, { cp: 10 * (9 - i) })) }, 15);
  for (const count of [3, 4, 5]) {
    const { moves, dropped } = chooseTop(top, { size: 15, count });
    assert.equal(moves.length, count);
    assert.deepEqual(moves.map((m) => m.best), [true, ...Array(count - 1).fill(false)]);
    assert.deepEqual(dropped, []);
  }
  // fewer moves than asked (the engine had fewer root moves): all of them
  assert.equal(chooseTop(top.slice(0, 2), { size: 15, count: 5 }).moves.length, 2);
  assert.deepEqual(chooseTop([], { size: 15, count: 3 }), { moves: [], dropped: [] });
  for (const bad of [2, 6, "3", undefined]) {
    assert.throws(() => chooseTop(top, { size: 15, count: bad }), /count must be an integer in 3\.\.5/);
  }
});

test("chooseTop: taken, forbidden and repeated points are left out and reported", () => {
  let game = playAll(Game.newGame(), "h8 i9");
  const top = readTop({ top: [entry("h8", { cp: 50 }), entry("j10", { cp: 40 }), entry("j10", { cp: 30 }), entry("g7", { cp: 20 }), entry("f6", { cp: 10 })] }, 15);
  const blocked = (x, y) => Game.illegalReason(game, x, y);
  const { moves, dropped } = chooseTop(top, { size: 15, count: 3, blocked });
  assert.deepEqual(moves.map((m) => m.x + "," + m.y), ["9,5", "6,8", "5,9"]);
  assert.deepEqual(moves.map((m) => m.best), [false, false, false]); // the engine's first was dropped
  assert.deepEqual(dropped, [{ cell: "h8", why: "taken" }, { cell: "j10", why: "repeated" }]);

  // renju, black to move: g11 and j10 are double threes, i8 a double four
  game = Game.fromRecord({
    moves: "h8 g9 j8 j9 i9 h9 i10 k10 f11 j6 l8 h6 j7 e9 i11 l11".split(" ").map((c) => P(c)),
    size: 15, rule: "renju", first: BLACK,
  });
  assert.equal(Game.sideToMove(game), BLACK);
  const renjuTop = readTop({ top: [entry("k9", { cp: 30 }), entry("i8", { cp: 20 }), entry("g11", { cp: 10 }), entry("f7", { cp: -10 }), entry("m12", { cp: -20 })] }, 15);
  const r = chooseTop(renjuTop, { size: 15, count: 3, blocked: (x, y) => Game.illegalReason(game, x, y) });
  assert.deepEqual(r.dropped, [{ cell: "i8", why: "forbidden" }, { cell: "g11", why: "forbidden" }]);
  assert.deepEqual(r.moves.map((m) => m.score), [{ cp: 30 }, { cp: -10 }, { cp: -20 }]);
  const crosses = new Set([...Game.forbiddenPoints(game).keys()]);
  assert.ok(crosses.size >= 3);
  for (const m of r.moves) assert.equal(crosses.has(m.x + "," + m.y), false); // no mark on a cross
});

test("data-top-moves text: written coordinates of every size, best first", () => {
  const top = readTop({ top: [entry("i9", { cp: 80 }), entry("h9", { cp: 50 }), entry("g7", { win: 5 }), entry("a1", { loss: 12 })] }, 15);
  const { moves } = chooseTop(top, { size: 15, count: 4 });
  assert.equal(topMovesText(moves, 15), "i9:+0.8 h9:+0.5 g7:win-in-5 a1:loss-in-12");
  assert.equal(topMovesText([], 15), "");
  for (const size of SIZES) {
    const e = size - 1;
    const corners = { top: [[0, 0], [e, 0], [0, e], [e, e]].map((move) => ({ move, score: { cp: -40 } })) };
    const got = topMovesText(chooseTop(readTop(corners, size), { size, count: 5 }).moves, size);
    const last = "abcdefghijklmnopqrst"[e];
    assert.equal(got, `a${size}:-0.4 ${last}${size}:-0.4 a1:-0.4 ${last}1:-0.4`);
  }
});

test("lineOverlay: a top move's line, colours alternating from the side to move", () => {
  const top = readTop({ top: [entry("i9", { cp: 80 }, ["h9", "j9"]), entry("h9", { cp: 50 }, ["i9"])] }, 15);
  const { moves } = chooseTop(top, { size: 15, count: 3 });
  assert.deepEqual(lineOverlay(moves, 1, WHITE), [
    { x: 7, y: 6, color: WHITE, label: 1 }, { x: 8, y: 6, color: BLACK, label: 2 },
  ]);
  assert.deepEqual(lineOverlay(moves, 0, BLACK).map((o) => o.color), [BLACK, WHITE, BLACK]);
  assert.equal(lineOverlay(moves, 0, BLACK, 2).length, 2);
  assert.deepEqual(lineOverlay(moves, 5, BLACK), []);
  assert.deepEqual(lineOverlay(moves, -1, BLACK), []);
  assert.equal(topIndexAt(moves, 7, 6), 1);
  assert.equal(topIndexAt(moves, 0, 0), -1);
});

test("boardMarks: the marks stay where a line starts, a later stone of the line hides a mark", () => {
  const top = readTop({ top: [entry("i9", { cp: 80 }, ["h9", "j9"]), entry("h9", { cp: 50 }), entry("g7", { win: 5 })] }, 15);
  const { moves } = chooseTop(top, { size: 15, count: 3 });
  // no line shown: every move marked, the first one best, none active
  let drawn = boardMarks(moves, [], en);
  assert.deepEqual(drawn.marks.map((m) => [m.label, m.best, m.active]), [["+0.8", true, false], ["+0.5", false, false], ["W5", false, false]]);
  assert.deepEqual(drawn.overlay, []);
  // the best move's line (i9 h9 j9): i9's mark stays (active) instead of stone 1; h9's
  // mark gives way to stone 2
  const line = lineOverlay(moves, 0, BLACK);
  drawn = boardMarks(moves, line, en);
  assert.deepEqual(drawn.marks.map((m) => [m.x, m.y, m.active]), [[8, 6, true], [6, 8, false]]);
  assert.deepEqual(drawn.overlay.map((o) => o.label), [2, 3]);
  // a line that starts elsewhere (the thinking panel's best line from an older search)
  drawn = boardMarks(moves, [{ x: 0, y: 0, color: BLACK, label: 1 }], en);
  assert.equal(drawn.marks.length, 3);
  assert.equal(drawn.marks.some((m) => m.active), false);
  assert.equal(drawn.overlay.length, 1);
  assert.equal(boardMarks(moves, [], zh).marks[2].label, "胜5");
});

test("replacesTop: deeper reports replace, a new slice takes over at the same depth", () => {
  const shown = { key: "a", want: 3, depth: 8, decisive: false };
  assert.equal(replacesTop(null, shown), true);
  assert.equal(replacesTop(shown, { key: "b", want: 3, depth: 1 }), true); // another position
  assert.equal(replacesTop(shown, { key: "a", want: 5, depth: 1 }), true); // another count
  assert.equal(replacesTop(shown, { key: "a", want: 3, depth: 3 }), false); // next slice, still shallow
  assert.equal(replacesTop(shown, { key: "a", want: 3, depth: 8 }), true);
  assert.equal(replacesTop(shown, { key: "a", want: 3, depth: 9 }), true);
  assert.equal(replacesTop(shown, { key: "a", want: 3, depth: 0, decisive: true }), true); // solved
});

test("shouldAnnounce: once per position, then only when the best move changes", () => {
  assert.equal(shouldAnnounce(null, { key: "a", best: "i9" }), true);
  assert.equal(shouldAnnounce({ key: "a", best: "i9" }, { key: "a", best: "i9" }), false);
  assert.equal(shouldAnnounce({ key: "a", best: "i9" }, { key: "a", best: "h9" }), true);
  assert.equal(shouldAnnounce({ key: "a", best: "i9" }, { key: "b", best: "i9" }), true);
  assert.equal(shouldAnnounce(null, { key: "a", best: "" }), false);
  assert.equal(shouldAnnounce(null, null), false);
});

test("spokenTop: the moves and their scores in one sentence", () => {
  const top = readTop({ top: [entry("i9", { cp: 80 }), entry("h9", { cp: -50 }), entry("g7", { win: 5 }), entry("f6", { loss: 2 })] }, 15);
  const { moves } = chooseTop(top, { size: 15, count: 5 });
  const words = {
    intro: (list) => `Best moves for black: ${list}.`, sep: ", ", none: "No moves yet.",
    score: (score) => scoreWords(score, en),
  };
  assert.equal(spokenTop(moves, 15, words), "Best moves for black: i9 +0.8, h9 -0.5, g7 win in 5, f6 loss in 2.");
  assert.equal(spokenTop([], 15, words), "No moves yet.");
  const chinese = { ...words, intro: (list) => `黑棋最佳着法：${list}。`, sep: "，", score: (score) => scoreWords(score, zh) };
  assert.equal(spokenTop(moves.slice(2, 4), 15, chinese), "黑棋最佳着法：g7 5 手内获胜，f6 2 手内失败。");
});
