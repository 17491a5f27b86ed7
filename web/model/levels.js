// The engine's levels for people: a numbered ladder, 1 (weakest) .. the top, read from
// levels-data.js (generated from py/gomoku/engine/levels.py: the numbers, keys, node
// budgets, times and ratings live there and nowhere else) and named in the page's text
// (i18n-levels.js, by key). Pure data and functions, no DOM.
//
// A level is {number, key, nodes, timeMs, rating, ratingError}: with nodes it is node-limited (the engine worker plays it from the
// position, the level and the game's seed alone; nodes 0: the bottom rungs, which play
// from the pattern tables without a search); with timeMs it is timed, the full engine on
// the clock (timeMs 0: it thinks until Move now). rating / ratingError: Elo on the scale
// whose fixed point is the greedy reference player at RATING_ANCHOR (800), null until
// measured.
//
// The game keeps its level as a number. Older pages kept a key of their think time
// (t03 .. inf, and before that fast / normal / strong), and earlier pages numbered
// the ladder from what is now level 1 + FORMER_SHIFT (the bottom rungs came below it):
// what is stored says which ladder its numbers are on (LADDER_VERSION), and migrateLevel
// maps the older ones to the same opponent.

import { msg, textIn } from "./i18n.js";
import { DEFAULT_LEVEL, FORMER_SHIFT, LEVEL_DATA, RATING_ANCHOR } from "./levels-data.js";

export { DEFAULT_LEVEL, FORMER_SHIFT, LEVEL_DATA, RATING_ANCHOR };

// The ladder stored numbers are on: stored values without it (or with another) are on the
// former ladder, FORMER_SHIFT lower.
export const LADDER_VERSION = 2;

const BY_NUMBER = new Map(LEVEL_DATA.map((level) => [level.number, level]));
// the ladder in its order (by number)
const LADDER = [...LEVEL_DATA].sort((a, b) => a.number - b.number);

// The level keys of older pages and the level each one becomes: the timed levels up to 3 s
// become node levels of about their strength (0.3 s Strong, 1 s and 3 s Advanced), 10 s
// Expert, unlimited Unlimited.
export const OLD_LEVELS = { t03: 9, t1: 10, t3: 10, t10: 11, inf: 12, fast: 9, normal: 10, strong: 10 };

export const LEVEL_NUMBERS = LADDER.map((level) => level.number);
export const TOP_LEVEL = LADDER[LADDER.length - 1].number;

// Is n the number of a level (an integer in the table)?
export const isLevel = (n) => Number.isInteger(n) && BY_NUMBER.has(n);

// The level numbered n (a level object), or null.
export const levelOf = (n) => (isLevel(n) ? BY_NUMBER.get(n) : null);

// The level after n on the ladder (a level object), or null at the top or for no level.
export function nextLevel(n) {
  if (!isLevel(n)) return null;
  const i = LADDER.findIndex((level) => level.number === n);
  return LADDER[i + 1] ?? null;
}

// Is the level (a level object or its number) node-limited (else timed)? The bottom rungs
// (nodes 0) are: their move is a function of the position, the level and the seed too.
export function nodeLimited(level) {
  const lv = typeof level === "number" ? levelOf(level) : level;
  return !!lv && Number.isInteger(lv.nodes) && lv.nodes >= 0;
}

// A timed level's think time per move in ms (0: until Move now); null for a node level.
export function thinkMs(level) {
  const lv = typeof level === "number" ? levelOf(level) : level;
  return lv && !nodeLimited(lv) && Number.isInteger(lv.timeMs) ? lv.timeMs : null;
}

// The level number a stored value stands for: an older page's key migrated; a number on
// the ladder `ladder` (the stored value's own: LADDER_VERSION, or anything else, none
// included, for the former ladder, whose numbers are FORMER_SHIFT lower) moved onto this
// one; null for anything else (the caller decides what an unknown level becomes).
export function migrateLevel(value, ladder) {
  if (typeof value === "string") {
    return Object.hasOwn(OLD_LEVELS, value) && isLevel(OLD_LEVELS[value]) ? OLD_LEVELS[value] : null;
  }
  if (!Number.isInteger(value)) return null;
  if (ladder !== LADDER_VERSION && value < 1) return null; // the former ladder began at 1 too
  const n = ladder === LADDER_VERSION ? value : value + FORMER_SHIFT;
  return isLevel(n) ? n : null;
}

// The level below n on the ladder (a level object), or null at the bottom or for no level.
export function previousLevel(n) {
  if (!isLevel(n)) return null;
  const i = LADDER.findIndex((level) => level.number === n);
  return LADDER[i - 1] ?? null;
}

// The level's name / one-line description in a language ("en", "zh"; English when the
// page's text has none in that language).
export const levelName = (level, lang) => textIn(lang, "level_" + level.key);
export const levelDescription = (level, lang) => textIn(lang, "levelAbout_" + level.key);
// The level's name as a message (shown in the language of the moment).
export const levelNameMessage = (level) => msg("level_" + level.key);

// The level's rating as text with its error ("1250 ± 60", "850"), or null when not yet
// measured: for the dialog's details line (the choosers show it rounded: labelParts).
export function ratingText(level) {
  if (!Number.isFinite(level.rating)) return null;
  const r = String(Math.round(level.rating));
  return Number.isFinite(level.ratingError) ? `${r} ± ${Math.round(level.ratingError)}` : r;
}

// A rating as a person reads it in a chooser: to the nearest 50 ("≈ 850"; the error is
// over 50, so finer digits would say more than is known).
export const roundedRating = (rating) => String(Math.round(rating / 50) * 50);

// The parts of the level's label in a language: {n, name, rating} (rating: roundedRating
// or null); the page's words (status.js) put them together.
export function labelParts(level, lang) {
  return { n: level.number, name: levelName(level, lang), rating: Number.isFinite(level.rating) ? roundedRating(level.rating) : null };
}

// ---- the coach's default ----------------------------------------------------------------

// The coach (coach.js: the threats marked on the board) is on by default at the levels up
// to this one and off above, until the player chooses (settings.js coach): the three bottom
// rungs and Newcomer (the former level 1), the levels rated at or below the greedy player.
export const COACH_DEFAULT_UP_TO = 1 + FORMER_SHIFT;

// Is the coach on by default at level n (a level number)?
export const coachByDefault = (n) => isLevel(n) && n <= COACH_DEFAULT_UP_TO;
