// Board sizes and written coordinates. Pure functions, no DOM.
//
// Points are engine coordinates [x, y]: 0-based, x = column from the left, y = row from
// the TOP. Written coordinates name columns a, b, c ... from the left (no letter skipped)
// and rows 1, 2, 3 ... from the BOTTOM: on 15x15 the centre [7, 7] is h8, [0, 14] is a1;
// on 20x20 the top right corner [19, 0] is t20.

import { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE } from "./engine-data.js";

export { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE }; // the engine's (py/gomoku/core/rules.py)
export const SIZES = Array.from({ length: MAX_SIZE - MIN_SIZE + 1 }, (_, i) => MIN_SIZE + i);
export const COLUMNS = "abcdefghijklmnopqrst"; // MAX_SIZE letters

export function isSize(n) {
  return Number.isInteger(n) && n >= MIN_SIZE && n <= MAX_SIZE;
}

// The engine's centre (size // 2 each way): h8 on 15x15, i9 on 16x16, j10 on 19x19.
export function centre(size) {
  const c = Math.floor(size / 2);
  return [c, c];
}

export function onBoard(x, y, size) {
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < size && y < size;
}

export function cellText(x, y, size) {
  return COLUMNS[x] + String(size - y);
}

// "h8" -> [7, 7] on 15x15; null when it is not a point of a size x size board.
export function parseCell(text, size) {
  const m = /^([a-z])(\d{1,2})$/.exec(String(text).trim().toLowerCase());
  if (!m) return null;
  const x = COLUMNS.indexOf(m[1]);
  const row = Number(m[2]);
  if (x < 0 || x >= size || row < 1 || row > size) return null;
  return [x, size - row];
}
