// node --test: web/model/review.js (a game's review as plain data: the engine's answers added,
// progress, summary, what is stored and its checks, the finished games) and
// web/model/review-graph.js (the evaluation graph's geometry, the keys on it). The answers are
// the worker's own for a short game (fixtures/review-answers.json, made with
// gomoku.protocol.webapi in CPython): white's j9 (move 6) leaves black's open three
// unanswered, a blunder, better k8.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { parseCell } from "../../../web/model/coords.js";
import * as Game from "../../../web/model/game.js";
import { parseMoves } from "../../../web/model/records.js";
import {
  DEEP_NODES, DEFAULT_NODES, MARKS, addAnswer, betterLine, decodeReview, encodeReview, isComplete, moveFacts,
  newReview, nextIndex, progress, requestMs, reviewInHistory, reviewKey, reviewMessage, reviewable, withHistoryReview,
} from "../../../web/model/review.js";
import { GRAPH, graphModel, indexAt, keyTarget } from "../../../web/model/review-graph.js";
import { BLACK, WHITE } from "../../../web/model/rules.js";

const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/review-answers.json", import.meta.url), "utf8"));
const ANSWERS = FIXTURE.answers;
const record = (text, extra = {}) => ({ moves: parseMoves(text, 15), size: 15, rule: "freestyle", first: BLACK, ...extra });
const GAME = Game.fromRecord(record(FIXTURE.game)); // black wins with g8: a finished game
const clone = (v) => structuredClone(v);
const LINE_6 = "k8 j9 j7 g9 g8 i7 f10"; // the engine's line after white's j9 (move 6)

// The review with the first n answers added.
function reviewed(n = ANSWERS.length, game = GAME) {
  return ANSWERS.slice(0, n).reduce((r, a) => addAnswer(r, a, game), newReview(game));
}

test("the fixture is the game of the brief: j9 a blunder, better k8", () => {
  assert.equal(FIXTURE.game, "h8 h9 i8 i9 j8 j9 k8 a1 g8");
  assert.equal(ANSWERS.length, 10);
  assert.equal(ANSWERS[6].move.class, "blunder");
  assert.deepEqual(ANSWERS[6].move.better, parseCell("k8", 15));
  assert.deepEqual(ANSWERS[6].move.line, LINE_6.split(" ").map((c) => parseCell(c, 15)));
  // the worker sends points and scores as data, no text beside them
  for (const a of ANSWERS) {
    assert.deepEqual(Object.keys(a.position).filter((k) => k.endsWith("Text")), []);
    if (a.move) assert.deepEqual(Object.keys(a.move).filter((k) => k.endsWith("Text")), []);
  }
  assert.deepEqual(ANSWERS[6].position.score, { win: 1 });
  assert.deepEqual(ANSWERS[4].position.score, { cp: 181 });
});

test("reviewable: a finished game or a recorded one, never an empty one", () => {
  assert.equal(reviewable(GAME), true);
  assert.equal(reviewable(Game.goTo(GAME, 3)), true, "browsing does not matter");
  const open = Game.fromRecord(record("h8 h9 i8"));
  assert.equal(open.recorded, true);
  assert.equal(reviewable(open), true, "opened from a record or link");
  const played = ["h8", "h9", "i8"].reduce((g, c) => Game.play(g, ...parseCell(c, 15)), Game.newGame());
  assert.equal(reviewable(played), false, "a game in progress");
  const won = "h8 a1 h9 a2 h10 a3 h11 a4 h12".split(" ").reduce((g, c) => Game.play(g, ...parseCell(c, 15)), Game.newGame());
  assert.equal(reviewable(won), true, "finished on the board (not yet marked recorded)");
  assert.equal(reviewable(Game.fromRecord(record(""))), false);
});

test("the review's key is the game with every move, whatever the cursor", () => {
  assert.equal(reviewKey(GAME), reviewKey(Game.goTo(GAME, 2)));
  assert.notEqual(reviewKey(GAME), reviewKey(Game.fromRecord(record("h8 h9 i8 i9 j8 j9 k8 a1"))));
  assert.notEqual(reviewKey(GAME), reviewKey({ ...GAME, first: WHITE }));
  assert.notEqual(reviewKey(GAME), reviewKey({ ...GAME, rule: "standard" }));
  assert.equal(reviewKey(GAME), reviewKey({ size: 15, first: BLACK, rule: "freestyle", moves: GAME.moves })); // a finished game's entry
});

