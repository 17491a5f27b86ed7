// What the page keeps in localStorage, and the checks on reading it back. No DOM: the
// storage is passed in (localStorage in the page, a stand-in in the tests).
//
//   gomoku.game.v1      the game in progress, with its undone moves:
//                       {size, rule, first, human, level, seed, moves: [[x, y], ...],
//                        cursor, recorded, ladder, twoPlayers?, clock?, opening?}
//                       (twoPlayers: true for two people on this device; clock:
//                        clock.js encodeClock, the times of its last charge; opening: a
//                        game under an opening rule, game.js: {rule, player, choices,
//                        offers})
//   gomoku.settings.v1  the settings (settings.js): {theme, lang, sound, numbers, coords,
//                       showPv, analysisMoves, threads?}
//   gomoku.history.v1   the last HISTORY_MAX finished games, oldest first:
//                       [{date, size, rule, first, human, level, seed, result,
//                         moves: "h8 i9 ...", review?, ladder, twoPlayers?, clock?,
//                         opening?}, ...]
//                       (result "black", "white", "draw", or "unfinished": a game in
//                       progress kept when a record or link replaced it, state.js opened)
//                       (review: review.js encodeReview, once complete)
//   gomoku.results.v2   the player's results per level (results.js):
//                       {"<level>": {won, lost, drawn}, ...}
//   gomoku.streak.v1    the player's losses in a row at one level (state.js):
//                       {level, losses}
//   gomoku.review.v1    the review of the game in progress (complete or not):
//                       {key: review.js reviewKey(game), review: encodeReview's form}
//
// Reading migrates what older versions of the page wrote: a game or finished game without
// size is 15x15, without rule freestyle, without first black, without seed seed 0; the
// level keys of the think-time levels (t03 .. inf, and the older fast / normal / strong)
// become level numbers (levels.js migrateLevel); a level number without `ladder` (written
// before the bottom rungs came) is on the former ladder and moves up by
// FORMER_SHIFT, and so do the levels of gomoku.results.v1 (read once into v2, then
// removed); a game without a level gets the one those pages gave it (their default,
// Learner); a finished game without a level has level null (not known). Data that cannot
// be read (not JSON, wrong shape, an illegal move, under renju a black move on a
// forbidden point) is removed and reported by a notice (i18n.js);
// a finished game or a level's results that cannot be read are dropped, the others kept. A
// stored game whose level is not a level (42, "x") gets DEFAULT_LEVEL and a notice naming
// the level; one whose seed is not a seed gets seed 0 and a notice; nothing else of it is
// lost; nor when its clock cannot be read: the clock is dropped with a notice (a finished
// game's bad clock quietly), the game kept. A review that cannot be read (review.js decodeReview) is dropped with a notice,
// its game kept; one stored for another game than the stored one (never written so) is
// dropped quietly.
//
// A notice is an i18n key, or {key, vars} for a text with fields.

import { decodeClock, encodeClock } from "./clock.js";
import { DEFAULT_SIZE, isSize } from "./coords.js";
import { DEFAULT_LEVEL, checkOpening, checkSetup, clockedMoves, isColour, isSeed, withOpening } from "./game.js";
import { FORMER_SHIFT, LADDER_VERSION, isLevel, migrateLevel } from "./levels.js";
import { checkMoves, formatMoves, parseMoves } from "./records.js";
import { decodeResults, encodeResults } from "./results.js";
import { decodeReview, encodeReview, reviewKey } from "./review.js";
import { BLACK, isRule } from "./rules.js";
import { DEFAULT_SETTINGS, decodeSettings } from "./settings.js";

// the settings' fields and checks are settings.js's, the results' results.js's
export { DEFAULT_SETTINGS, decodeSettings, decodeResults, encodeResults };

export const KEYS = {
  game: "gomoku.game.v1", settings: "gomoku.settings.v1", history: "gomoku.history.v1", results: "gomoku.results.v2",
  review: "gomoku.review.v1", streak: "gomoku.streak.v1",
};
// where the results were kept on the former ladder (numbers FORMER_SHIFT lower)
export const FORMER_RESULTS = "gomoku.results.v1";
export const HISTORY_MAX = 20;
// the level pages before the bottom rungs gave a stored game without one (on their ladder)
const FORMER_DEFAULT_LEVEL = 3;
export const RESULTS = ["black", "white", "draw", "unfinished"];

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// ---- the game in progress -------------------------------------------------------------

export function encodeGame(g) {
  return {
    size: g.size, rule: g.rule, first: g.first, human: g.human, level: g.level, seed: g.seed,
    moves: g.moves.map(([x, y]) => [x, y]), cursor: g.cursor, recorded: g.recorded, ladder: LADDER_VERSION,
    ...playExtras(g),
  };
}

