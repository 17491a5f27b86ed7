// Learn from your mistakes: the flagged moves of the player's own reviewed game as
// exercises, the judging of an answer, which game to learn from (the last one finished)
// and whether the game page offers it. Pure logic, no DOM (node --test:
// tests/page/node/mistakes.test.mjs; the storage is handed in); the page is puzzles-page.js.
//
// An exercise is the position before one of the player's inaccuracies, mistakes,
// blunders or missed wins: "You played j9. Find a better move for white." The review's
// better move is accepted at once and the move played refused; any other move is judged
// by the review's own rule at the review's budget: the engine evaluates the position after
// it (the worker's review message) and the move is accepted when the player's chance
// drops by less than an inaccuracy from the chance before the move (so it would have
// been classed best or good), or, where a win was missed, when it still wins.

import { REVIEW_INACCURACY } from "./engine-data.js";
import { colorOf, position } from "./game.js";
import { FLAGGED, decodeReview, isComplete, reviewKey, withHistoryReview } from "./review.js";
import { KEYS, decodeCurrentReview, decodeGame, decodeHistory, encodeCurrentReview, encodeHistory, save } from "./storage.js";

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

// ---- which game: the last one the player finished ------------------------------------

const overAtEnd = (game) => game.moves.length > 0 && position({ ...game, cursor: game.moves.length }).over;
const reviewFor = (review, game) => (review && review.key === reviewKey(game) ? review : null);

// The game to learn from and its review so far (null when not reviewed): {game, review},
// or null when the player has no finished game. game, review: the stored game in progress
// and its review (storage.js; either may be null); history: the finished games
// (storage.js entries, oldest first). The stored game when its review already has
// exercises (a game reviewed on the game page, finished or opened from a record); else
// the last finished game: the stored game when it is over, else the newest finished game
// of the list that is not an unfinished one, with the review kept with it. A game of two
// players on this device is nobody's own side (game.twoPlayers): never one to learn from.
export function gameToLearnFrom({ game = null, review = null, history = [] }) {
  if (game && game.twoPlayers) game = null;
  const own = game ? reviewFor(review, game) : null;
  if (game && own && exercises(game, own).length) return { game, review: own };
  if (game && overAtEnd(game)) return { game, review: own };
  for (let i = history.length - 1; i >= 0; i--) {
    const e = history[i];
    if (e.result === "unfinished" || !e.moves.length || e.twoPlayers) continue;
    const last = {
      size: e.size, rule: e.rule, first: e.first, human: e.human, level: e.level, seed: e.seed,
      moves: e.moves.map((m) => [...m]), cursor: e.moves.length, recorded: true,
      // (an opening rule's stones stay unjudged in its review: review.js reviewMessage)
      ...(e.opening ? { opening: { ...e.opening, choices: [...e.opening.choices], offers: e.opening.offers.map((m) => [...m]) } } : {}),
    };
    let kept = null;
    try {
      kept = e.review ? decodeReview(e.review, e) : null;
    } catch {
      kept = null; // (checked when the list was read; never here)
    }
    return { game: last, review: kept };
  }
  return null;
}

// Is "Learn from your mistakes" offered for the game on the game page (its review so far,
// or null)? When its review has exercises; not when a complete review found none; before
// a review, after a game the player lost (a loss has a move to learn from: the puzzles
// page reviews the game itself and says so in the rare game where it finds none); never
// for a game of two players (gameToLearnFrom).
export function learnOffered(game, review) {
  if (game.twoPlayers) return false;
  const own = reviewFor(review, game);
  if (own && exercises(game, own).length) return true;
  if (own && isComplete(own)) return false;
  if (!overAtEnd(game)) return false;
  const { winner } = position({ ...game, cursor: game.moves.length });
  return !!winner && winner !== game.human;
}

// ---- what is stored, read without changing it, and a review kept ------------------------

// The stored game in progress, its review and the finished games, decoded as the game page
// reads them but without changing the storage (what cannot be read is left for the game
// page to report): {game, review, history}.
export function readStored(storage) {
  const json = (key) => {
    try {
      return JSON.parse(storage.getItem(key) ?? "null");
    } catch {
      return null;
    }
  };
  let game = null;
  let review = null;
  let history = [];
  try {
    game = json(KEYS.game) === null ? null : decodeGame(json(KEYS.game));
  } catch {
    game = null;
  }
  try {
    review = game && json(KEYS.review) !== null ? decodeCurrentReview(json(KEYS.review), game) : null;
  } catch {
    review = null;
  }
  try {
    history = json(KEYS.history) === null ? [] : decodeHistory(json(KEYS.history)).history;
  } catch {
    history = [];
  }
  return { game, review, history };
}

// Keeps a review made away from the game page where the game page finds it: with the
// stored game in progress when it is that game, and (once complete) with its finished
// games of the list. Nothing is written where something could not be read (the game page
// reports and mends that itself).
export function keepReview(storage, game, review) {
  const stored = readStored(storage);
  if (stored.game && reviewKey(stored.game) === review.key) save(storage, KEYS.review, encodeCurrentReview(review, stored.game));
  if (!isComplete(review)) return;
  let raw;
  try {
    raw = JSON.parse(storage.getItem(KEYS.history) ?? "null");
  } catch {
    return;
  }
  if (!Array.isArray(raw)) return;
  let read;
  try {
    read = decodeHistory(raw);
  } catch {
    return;
  }
  if (read.dropped || read.reviewsDropped || raw.length !== read.history.length) return;
  const next = withHistoryReview(read.history, review);
  if (next !== read.history) save(storage, KEYS.history, encodeHistory(next));
}
