// The player's results per level: how many games against the engine they won, lost and
// drew at each level. Pure data and functions, no DOM; storage.js keeps them.
//
//   results   {"<level number>": {won, lost, drawn}, ...}   (only levels with a game)
//
// A game counts for the level it was played at when it finished, from the player's side.

import { BLACK, WHITE } from "./rules.js";
import { isLevel } from "./levels.js";

export const OUTCOMES = ["won", "lost", "drawn"];
const EMPTY = { won: 0, lost: 0, drawn: 0 };

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isCount = (v) => Number.isSafeInteger(v) && v >= 0;

// The player's outcome of a finished game's result ("black" | "white" | "draw") when they
// play human (BLACK | WHITE): "won" | "lost" | "drawn".
export function outcomeOf(result, human) {
  if (result === "draw") return "drawn";
  const winner = result === "black" ? BLACK : result === "white" ? WHITE : null;
  if (winner === null) throw new Error(`bad result ${JSON.stringify(result)}`);
  return winner === human ? "won" : "lost";
}

// {won, lost, drawn} at level n (zeros when none).
export function recordAt(results, n) {
  const r = results[String(n)];
  return r ? { ...EMPTY, ...r } : { ...EMPTY };
}

// The results with one more outcome at level n (a new object; the one given is unchanged).
export function withResult(results, n, outcome) {
  if (!isLevel(n)) throw new Error(`unknown level ${JSON.stringify(n)}`);
  if (!OUTCOMES.includes(outcome)) throw new Error(`bad outcome ${JSON.stringify(outcome)}`);
  const r = recordAt(results, n);
  return { ...results, [String(n)]: { ...r, [outcome]: r[outcome] + 1 } };
}

// {results, dropped} of a stored value: the entries that can be read (a known level with
// three counts) and how many could not. Throws when the value is not an object at all.
// shift: added to each stored level number (the former ladder's results: levels.js
// FORMER_SHIFT).
export function decodeResults(v, shift = 0) {
  if (!isObject(v)) throw new Error("the stored results are not an object");
  const results = {};
  let dropped = 0;
  for (const [key, r] of Object.entries(v)) {
    const n = Number(key);
    if (String(n) !== key || !isLevel(n) || !isLevel(n + shift) || !isObject(r) || !OUTCOMES.every((k) => isCount(r[k]))) {
      dropped += 1;
      continue;
    }
    results[String(n + shift)] = { won: r.won, lost: r.lost, drawn: r.drawn };
  }
  return { results, dropped };
}

export const encodeResults = (results) => Object.fromEntries(
  Object.entries(results).map(([k, r]) => [k, { won: r.won, lost: r.lost, drawn: r.drawn }]),
);
