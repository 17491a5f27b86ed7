// Learn from your mistakes: the flagged moves of the player's own reviewed game as
// exercises, and the judging of an answer. Pure logic, no DOM (node --test:
// tests/node/mistakes.test.mjs); the page is puzzles-page.js.
//
// An exercise is the position before one of the player's inaccuracies, mistakes,
// blunders or missed wins: "You played j9. Find a better move for white." The review's
// better move is accepted at once and the move played refused; any other move is judged
// by the review's own rule at the review's budget: the engine evaluates the position after
// it (the worker's review message) and the move is accepted when the player's chance
// drops by less than an inaccuracy from the chance before the move (so it would have
// been classed best or good), or, where a win was missed, when it still wins.

import { REVIEW_INACCURACY } from "./engine-data.js";
import { colorOf } from "./game.js";
import { FLAGGED } from "./review.js";

export const INACCURACY = REVIEW_INACCURACY; // the engine's review's smallest flagged drop
export const WON = 0.999; // a chance at least this is a forced win (the review's 1.0)

const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

// The exercises of a reviewed game: one per flagged move of the player (game.human), in
// game order, each with {index (the move's number, 1-based), colour, moves (the position
// before it), played, better, line, cls, before (the player's chance before the move)}.
export function exercises(game, review) {
  if (!game || !review) return [];
  const out = [];
  for (let i = 1; i < review.moves.length; i++) {
    const m = review.moves[i];
    const colour = colorOf(game, i - 1);
    if (!m || !FLAGGED.includes(m.cls) || !m.better || colour !== game.human) continue;
    const black = review.black[i - 1];
    out.push({
      index: i, colour, moves: game.moves.slice(0, i - 1).map((p) => [...p]), played: [...game.moves[i - 1]],
      better: [...m.better], line: m.line.map((p) => [...p]), cls: m.cls,
      before: colour === 1 ? black : 1 - black,
    });
  }
  return out;
}

// What to do with the player's answer before the engine is asked: "accept" (the better
// move), "refuse" (the move played in the game), or "ask" (judge it by its chance).
export function firstLook(ex, move) {
  if (same(move, ex.better)) return "accept";
  if (same(move, ex.played)) return "refuse";
  return "ask";
}

// The verdict on an answer from black's chance after it (the engine's review of that
// position): true when it is as good as the better move by the review's rule.
export function judged(ex, blackAfter) {
  const after = ex.colour === 1 ? blackAfter : 1 - blackAfter;
  if (ex.cls === "missed_win") return after >= WON;
  return ex.before - after < INACCURACY;
}
