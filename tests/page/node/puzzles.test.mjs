// node --test: web/model/puzzles.js (the puzzles' pure logic) and web/model/puzzles-data.js.
import assert from "node:assert/strict";
import test from "node:test";

import { DEFAULT_LEVEL, LEVEL_DATA } from "../../../web/model/levels-data.js";
import { PUZZLES } from "../../../web/model/puzzles-data.js";
import {
  MIN_RD, START_RATING, START_RD, aged, dailyPuzzle, decodeProgress, decodeRow, expected, filterPuzzles, illegal,
  localVerdict, movesLeft, movesToWin, newProgress, nextPuzzle, rated, record, sideOf, stonesOf, utcDate,
  vcfStep, verdictPlan,
} from "../../../web/model/puzzles.js";

const all = PUZZLES.map(decodeRow);

test("the data decodes: cells on the board, solutions on empty points", () => {
  assert.ok(all.length > 0);
  for (const p of all) {
    assert.ok(["vcf", "vct", "defend"].includes(p.theme), p.id);
    assert.ok(["freestyle", "standard", "renju"].includes(p.rule), p.id);
    const stones = stonesOf(p.moves);
    assert.equal(stones.size, p.moves.length, p.id);
    for (const [x, y] of p.solutions) assert.ok(!stones.has(x + "," + y), p.id);
  }
  assert.throws(() => decodeRow(["x", "freestyle", 15, "vcf", 3, 100, 90, "hhzz", "ii", ""]), /bad cell zz/);
});

test("the daily puzzle is a function of the date alone", () => {
  const a = dailyPuzzle(all, "2026-11-27");
  assert.equal(dailyPuzzle([...all].reverse(), "2026-11-27").id, a.id); // not of the list's order
  assert.equal(dailyPuzzle(all, "2026-11-27").id, a.id);
  const days = new Set();
  for (let d = 1; d <= 28; d++) days.add(dailyPuzzle(all, `2026-02-${String(d).padStart(2, "0")}`).id);
  assert.ok(days.size > 10, `28 days gave only ${days.size} puzzles`);
  assert.equal(utcDate(Date.UTC(2026, 10, 27, 23, 59)), "2026-11-27");
  assert.throws(() => dailyPuzzle(all, "27/11/2026"), /not a date/);
  assert.equal(dailyPuzzle([], "2026-11-27"), null);
});

// Glicko-1 for one rating period of several games, written out from Glickman's paper
// ("Example of the Glicko system", 1999): the test's own reference.
function glickoPeriod(r, rd, games) {
  const q = Math.log(10) / 400;
  const g = (x) => 1 / Math.sqrt(1 + (3 * q * q * x * x) / Math.PI ** 2);
  let d2inv = 0;
  let sum = 0;
  for (const [rj, rdj, s] of games) {
    const e = 1 / (1 + 10 ** (-g(rdj) * (r - rj) / 400));
    d2inv += q * q * g(rdj) ** 2 * e * (1 - e);
    sum += g(rdj) * (s - e);
  }
  const denom = 1 / rd ** 2 + d2inv;
  return { rating: r + (q / denom) * sum, rd: Math.sqrt(1 / denom) };
}

test("the reference is Glickman's worked example", () => {
  const out = glickoPeriod(1500, 200, [[1400, 30, 1], [1550, 100, 0], [1700, 300, 0]]);
  assert.equal(Math.round(out.rating), 1464);
  assert.equal(Math.round(out.rd * 10) / 10, 151.4);
});

