// The engine's levels for people: a numbered ladder, 1 (weakest) .. the top, read from
// levels-data.js (generated from py/gomoku/engine/levels.py: the numbers, names,
// descriptions, node budgets, times and ratings live there and nowhere else). Pure data and
// functions, no DOM.
//
// A level is {number, key, name: {en, zh}, description: {en, zh}, nodes, timeMs, rating,
// ratingError}: with nodes it is node-limited (the engine worker plays it from the
// position, the level and the game's seed alone); with timeMs it is timed, the full
// engine on the clock (timeMs 0: it thinks until Move now). rating / ratingError: Elo over
// the greedy reference player, null until measured.
//
// The game keeps its level as a number. Older pages kept a key of their think time
// (t03 .. inf, and before that fast / normal / strong): migrateLevel maps them.

import { DEFAULT_LEVEL, LEVEL_DATA } from "./levels-data.js";

export { DEFAULT_LEVEL, LEVEL_DATA };

const BY_NUMBER = new Map(LEVEL_DATA.map((level) => [level.number, level]));
// the ladder in its order (by number)
const LADDER = [...LEVEL_DATA].sort((a, b) => a.number - b.number);

// The level keys of older pages and the level each one becomes: the timed levels up to 3 s
// become node levels of about their strength, 10 s Expert, unlimited Unlimited.
export const OLD_LEVELS = { t03: 6, t1: 7, t3: 7, t10: 8, inf: 9, fast: 6, normal: 7, strong: 7 };

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

// Is the level (a level object or its number) node-limited (else timed)?
export function nodeLimited(level) {
  const lv = typeof level === "number" ? levelOf(level) : level;
  return !!lv && Number.isInteger(lv.nodes) && lv.nodes > 0;
}

// A timed level's think time per move in ms (0: until Move now); null for a node level.
export function thinkMs(level) {
  const lv = typeof level === "number" ? levelOf(level) : level;
  return lv && !nodeLimited(lv) && Number.isInteger(lv.timeMs) ? lv.timeMs : null;
}

// The level number a stored value stands for: a level number as it is, an older page's key
// migrated; null for anything else (the caller decides what an unknown level becomes).
export function migrateLevel(value) {
  if (isLevel(value)) return value;
  if (typeof value === "string" && Object.hasOwn(OLD_LEVELS, value) && isLevel(OLD_LEVELS[value])) return OLD_LEVELS[value];
  return null;
}

const inLanguage = (texts, lang) => (texts && (texts[lang] ?? texts.en)) || "";

// The level's name / one-line description in a language ("en", "zh"; English when the
// table has no text in that language).
export const levelName = (level, lang) => inLanguage(level.name, lang);
export const levelDescription = (level, lang) => inLanguage(level.description, lang);

// The level's rating as text ("350", "-40", "1200 ± 60"), or null when not yet measured.
export function ratingText(level) {
  if (!Number.isFinite(level.rating)) return null;
  const r = String(Math.round(level.rating));
  return Number.isFinite(level.ratingError) ? `${r} ± ${Math.round(level.ratingError)}` : r;
}

// The parts of the level's label in a language: {n, name, rating} (rating: ratingText or
// null); the page's words (status.js) put them together.
export function labelParts(level, lang) {
  return { n: level.number, name: levelName(level, lang), rating: Number.isFinite(level.rating) ? String(Math.round(level.rating)) : null };
}

// ---- the coach's default ----------------------------------------------------------------

// The coach (coach.js: the threats marked on the board) is on by default at the levels up
// to this one and off above, until the player chooses (settings.js coach).
export const COACH_DEFAULT_UP_TO = 2;

// Is the coach on by default at level n (a level number)?
export const coachByDefault = (n) => isLevel(n) && n <= COACH_DEFAULT_UP_TO;