test("the messages: every move, the colour of the first, the index and the budget", () => {
  const m = reviewMessage(Game.goTo(GAME, 2), 4, DEEP_NODES);
  assert.deepEqual(m, { type: "review", size: 15, rule: "freestyle", moves: GAME.moves, first: "black", index: 4, nodes: 60000 });
  assert.notEqual(m.moves, GAME.moves, "a copy");
  assert.equal(reviewMessage({ ...GAME, first: WHITE }, 0, 5).first, "white");
  assert.equal(DEFAULT_NODES, 12000);
  assert.equal(requestMs(DEFAULT_NODES), 3000);
  assert.equal(requestMs(DEEP_NODES), 15000);
});

test("answers are added in order; progress; the summary comes with the last", () => {
  let r = newReview(GAME);
  assert.deepEqual(progress(r), { done: 0, total: 9, index: 1 });
  assert.equal(nextIndex(r), 0);
  const before = r;
  r = addAnswer(r, ANSWERS[0], GAME);
  assert.deepEqual(before.black, [], "the review it was given is unchanged");
  assert.deepEqual(r.black, [ANSWERS[0].position.black]);
  assert.deepEqual(r.moves, [null]);
  for (let i = 1; i < 9; i++) r = addAnswer(r, ANSWERS[i], GAME);
  assert.deepEqual(progress(r), { done: 9, total: 9, index: 9 });
  assert.equal(isComplete(r), false);
  assert.equal(r.summary, null);
  r = addAnswer(r, ANSWERS[9], GAME);
  assert.equal(nextIndex(r), null);
  assert.equal(isComplete(r), true);
  assert.deepEqual(r.summary, ANSWERS[9].summary);
  assert.deepEqual(r.summary.white, { inaccuracy: 0, mistake: 0, blunder: 1, missed_win: 0, only_move: 0 });
  assert.deepEqual(r.moves[6], { cls: "blunder", better: [10, 7], line: ANSWERS[6].move.line, proof: "proven", noBetter: false });
  assert.deepEqual(r.moves[5], { cls: "best", better: null, line: [], proof: null, noBetter: false });
  assert.throws(() => addAnswer(r, ANSWERS[9], GAME), /complete/);
});

test("an answer out of turn or malformed is refused with what is wrong", () => {
  const r = reviewed(6);
  const a = ANSWERS[6];
  const bad = [
    [{ ...a, index: 7 }, /reviewed position 7, expected 6/],
    [{ ...a, total: 8 }, /game of 8 moves/],
    [{ ...a, position: { ...a.position, black: 1.5 } }, /chance/],
    [{ ...a, position: null }, /chance/],
    [{ ...a, move: { ...a.move, class: "brilliant" } }, /unknown class "brilliant"/],
    [{ ...a, move: { ...a.move, player: "black" } }, /played by/],
    [{ ...a, move: { ...a.move, better: [15, 0] } }, /better move is not a point/],
    [{ ...a, move: { ...a.move, line: [[1, 2], "k8"] } }, /line is not a list of points/],
    [null, /not an object/],
  ];
  for (const [reply, re] of bad) assert.throws(() => addAnswer(r, reply, GAME), re);
  assert.throws(() => addAnswer(newReview(GAME), { ...ANSWERS[0], move: ANSWERS[1].move }, GAME), /no move/);
  const last = reviewed(9);
  assert.throws(() => addAnswer(last, { ...ANSWERS[9], summary: undefined }, GAME), /summary/);
  const wrong = clone(ANSWERS[9]);
  wrong.summary.black.blunder = 2;
  assert.throws(() => addAnswer(last, wrong, GAME), /does not match/);
});

test("an answer's revisions replace earlier chances and moves; a revision of a later one is refused", () => {
  const r = reviewed(8);
  const a = clone(ANSWERS[8]);
  const blamed = { ...clone(ANSWERS[4].move), class: "blunder", proof: "proven", noBetter: true, better: null, line: [] };
  a.revised = { positions: [{ index: 4, black: 1 }], moves: [blamed] };
  const next = addAnswer(r, a, GAME);
  assert.equal(next.black[4], 1);
  assert.deepEqual(next.moves[4], { cls: "blunder", better: null, line: [], proof: "proven", noBetter: true });
  assert.deepEqual(r.moves[4].cls, ANSWERS[4].move.class, "the review it was given is unchanged");
  assert.equal(moveFacts(next, GAME, 4).noBetter, true);
  const bad = [
    [{ positions: [{ index: 8, black: 0.5 }], moves: [] }, /earlier position/],
    [{ positions: [{ index: 2, black: 2 }], moves: [] }, /earlier position/],
    [{ positions: [], moves: [{ ...blamed, index: 8 }] }, /earlier move/],
    [{ positions: [], moves: [{ ...blamed, proof: "maybe" }] }, /unknown proof/],
    [{ positions: null, moves: [] }, /not lists/],
  ];
  for (const [revised, re] of bad) assert.throws(() => addAnswer(r, { ...a, revised }, GAME), re);
});