test("the rating moves by Glicko: one puzzle, one game against its rating", () => {
  for (const [r, rd, pr, prd, s] of [[1500, 350, 1500, 100, 1], [800, 120, 1400, 60, 0], [243, 350, 776, 150, 1]]) {
    const ref = glickoPeriod(r, rd, [[pr, prd, s]]);
    const got = rated(r, rd, pr, prd, s === 1);
    assert.equal(got.rating, Math.round(ref.rating));
    assert.equal(got.rd, Math.max(MIN_RD, Math.round(ref.rd)));
  }
  assert.equal(expected(1500, 1500), 0.5);
  // at equal ratings a miss costs what a solve gains
  for (const rd of [350, 200, 60]) {
    const up = rated(1000, rd, 1000, 120, true).rating - 1000;
    const down = 1000 - rated(1000, rd, 1000, 120, false).rating;
    assert.ok(up > 0 && up === down, `rd ${rd}: +${up} / -${down}`);
  }
  // a harder puzzle gains more; a surer rating moves less
  assert.ok(rated(1500, 200, 1900, 100, true).rating > rated(1500, 200, 1100, 100, true).rating);
  assert.ok(rated(1500, 80, 1500, 100, true).rating - 1500 < rated(1500, 300, 1500, 100, true).rating - 1500);
  // the deviation shrinks with each result, never under MIN_RD, and grows back with idle days
  let state = { rating: 1500, rd: START_RD };
  for (let i = 0; i < 200; i++) state = rated(state.rating, state.rd, 1500, 100, i % 2 === 0);
  assert.equal(state.rd, MIN_RD);
  assert.equal(aged(MIN_RD, 0), MIN_RD);
  assert.ok(aged(MIN_RD, 10) > MIN_RD && aged(MIN_RD, 1000) === START_RD);
});

test("a puzzle counts once; the streak, the deviation and the history follow", () => {
  const p = { ...all[0], rating: 1500, ratingRd: 100 };
  const q = { ...all[1], rating: 1500, ratingRd: 100 };
  let s = record({ ...newProgress(), rating: 1500 }, p, true, "2026-11-27");
  assert.equal(s.rating, rated(1500, START_RD, 1500, 100, true).rating);
  assert.ok(s.rd < START_RD && s.last === "2026-11-27");
  assert.equal(s.streak, 1);
  assert.equal(record(s, p, false, "2026-11-27"), s); // the second try changes nothing
  const next = record(s, q, false, "2026-12-27"); // a month later: the deviation grew first
  assert.equal(next.rating, rated(s.rating, aged(s.rd, 30), 1500, 100, false).rating);
  s = next;
  assert.equal(s.streak, 0);
  assert.equal(s.best, 1);
  assert.equal(s.games, 2);
  assert.deepEqual(s.history.map((e) => [e.id, e.solved]), [[q.id, false], [p.id, true]]);
  assert.deepEqual(s.done, { [p.id]: "solved", [q.id]: "failed" });
});

test("progress stored by the Elo version is read with a deviation", () => {
  const old = { v: 1, rating: 700, games: 12, streak: 2, best: 3, history: [], done: { a: "solved" } };
  const s = decodeProgress(old);
  assert.equal(s.v, 2);
  assert.equal(s.rating, 700);
  assert.ok(s.rd >= MIN_RD && s.rd <= START_RD && s.last === null);
  assert.deepEqual(s.done, { a: "solved" });
});

test("stored progress is read back, and anything malformed is refused with a reason", () => {
  const s = record(newProgress(), all[0], true, "2026-11-27");
  assert.deepEqual(decodeProgress(JSON.parse(JSON.stringify(s))), s);
  assert.throws(() => decodeProgress(null), /unknown format/);
  assert.throws(() => decodeProgress({ ...s, rating: "high" }), /rating/);
  assert.throws(() => decodeProgress({ ...s, history: [{ id: 3 }] }), /history entry/);
  assert.throws(() => decodeProgress({ ...s, done: { a: "maybe" } }), /result/);
  assert.throws(() => decodeProgress({ ...s, rd: 5 }), /deviation/);
  assert.throws(() => decodeProgress({ ...s, last: "yesterday" }), /date/);
});