// What a game played by two people, on a clock or under an opening rule adds to what is
// stored (the game in progress and the finished games): nothing for a plain game against
// the engine.
function playExtras(g) {
  const extras = {};
  if (g.twoPlayers) extras.twoPlayers = true;
  if (g.clock) extras.clock = encodeClock(g.clock);
  if (g.opening) extras.opening = openingData(g.opening);
  return extras;
}

const openingData = (o) => ({ rule: o.rule, player: o.player, choices: [...o.choices], offers: o.offers.map(([x, y]) => [x, y]) });

// The clock of a stored game or finished game whose clock has seen n moves (game.js
// clockedMoves), or null: none, or one that cannot be read (then `notices`, when given,
// says so).
function readClock(v, n, notices = null) {
  if (v.clock === undefined || v.clock === null) return null;
  try {
    return decodeClock(v.clock, n);
  } catch {
    if (notices) notices.push("badClock");
    return null;
  }
}

// The game of a stored value (parsed JSON). Throws an Error saying what is wrong. What it
// mends (an unknown level, a bad seed) goes into notices.
export function decodeGame(v, notices = []) {
  if (!isObject(v)) throw new Error("the stored game is not an object");
  const size = v.size ?? DEFAULT_SIZE;
  const rule = v.rule ?? "freestyle";
  const first = v.first ?? BLACK;
  const human = v.human ?? BLACK;
  // no level at all: what pages before the bottom rungs played such a game at, their
  // default (Learner)
  let level = v.level === undefined ? migrateLevel(FORMER_DEFAULT_LEVEL) : migrateLevel(v.level, v.ladder);
  if (level === null) {
    level = DEFAULT_LEVEL;
    notices.push({ key: "unknownLevel", vars: { level: JSON.stringify(v.level), n: DEFAULT_LEVEL } });
  }
  let seed = v.seed ?? 0;
  if (!isSeed(seed)) {
    notices.push({ key: "badSeed", vars: { seed: JSON.stringify(v.seed) } });
    seed = 0;
  }
  checkSetup({ size, rule, first, human, level, seed });
  if (!Array.isArray(v.moves)) throw new Error("the stored game has no move list");
  checkMoves(v.moves, size, rule, first); // throws naming the first bad move
  const moves = v.moves.map(([x, y]) => [x, y]);
  const cursor = Number.isInteger(v.cursor) && v.cursor >= 0 && v.cursor <= moves.length ? v.cursor : moves.length;
  const game = { size, rule, first, human, level, seed, moves, cursor, recorded: v.recorded === true, twoPlayers: v.twoPlayers === true };
  const opened = v.opening === undefined ? game : withOpening(game, v.opening); // throws when it does not fit
  return { ...opened, clock: readClock(v, clockedMoves(opened), notices) };
}

// ---- finished games ----------------------------------------------------------------------

export function historyEntry(game, result, date) {
  if (!RESULTS.includes(result)) throw new Error(`bad result ${JSON.stringify(result)}`);
  return {
    date: date.toISOString(), size: game.size, rule: game.rule, first: game.first, human: game.human,
    level: game.level, seed: game.seed, result, moves: game.moves.map(([x, y]) => [x, y]), ...playExtras(game),
  };
}

// The list with entry added at the end, at most HISTORY_MAX long.
export function addToHistory(history, entry) {
  return [...history, entry].slice(-HISTORY_MAX);
}

// One stored finished game, or null when it cannot be read. Its moves are text
// ("h8 i9 ...") when stored; decoded, an array of points.
function decodeEntry(e) {
  if (!isObject(e) || typeof e.date !== "string" || !RESULTS.includes(e.result)) return null;
  const size = e.size ?? DEFAULT_SIZE;
  const rule = e.rule ?? "freestyle";
  const first = e.first ?? BLACK;
  if (!isSize(size) || !isRule(rule) || !isColour(first) || typeof e.moves !== "string") return null;
  if (rule === "renju" && first !== BLACK) return null;
  let moves;
  try {
    moves = parseMoves(e.moves, size, rule, first);
  } catch {
    return null;
  }
  const entry = {
    date: e.date, size, rule, first, human: isColour(e.human) ? e.human : BLACK,
    level: migrateLevel(e.level, e.ladder), seed: isSeed(e.seed) ? e.seed : 0, result: e.result, moves,
  };
  if (e.opening !== undefined) {
    try {
      entry.opening = checkOpening({ ...entry, opening: e.opening });
    } catch {
      return null; // an opening that does not fit its moves: the entry cannot be trusted
    }
  }
  if (e.twoPlayers === true) entry.twoPlayers = true;
  const clock = readClock(e, clockedMoves(entry));
  if (clock) entry.clock = encodeClock(clock); // kept as stored (checked), as the review is
  if (e.review !== undefined) {
    // kept in its stored form (review.js reviewInHistory reads it); a broken one is
    // dropped, the game kept
    try {
      decodeReview(e.review, entry);
      entry.review = e.review;
    } catch {
      entry.reviewDropped = true;
    }
  }
  return entry;
}

