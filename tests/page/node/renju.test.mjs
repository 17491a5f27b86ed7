// web/model/renju.js against the Python reference: every position of tests/page/node/fixtures/renju.json
// (written by tests/engine/game/renju_cases.py from py/gomoku/renju_reference.py) must give the same
// forbidden points, shapes included: the classic cases, the recursive ones, 120 random ones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { SHAPES, firstForbidden, forbiddenPoints, forbiddenShape } from "../../../web/model/renju.js";
import { cellText, parseCell } from "../../../web/model/coords.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/renju.json", import.meta.url), "utf8"));
const SIZE = fixture.size;

// Stones as rules.js keeps them; black is player `black` (0 unless said otherwise).
function stonesOf(position, black = 0) {
  const stones = new Map();
  for (const t of position.black) stones.set(parseCell(t, SIZE).join(","), black);
  for (const t of position.white) stones.set(parseCell(t, SIZE).join(","), 1 - black);
  return stones;
}

function asCells(points) {
  return Object.fromEntries(
    [...points].map(([key, shape]) => {
      const [x, y] = key.split(",").map(Number);
      return [cellText(x, y, SIZE), shape];
    }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

test("the fixture has the classic cases, the deep ones and random positions", () => {
  const names = fixture.positions.map((p) => p.name);
  assert.ok(names.includes("false double three: the only straight-four point is an overline"));
  assert.ok(names.includes("double three that needs the recursion two levels deep"));
  assert.ok(names.filter((n) => n.startsWith("random")).length >= 100);
  const shapes = new Set(fixture.positions.flatMap((p) => Object.values(p.forbidden)));
  assert.deepEqual([...shapes].sort(), [...SHAPES].sort());
});

for (const position of fixture.positions) {
  test(`same forbidden points as the reference: ${position.name}`, () => {
    const want = Object.fromEntries(Object.entries(position.forbidden).sort(([a], [b]) => (a < b ? -1 : 1)));
    assert.deepEqual(asCells(forbiddenPoints(stonesOf(position), SIZE)), want);
    // the same with white as player 0 (a game white opened)
    assert.deepEqual(asCells(forbiddenPoints(stonesOf(position, 1), SIZE, 1)), want);
  });
}

test("forbiddenShape on single points, and occupied points throw", () => {
  const position = fixture.positions.find((p) => p.name === "double four in one line X.X*X.X");
  const stones = stonesOf(position);
  const [[cell, shape]] = Object.entries(position.forbidden).filter(([, s]) => s === "double four");
  const [x, y] = parseCell(cell, SIZE);
  assert.equal(forbiddenShape(stones, x, y, SIZE), shape);
  const [bx, by] = parseCell(position.black[0], SIZE);
  assert.throws(() => forbiddenShape(stones, bx, by, SIZE), /occupied/);
});

test("firstForbidden replays a game and finds the first forbidden black move", () => {
  // black h10 i10 g9 g8 (the classic double three), white far away, then black g10
  const black = ["h10", "i10", "g9", "g8"].map((t) => parseCell(t, SIZE));
  const white = ["a1", "c1", "e1", "o1"].map((t) => parseCell(t, SIZE));
  const moves = black.flatMap((b, i) => [b, white[i]]);
  const g10 = parseCell("g10", SIZE);
  assert.equal(firstForbidden(moves, SIZE), null);
  assert.deepEqual(firstForbidden([...moves, g10], SIZE), { index: 8, shape: "double three" });
  // the same point is fine for white (white opened: player 0 is white, player 1 black)
  assert.equal(firstForbidden([parseCell("o15", SIZE), ...moves.slice(0, 7), g10], SIZE, 1), null);
});