test("the next puzzle is the untried one nearest the player's rating", () => {
  const r = START_RATING;
  const list = [
    { id: "a", rating: r - 500 }, { id: "b", rating: r - 50 }, { id: "c", rating: r + 100 }, { id: "d", rating: r },
  ];
  const s = newProgress();
  // a new player starts at the default level's rating: one scale with the levels
  assert.equal(START_RATING, LEVEL_DATA.find((l) => l.number === DEFAULT_LEVEL).rating);
  assert.equal(s.rating, START_RATING);
  assert.equal(nextPuzzle(list, s).id, "d");
  assert.equal(nextPuzzle(list, { ...s, done: { d: "solved" } }).id, "b");
  assert.equal(nextPuzzle(list, s, "d").id, "b"); // not the one on the board
  assert.deepEqual(filterPuzzles(all, { theme: "vcf", rule: "all" }).every((p) => p.theme === "vcf"), true);
});

test("a VCF plays out: a four is blocked, a five wins, a quiet move loses", () => {
  // black: an open three on row 7 (6..8); white far away; black to move
  const moves = [[6, 7], [0, 0], [7, 7], [0, 14], [8, 7], [14, 0]];
  const stones = stonesOf(moves);
  assert.equal(sideOf({ moves }), 1);
  stones.set("9,7", 0); // black makes an open four
  const four = vcfStep(stones, [9, 7], 1, 15, "freestyle", 3);
  assert.equal(four.result, "block");
  assert.deepEqual(four.reply, [5, 7]);
  stones.set("5,7", 1);
  stones.set("10,7", 0);
  assert.equal(vcfStep(stones, [10, 7], 1, 15, "freestyle", 2).result, "won");
  const quiet = stonesOf(moves);
  quiet.set("3,3", 0);
  assert.equal(vcfStep(quiet, [3, 3], 1, 15, "freestyle", 3).result, "lost");
  // no fours left to spend
  const spent = stonesOf(moves);
  spent.set("9,7", 0);
  assert.equal(vcfStep(spent, [9, 7], 1, 15, "freestyle", 0).result, "lost");
});

test("renju: black may not play a forbidden point, white may", () => {
  const moves = [[5, 7], [0, 0], [6, 7], [0, 2], [7, 7], [0, 4], [8, 4], [0, 6], [8, 5], [0, 8], [8, 6], [14, 14]];
  const stones = stonesOf(moves);
  assert.equal(illegal(stones, 8, 7, 1, 15, "renju"), "double four");
  assert.equal(illegal(stones, 8, 7, 2, 15, "renju"), null);
  assert.equal(illegal(stones, 8, 7, 1, 15, "freestyle"), null);
  assert.equal(illegal(stones, 5, 7, 1, 15, "renju"), "taken");
});

test("renju: a white four whose block black may not play wins at once", () => {
  const stones = new Map();
  // black (player 0): (8, 7) would make a double four, so black may not play it
  for (const [x, y] of [[5, 7], [6, 7], [7, 7], [8, 4], [8, 5], [8, 6], [8, 12]]) stones.set(x + "," + y, 0);
  // white (player 1): column 8, rows 8..11 after its move (8, 8): the five only at (8, 7)
  for (const [x, y] of [[8, 8], [8, 9], [8, 10], [8, 11], [0, 0], [0, 2], [0, 4]]) stones.set(x + "," + y, 1);
  assert.equal(illegal(stones, 8, 7, 1, 15, "renju"), "double four");
  assert.deepEqual(vcfStep(stones, [8, 8], 2, 15, "renju", 3), { result: "won", trap: [8, 7] });
  assert.deepEqual(vcfStep(stones, [8, 8], 2, 15, "freestyle", 3), { result: "block", reply: [8, 7] });
});

