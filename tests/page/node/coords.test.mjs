// node --test: web/model/coords.js (board sizes, written coordinates).
import assert from "node:assert/strict";
import test from "node:test";

import { COLUMNS, DEFAULT_SIZE, SIZES, centre, cellText, isSize, onBoard, parseCell } from "../../../web/model/coords.js";

test("sizes are 15 to 20, 15 by default, with a column letter each", () => {
  assert.deepEqual(SIZES, [15, 16, 17, 18, 19, 20]);
  assert.equal(DEFAULT_SIZE, 15);
  assert.equal(COLUMNS.length, 20);
  for (const bad of [14, 21, 0, 15.5, "15", null, undefined, NaN]) assert.equal(isSize(bad), false, String(bad));
  for (const n of SIZES) assert.equal(isSize(n), true);
});

test("every point of every size round-trips through its written name", () => {
  for (const size of SIZES) {
    const names = new Set();
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const name = cellText(x, y, size);
        names.add(name);
        assert.deepEqual(parseCell(name, size), [x, y], name);
      }
    }
    assert.equal(names.size, size * size);
  }
});

test("columns from a on the left without gaps, rows from 1 at the bottom", () => {
  assert.equal(cellText(0, 14, 15), "a1");
  assert.equal(cellText(14, 0, 15), "o15");
  assert.equal(cellText(7, 7, 15), "h8");
  assert.equal(cellText(8, 0, 20), "i20"); // no letter is skipped
  assert.equal(cellText(19, 0, 20), "t20");
  assert.equal(cellText(0, 18, 19), "a1");
  assert.deepEqual(parseCell("a1", 19), [0, 18]);
  assert.deepEqual(parseCell(" H8 ", 15), [7, 7]);
});

test("the centre is the engine's size // 2", () => {
  assert.deepEqual(centre(15), [7, 7]);
  assert.equal(cellText(...centre(15), 15), "h8");
  assert.equal(cellText(...centre(16), 16), "i8");
  assert.equal(cellText(...centre(19), 19), "j10");
  assert.equal(cellText(...centre(20), 20), "k10");
});

test("names that are not points of the board give null", () => {
  for (const bad of ["p1", "a16", "a0", "h", "", "8h", "hh8", "h-1", "h8x", "u1"]) {
    assert.equal(parseCell(bad, 15), null, bad);
  }
  assert.deepEqual(parseCell("p16", 16), [15, 0]);
  assert.equal(parseCell("u1", 20), null);
  assert.equal(parseCell("a21", 20), null);
});

test("onBoard", () => {
  assert.equal(onBoard(0, 0, 15), true);
  assert.equal(onBoard(14, 14, 15), true);
  assert.equal(onBoard(15, 0, 15), false);
  assert.equal(onBoard(15, 0, 16), true);
  assert.equal(onBoard(-1, 0, 20), false);
  assert.equal(onBoard(1.5, 0, 20), false);
  assert.equal(onBoard("1", 0, 20), false);
});
