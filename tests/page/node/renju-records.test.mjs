// rules.js and records.js with renju: per-side fives, forbidden moves refused in records,
// the rule carried by share links and .psq files.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BLACK, RULES, WHITE, replay, winLine } from "../../../web/model/rules.js";
import { formatMoves, parseFragment, parseMoves, parsePsq, psqRule, toFragment, toPsq } from "../../../web/model/records.js";

const SIZE = 15;
const stonesFrom = (list) => new Map(list.map(([x, y, who]) => [x + "," + y, who]));

test("renju is a rule", () => {
  assert.deepEqual(RULES, ["freestyle", "standard", "renju"]);
});

test("renju fives: black exactly five, white five or more", () => {
  const row = (who, n) => Array.from({ length: n }, (_, x) => [x, 0, who]);
  assert.equal(winLine(stonesFrom(row(0, 6)), 0, 0, SIZE, "renju"), null); // black six
  assert.equal(winLine(stonesFrom(row(0, 5)), 0, 0, SIZE, "renju").length, 5);
  assert.equal(winLine(stonesFrom(row(1, 6)), 0, 0, SIZE, "renju").length, 6); // white six
  assert.equal(winLine(stonesFrom(row(1, 6)), 0, 0, SIZE, "standard"), null);
  // with white as the first mover (player 0), player 1 is black
  assert.equal(winLine(stonesFrom(row(1, 6)), 0, 0, SIZE, "renju", 1), null);
  assert.equal(winLine(stonesFrom(row(0, 6)), 0, 0, SIZE, "renju", 1).length, 6);
});

// black a1 b1 c1 e1 f1 (white far away), then d1: six in a row for black.
const SIX = "a1 h8 b1 h10 c1 h12 e1 j8 f1 j10 d1";
// black h10 i10 g9 g8, white far away, then g10: a double three.
const DOUBLE_THREE = "h10 a1 i10 c1 g9 e1 g8 o1 g10";

test("replay does not end a renju game on black's six, records refuse it", () => {
  const moves = parseMoves(SIX, SIZE, "freestyle");
  assert.equal(replay(moves, SIZE, "freestyle").winner, 0);
  const r = replay(moves, SIZE, "renju");
  assert.equal(r.winner, -1);
  assert.throws(() => parseMoves(SIX, SIZE, "renju"), /move 11 \(d1\) is forbidden for black: overline/);
});

test("a record with black on a double-three point is refused in renju only", () => {
  assert.throws(
    () => parseMoves(DOUBLE_THREE, SIZE, "renju"),
    /move 9 \(g10\) is forbidden for black: double three/,
  );
  assert.equal(parseMoves(DOUBLE_THREE, SIZE, "standard").length, 9);
  // white opened: the same points, but g10 is then white's move
  assert.equal(parseMoves("o15 " + DOUBLE_THREE.split(" ").slice(0, 7).join(" ") + " g10", SIZE, "renju", WHITE).length, 9);
});

test("share links carry rule=renju and are checked under it", () => {
  const moves = parseMoves("h8 i9 h9", SIZE, "renju");
  const frag = toFragment({ moves, size: SIZE, rule: "renju", first: BLACK });
  assert.equal(frag, "moves=h8,i9,h9&rule=renju&size=15");
  assert.deepEqual(parseFragment("#" + frag), { moves, size: SIZE, rule: "renju", first: BLACK });
  const bad = toFragment({ moves: parseMoves(DOUBLE_THREE, SIZE), size: SIZE, rule: "renju", first: BLACK });
  assert.throws(() => parseFragment(bad), /forbidden for black: double three/);
  assert.throws(() => parseFragment("moves=h8&rule=caro"), /unknown rule/);
});

test(".psq files carry the rule after the moves", () => {
  const moves = parseMoves("h8 i9 h9", SIZE);
  assert.equal(toPsq(moves, SIZE), "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,7,0\r\n8,7,0\r\n");
  const text = toPsq(moves, SIZE, [], "renju");
  assert.equal(text.split("\r\n").slice(4).join("|"), "homo-1|homo-2|rule=renju|");
  assert.equal(psqRule(text), "renju");
  assert.deepEqual(parsePsq(text, psqRule(text)).moves, moves);
  assert.equal(psqRule(toPsq(moves, SIZE)), null);
  assert.equal(psqRule(toPsq(moves, SIZE, [], "standard")), "standard");
  assert.throws(() => psqRule("Piskvorky 15x15, 11:11, 0\n8,8,0\nrule=caro\n"), /unknown rule/);
  const forbidden = toPsq(parseMoves(DOUBLE_THREE, SIZE), SIZE, [], "renju");
  assert.throws(() => parsePsq(forbidden, psqRule(forbidden)), /g10\) is forbidden/);
  // the rule the file names wins over the caller's; a file naming none is read on the caller's
  assert.equal(parsePsq(toPsq(moves, SIZE, [], "renju"), "freestyle").rule, "renju");
  const plain = toPsq(parseMoves(DOUBLE_THREE, SIZE), SIZE);
  assert.equal(formatMoves(parsePsq(plain, "freestyle").moves, SIZE), DOUBLE_THREE);
  assert.throws(() => parsePsq(plain, "renju"), /g10\) is forbidden/);
});