test("a verdict becomes the page's plan: go on, take back, or count", () => {
  const p = all.find((q) => q.id === "0bd7eb"); // black to move, win by fours
  const words = (plan) => plan.says.map(([k]) => k);
  const wins = verdictPlan(p, { outcome: "wins", reply: [10, 6], line: [[10, 6], [9, 9]] }, [9, 6]);
  assert.equal(wins.action, "reply");
  assert.deepEqual(wins.play, [10, 6]);
  assert.deepEqual(words(wins), ["pzAnswers", "pzKeepGoing"]);
  assert.deepEqual(wins.says[0][1], { color: { key: "pzWhite" }, move: "k9" });
  const longer = verdictPlan(p, { outcome: "longer", reply: [5, 3], line: [[5, 3], [10, 8]] }, [7, 5]);
  assert.equal(longer.action, "reply");
  assert.deepEqual(words(longer), ["pzLonger", "pzAnswers", "pzKeepGoing"]);
  const other = verdictPlan(p, { outcome: "other", reply: [9, 9], line: [[9, 9]], by: "vct" }, [10, 10]);
  assert.deepEqual([other.action, words(other)], ["again", ["pzAlsoWinsFours"]]);
  const lost = verdictPlan(p, { outcome: "lost", reply: [5, 4], line: [[5, 4], [6, 6]] }, [4, 9]);
  assert.equal(lost.action, "failed");
  assert.deepEqual(words(lost), ["pzLostAttack", "pzThen"]);
  assert.deepEqual(lost.says[0][1], { move: "e6", color: { key: "pzWhite" }, reply: "f11" });
  assert.deepEqual(lost.overlay, [[5, 4], [6, 6]]);
  assert.deepEqual(verdictPlan(p, { outcome: "unclear", reply: null, line: [] }, [0, 0]).action, "again");
  assert.equal(verdictPlan(p, { outcome: "solved", reply: null, line: [], by: "five" }, [0, 0]).action, "solved");
  const vct = all.find((q) => q.theme === "vct");
  assert.deepEqual(words(verdictPlan(vct, { outcome: "other", reply: null, line: [] }, [0, 0])), ["pzAlsoWinsThreats"]);
  const defend = all.find((q) => q.theme === "defend");
  const held = verdictPlan(defend, { outcome: "wins", reply: [1, 1], line: [[1, 1]] }, [0, 0]);
  assert.deepEqual([held.action, words(held)], ["reply", ["pzStillThreat"]]);
  assert.deepEqual(words(verdictPlan(defend, { outcome: "lost", reply: [1, 1], line: [[1, 1]] }, [0, 0])), ["pzLostDefence"]);
  assert.deepEqual(words(verdictPlan(defend, { outcome: "solved", reply: null, line: [] }, [0, 0])), ["pzDefended"]);
  assert.throws(() => verdictPlan(p, { outcome: "maybe" }, [0, 0]), /unknown verdict/);
});

test("the moves a win by fours still allows count down to one; other themes promise none", () => {
  const p = all.find((q) => q.id === "0bd7eb");
  assert.equal(movesLeft(p, 0), movesToWin(p));
  assert.equal(movesLeft(p, 2), movesToWin(p) - 2);
  assert.equal(movesLeft(p, 40), 1);
  assert.equal(movesLeft(all.find((q) => q.theme === "defend"), 0), null);
});

test("without the engine the stored proof judges what it can, and nothing else", () => {
  const p = all.find((q) => q.id === "0bd7eb");
  const at = (move, made = 0, moves = p.moves) => {
    const stones = stonesOf(moves);
    stones.set(move[0] + "," + move[1], sideOf(p) - 1);
    return localVerdict(p, stones, move, made);
  };
  const first = at(p.solutions[0]);
  assert.equal(first.outcome, "wins");
  assert.equal(at([10, 10]).outcome, "unjudged"); // a four, not a stored first move
  assert.equal(at([3, 3]).outcome, "unjudged");
  // later, any four is answered by its block
  const later = at([10, 10], 1);
  assert.equal(later.outcome, "wins");
  const defend = all.find((q) => q.theme === "defend");
  const ds = stonesOf(defend.moves);
  ds.set(defend.solutions[0].join(","), sideOf(defend) - 1);
  assert.equal(localVerdict(defend, ds, defend.solutions[0], 0).outcome, "solved");
});