test("a node budget out of range is refused", () => {
  for (const n of [0, -1, 1.5, "12000", 10 ** 7]) assert.throws(() => newReview(GAME, n), /budget/);
});

test("stored: a round trip, complete or partial, points as text", () => {
  const full = reviewed();
  const stored = encodeReview(full, 15);
  assert.deepEqual(stored.moves[5], { class: "blunder", better: "k8", line: LINE_6, proof: "proven" });
  assert.deepEqual(stored.moves[0], { class: "best" });
  assert.equal(stored.black.length, 10);
  assert.deepEqual(Object.keys(stored).sort(), ["black", "moves", "nodes", "summary"]);
  const back = decodeReview(JSON.parse(JSON.stringify(stored)), GAME);
  assert.deepEqual(back, full);
  const part = reviewed(4);
  const storedPart = encodeReview(part, 15);
  assert.equal(storedPart.summary, undefined);
  assert.deepEqual(decodeReview(storedPart, GAME), part);
  assert.deepEqual(decodeReview(encodeReview(newReview(GAME), 15), GAME), newReview(GAME));
  assert.ok(JSON.stringify(stored).length < 1200, "small");
});

test("broken stored reviews are refused, each with its reason", () => {
  const good = encodeReview(reviewed(), 15);
  const broken = {
    "not an object": [1, 2],
    "no budget": { ...good, nodes: undefined },
    "budget 0": { ...good, nodes: 0 },
    "chances not a list": { ...good, black: "0.5 0.6" },
    "a chance above 1": { ...good, black: good.black.map((b, i) => (i === 3 ? 1.2 : b)) },
    "a chance as text": { ...good, black: good.black.map((b, i) => (i === 3 ? "0.5" : b)) },
    "more positions than the game": { ...good, black: [...good.black, 0.5], moves: [...good.moves, { class: "good" }] },
    "moves not matching the positions": { ...good, moves: good.moves.slice(1) },
    "an unknown class": { ...good, moves: good.moves.map((m, i) => (i === 2 ? { class: "great" } : m)) },
    "a better move off the board": { ...good, moves: good.moves.map((m, i) => (i === 5 ? { ...m, better: "z99" } : m)) },
    "a line with a bad point": { ...good, moves: good.moves.map((m, i) => (i === 5 ? { ...m, line: "k8 q0" } : m)) },
    "a better move for a good move": { ...good, moves: good.moves.map((m, i) => (i === 1 ? { ...m, better: "k8" } : m)) },
    "complete without summary": { ...good, summary: undefined },
    "a summary that does not match": { ...good, summary: { ...good.summary, white: { ...good.summary.white, blunder: 0 } } },
    "a summary count as text": { ...good, summary: { ...good.summary, black: { ...good.summary.black, mistake: "0" } } },
    "partial with a summary": { ...good, black: good.black.slice(0, 3), moves: good.moves.slice(0, 2) },
  };
  for (const [what, v] of Object.entries(broken)) {
    assert.throws(() => decodeReview(JSON.parse(JSON.stringify(v)), GAME), Error, what);
  }
  // the same review is not the review of another game
  const other = Game.fromRecord(record("h8 h9 i8 i9 j8 j9 k8 a1"));
  assert.throws(() => decodeReview(good, other));
});

test("the finished games keep a complete review; reopening finds it", () => {
  const entry = { date: "2025-01-01T00:00:00.000Z", size: 15, rule: "freestyle", first: BLACK, human: BLACK, result: "black", moves: GAME.moves };
  const otherEntry = { ...entry, moves: GAME.moves.slice(0, 7), result: "draw" };
  const finished = [entry, otherEntry];
  assert.equal(reviewInHistory(finished, GAME), null);
  const full = reviewed();
  const kept = withHistoryReview(finished, full);
  assert.notEqual(kept, finished);
  assert.equal(finished[0].review, undefined, "the list it was given is unchanged");
  assert.deepEqual(kept[0].review, encodeReview(full, 15));
  assert.equal(kept[1], otherEntry);
  assert.deepEqual(reviewInHistory(kept, Game.goTo(GAME, 3)), full);
  assert.equal(reviewInHistory(kept, Game.fromRecord(record("h8 h9 i8"))), null);
  const none = withHistoryReview([otherEntry], full);
  assert.deepEqual(none, [otherEntry]);
});