// {history, dropped, reviewsDropped}: the entries that can be read (the last HISTORY_MAX),
// how many could not, and how many lost a review that could not be read. Throws when the
// value is not a list.
export function decodeHistory(v) {
  if (!Array.isArray(v)) throw new Error("the stored finished games are not a list");
  const history = v.map(decodeEntry).filter(Boolean);
  const reviewsDropped = history.filter((e) => e.reviewDropped).length;
  for (const e of history) delete e.reviewDropped;
  return { history: history.slice(-HISTORY_MAX), dropped: v.length - history.length, reviewsDropped };
}

export function encodeHistory(history) {
  return history.map((e) => ({ ...e, moves: formatMoves(e.moves, e.size), ladder: LADDER_VERSION }));
}

// ---- the losses in a row ------------------------------------------------------------------

// The stored streak ({level, losses}), or null when there is none or it cannot be read
// (it only decides an offer: nothing to tell the player about).
export function decodeStreak(v) {
  if (v === null || typeof v !== "object" || !isLevel(v.level)) return null;
  return Number.isSafeInteger(v.losses) && v.losses >= 0 ? { level: v.level, losses: v.losses } : null;
}

// ---- the review of the game in progress ----------------------------------------------------

// What gomoku.review.v1 holds for a game's review (review.js).
export function encodeCurrentReview(review, game) {
  return { key: reviewKey(game), review: encodeReview(review, game.size) };
}

// The review of a stored value for the stored game: null when it is another game's
// (stale); throws when it cannot be read.
export function decodeCurrentReview(v, game) {
  if (v === null || typeof v !== "object" || typeof v.key !== "string") throw new Error("the stored review has no game");
  if (v.key !== reviewKey(game)) return null;
  return decodeReview(v.review, game);
}

// Writes the game's review, or removes it (review null).
export function saveReview(storage, review, game) {
  if (review) return save(storage, KEYS.review, encodeCurrentReview(review, game));
  try {
    storage.removeItem(KEYS.review);
    return true;
  } catch {
    return false;
  }
}

// ---- reading and writing -------------------------------------------------------------

// Everything stored: {game (null when none), settings, history, results, streak (null when
// none), review (of the game; null when none), notices: [i18n keys, or {key, vars}]}.
export function loadAll(storage) {
  const notices = [];
  const read = (key, decode, notice) => {
    let text;
    try {
      text = storage.getItem(key);
      if (text === null) return undefined;
      return decode(JSON.parse(text));
    } catch {
      try { storage.removeItem(key); } catch { /* storage disabled */ }
      notices.push(notice);
      return undefined;
    }
  };
  const mended = [];
  const game = read(KEYS.game, (v) => (v === null ? undefined : decodeGame(v, mended)), "corruptGame") ?? null;
  if (game && mended.length) { // (a game that could not be read has its own notice)
    notices.push(...mended);
    save(storage, KEYS.game, encodeGame(game)); // the notice is shown once
  }
  const settings = read(KEYS.settings, decodeSettings, "corruptSettings") ?? { ...DEFAULT_SETTINGS };
  const h = read(KEYS.history, decodeHistory, "corruptHistory") ?? { history: [], dropped: 0, reviewsDropped: 0 };
  if (h.dropped) notices.push("droppedHistory");
  if (h.reviewsDropped) notices.push("droppedReview");
  if (h.dropped || h.reviewsDropped) save(storage, KEYS.history, encodeHistory(h.history)); // the notice is shown once
  let r = read(KEYS.results, decodeResults, "corruptResults");
  if (r === undefined) {
    // the former ladder's results, if any: moved up onto this ladder, kept as v2
    r = read(FORMER_RESULTS, (v) => decodeResults(v, FORMER_SHIFT), "corruptResults");
    if (r !== undefined && save(storage, KEYS.results, encodeResults(r.results))) {
      try { storage.removeItem(FORMER_RESULTS); } catch { /* storage disabled */ }
    }
  }
  r ??= { results: {}, dropped: 0 };
  if (r.dropped) {
    notices.push("droppedResults");
    save(storage, KEYS.results, encodeResults(r.results));
  }
  const streak = read(KEYS.streak, decodeStreak, null) ?? null;
  const review = read(KEYS.review, (v) => (game ? decodeCurrentReview(v, game) : null), "corruptReview") ?? null;
  if (!review) saveReview(storage, null); // none, another game's, or broken: gone
  return { game, settings, history: h.history, results: r.results, streak, review, notices: notices.filter(Boolean) };
}

// Writes value as JSON; false when the storage refused (full or disabled): the page
// still works, it just does not remember.
export function save(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}