test("moveFacts and betterLine: the words and the line of a reviewed move", () => {
  const r = reviewed();
  assert.deepEqual(moveFacts(r, GAME, 6), {
    n: 6, color: "white", move: "j9", cls: "blunder", mark: "??", better: "k8", line: LINE_6,
    before: ANSWERS[5].position.black, after: ANSWERS[6].position.black, proof: "proven", noBetter: false,
  });
  assert.equal(moveFacts(r, GAME, 1).mark, "");
  assert.equal(moveFacts(r, GAME, 0), null);
  assert.equal(moveFacts(reviewed(5), GAME, 6), null, "not reviewed yet");
  const line = betterLine(r, GAME, 6);
  assert.deepEqual(line[0], { x: 10, y: 7, color: WHITE, label: 1 });
  assert.deepEqual(line[1], { x: 9, y: 6, color: BLACK, label: 2 });
  assert.equal(line.length, ANSWERS[6].move.line.length);
  assert.deepEqual(betterLine(r, GAME, 5), []);
  assert.equal(betterLine(r, GAME, 6, 3).length, 3);
  assert.equal(MARKS.missed_win, "⨯");
});

// The fixture's review with a second marked move (the engine calls move 4 good).
function twoMarked() {
  const r = reviewed();
  r.moves[4] = { ...r.moves[4], cls: "inaccuracy", proof: "judged" };
  return r;
}

test("the graph: one point per position, the midline, dots of the flagged classes, the cursor", () => {
  const r = twoMarked();
  const g = graphModel(r, 6);
  assert.equal(g.points.length, 10);
  assert.deepEqual(g.points.map((p) => p.index), [...Array(10).keys()]);
  assert.equal(g.points[0].x, GRAPH.padX);
  assert.equal(g.points[9].x, GRAPH.width - GRAPH.padX);
  assert.equal(g.midY, GRAPH.height / 2);
  // black's chance 1.0 at the top, 0 at the bottom
  assert.equal(g.points[6].y, GRAPH.padY);
  assert.ok(Math.abs(g.points[0].y - (GRAPH.padY + (1 - r.black[0]) * (GRAPH.height - 2 * GRAPH.padY))) < 0.01);
  assert.deepEqual(g.dots.map((d) => [d.index, d.cls]), [[4, "inaccuracy"], [6, "blunder"]]);
  assert.deepEqual(g.cursor, { index: 6, x: g.points[6].x });
  assert.ok(g.line.startsWith(`M${g.points[0].x} ${g.points[0].y} L`));
  assert.equal(g.line.split("L").length, 10);
  assert.ok(g.area.startsWith(`M${GRAPH.padX} ${g.bottom} L`) && g.area.endsWith("Z"));
  assert.equal(graphModel(r, 99).cursor, null);
  assert.deepEqual(graphModel(r, 6, GRAPH, ["blunder"]).dots.map((d) => d.index), [6]);
});

test("the graph of a partial review: the positions done, spaced for the whole game", () => {
  const g = graphModel(reviewed(4), 0);
  assert.equal(g.points.length, 4);
  assert.equal(g.points[3].x, Math.round((GRAPH.padX + (3 * (GRAPH.width - 2 * GRAPH.padX)) / 9) * 100) / 100);
  assert.deepEqual(g.dots, []);
  const empty = graphModel(newReview(GAME), 0);
  assert.deepEqual([empty.points, empty.line, empty.area], [[], "", ""]);
  assert.equal(indexAt(empty, 100), null);
  assert.equal(keyTarget(empty, 0, "ArrowRight"), null);
});

test("the graph's pointer and keys: the nearest position; arrows, dots, ends", () => {
  const g = graphModel(twoMarked(), 0);
  assert.equal(indexAt(g, 0), 0);
  assert.equal(indexAt(g, g.points[6].x + 3), 6);
  assert.equal(indexAt(g, 1000), 9);
  assert.equal(keyTarget(g, 3, "ArrowRight"), 4);
  assert.equal(keyTarget(g, 0, "ArrowLeft"), 0);
  assert.equal(keyTarget(g, 9, "ArrowRight"), 9);
  assert.equal(keyTarget(g, 0, "ArrowDown"), 4);
  assert.equal(keyTarget(g, 4, "PageDown"), 6);
  assert.equal(keyTarget(g, 6, "ArrowDown"), 6, "no dot after the last");
  assert.equal(keyTarget(g, 9, "ArrowUp"), 6);
  assert.equal(keyTarget(g, 2, "PageUp"), 2);
  assert.equal(keyTarget(g, 5, "Home"), 0);
  assert.equal(keyTarget(g, 5, "End"), 9);
  assert.equal(keyTarget(g, 5, "Enter"), null);
});
