// Puzzles: the collection, the daily choice, the player's rating and the judging of a
// move. Pure logic, no DOM (node --test: tests/page/node/puzzles.test.mjs).
//
// A puzzle (from puzzles-data.js, proven by the engine's solver at build time):
// {id, rule, size, theme: "vcf" | "vct" | "defend", depth, rating, moves, solutions, line}.
// The solving side is the side to move after `moves` (black first). `solutions` is every
// accepted first move; `line` the winning line of the first solution (vcf, vct) or the
// opponent's threat (defend).

import { cellText } from "./coords.js";
import { DEFAULT_LEVEL, LEVEL_DATA } from "./levels-data.js";
import { winLine } from "./rules.js";
import { forbiddenShape } from "./renju.js";

export const THEMES = ["vcf", "vct", "defend"];
// A new player starts at the rating of the page's default level: puzzle ratings are the
// levels' ratings, so the two scales stay one (1500 if that level is not rated).
export const START_RATING = LEVEL_DATA.find((l) => l.number === DEFAULT_LEVEL)?.rating ?? 1500;
export const HISTORY_MAX = 50;
const V1_RD = 200; // the deviation given to progress stored in format 1
const LETTERS = "abcdefghijklmnopqrst";

function cells(text, size) {
  const out = [];
  for (let i = 0; i + 1 < text.length; i += 2) {
    const x = LETTERS.indexOf(text[i]), y = LETTERS.indexOf(text[i + 1]);
    if (x < 0 || y < 0 || x >= size || y >= size) throw new Error(`bad cell ${text.slice(i, i + 2)}`);
    out.push([x, y]);
  }
  return out;
}

// A row of puzzles-data.js -> a puzzle object. rating: measured by which levels of the
// ladder solve the puzzle (py/gomoku_lab/puzzle_rating.py), ratingRd its deviation (null:
// not measured).
export function decodeRow([id, rule, size, theme, depth, rating, ratingRd, moves, solutions, line]) {
  return {
    id, rule, size, theme, depth, rating, ratingRd,
    moves: cells(moves, size), solutions: cells(solutions, size), line: cells(line, size),
  };
}

export const sideOf = (puzzle) => (puzzle.moves.length % 2 === 0 ? 1 : 2);

// The solver's moves to the five along the puzzle's line (vcf, vct): its moves in the
// line, and one more when the line ends before the five (renju: a four whose block black
// may not play).
export function movesToWin(puzzle) {
  const all = [...puzzle.moves, ...puzzle.line];
  if (!puzzle.line.length) return 0;
  const [x, y] = all[all.length - 1];
  const five = winLine(stonesOf(all), x, y, puzzle.size, puzzle.rule, 0);
  return Math.ceil(puzzle.line.length / 2) + (five ? 0 : 1);
}
export const sameCell = (a, b) => a[0] === b[0] && a[1] === b[1];

export function filterPuzzles(list, { theme = "all", rule = "all" } = {}) {
  return list.filter((p) => (theme === "all" || p.theme === theme) && (rule === "all" || p.rule === rule));
}

// FNV-1a of a string: a hash that is the same in every browser.
export function hashString(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

// The date's puzzle: the same for everyone on that date (UTC, "YYYY-MM-DD"), no server.
export function dailyPuzzle(list, date) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a date: ${date}`);
  if (!list.length) return null;
  const sorted = [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sorted[hashString("daily:" + date) % sorted.length];
}

export const utcDate = (now) => new Date(now).toISOString().slice(0, 10);

// The next puzzle to offer: not tried yet, rating closest to the player's, ties by id.
export function nextPuzzle(list, progress, skip = null) {
  const open = list.filter((p) => !(p.id in progress.done) && p.id !== skip);
  const pool = open.length ? open : list.filter((p) => p.id !== skip);
  if (!pool.length) return list[0] || null;
  let best = null;
  for (const p of pool) {
    const d = Math.abs((p.rating ?? START_RATING) - progress.rating);
    if (!best || d < best.d || (d === best.d && p.id < best.p.id)) best = { p, d };
  }
  return best.p;
}

// The player's rating: Glicko (Glickman 1999), each rated puzzle a game against the
// puzzle's rating and deviation. A new player's rating is uncertain (START_RD), so it moves
// fast at first; each result makes it surer, down to MIN_RD (so that it keeps moving); a
// day without puzzles lets it move faster again (RD_PER_DAY, back to START_RD after about
// 100 days). A miss at equal ratings costs what a solve gains.
export const START_RD = 350;
export const MIN_RD = 60;
export const RD_PER_DAY = 35;
export const PUZZLE_RD = 150; // a puzzle's deviation when its data has none
const Q = Math.log(10) / 400;
const gOf = (rd) => 1 / Math.sqrt(1 + (3 * Q * Q * rd * rd) / (Math.PI * Math.PI));

// The player's expected score against a puzzle (the chance to solve it).
export function expected(player, puzzle, puzzleRd = 0) {
  return 1 / (1 + 10 ** ((-gOf(puzzleRd) * (player - puzzle)) / 400));
}

// The deviation after `days` without a rated puzzle.
export function aged(rd, days) {
  return Math.min(START_RD, Math.sqrt(rd * rd + RD_PER_DAY * RD_PER_DAY * Math.max(0, days)));
}

// One result: {rating, rd} after solving (or missing) a puzzle rated `puzzle` +/- puzzleRd.
export function rated(player, rd, puzzle, puzzleRd, solved) {
  const g = gOf(puzzleRd);
  const e = expected(player, puzzle, puzzleRd);
  const inverse = 1 / (rd * rd) + Q * Q * g * g * e * (1 - e);
  return {
    rating: Math.round(player + (Q / inverse) * g * ((solved ? 1 : 0) - e)),
    rd: Math.max(MIN_RD, Math.round(Math.sqrt(1 / inverse))),
  };
}

const daysBetween = (a, b) => (Date.parse(b + "T00:00:00Z") - Date.parse(a + "T00:00:00Z")) / 86400000;

export function newProgress() {
  return { v: 2, rating: START_RATING, rd: START_RD, last: null, games: 0, streak: 0, best: 0, history: [], done: {} };
}

// The result of a puzzle's first attempt (a puzzle counts once for the rating: tries after
// the first, and puzzles already done, change nothing but the streak's display). `date`:
// today, UTC "YYYY-MM-DD".
export function record(progress, puzzle, solved, date) {
  if (puzzle.id in progress.done) return progress;
  const before = progress.rating;
  const rd = progress.last ? aged(progress.rd, daysBetween(progress.last, date)) : progress.rd;
  const after = rated(before, rd, puzzle.rating ?? START_RATING, puzzle.ratingRd ?? PUZZLE_RD, solved);
  const streak = solved ? progress.streak + 1 : 0;
  const entry = { id: puzzle.id, solved, before, after: after.rating, date };
  return {
    ...progress,
    rating: after.rating,
    rd: after.rd,
    last: date,
    games: progress.games + 1,
    streak,
    best: Math.max(progress.best, streak),
    history: [entry, ...progress.history].slice(0, HISTORY_MAX),
    done: { ...progress.done, [puzzle.id]: solved ? "solved" : "failed" },
  };
}

// Stored progress -> progress, or throws saying what is wrong (the page then drops it
// with a notice; nothing else is lost).
export function decodeProgress(v) {
  const bad = (why) => { throw new Error(`puzzle progress: ${why}`); };
  if (!v || typeof v !== "object" || (v.v !== 1 && v.v !== 2)) bad("unknown format");
  if (!Number.isInteger(v.rating) || Math.abs(v.rating) > 10000) bad("rating is not a rating");
  // format 1 (Elo, before the deviation was kept): its rating, as sure as after a few games
  const rd = v.v === 1 ? V1_RD : v.rd;
  const last = v.v === 1 ? null : v.last;
  if (!Number.isInteger(rd) || rd < MIN_RD || rd > START_RD) bad("rd is not a deviation");
  if (last !== null && (typeof last !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(last))) bad("last is not a date");
  for (const k of ["games", "streak", "best"]) {
    if (!Number.isInteger(v[k]) || v[k] < 0 || v[k] > 1000000) bad(`${k} is not a count`);
  }
  if (!Array.isArray(v.history) || v.history.length > HISTORY_MAX) bad("history is not a list");
  for (const e of v.history) {
    if (!e || typeof e.id !== "string" || typeof e.solved !== "boolean" || !Number.isInteger(e.before) ||
        !Number.isInteger(e.after) || typeof e.date !== "string") bad("a history entry is malformed");
  }
  if (!v.done || typeof v.done !== "object" || Array.isArray(v.done)) bad("done is not a map");
  for (const [id, r] of Object.entries(v.done)) {
    if (typeof id !== "string" || (r !== "solved" && r !== "failed")) bad("a result is malformed");
  }
  return { v: 2, rating: v.rating, rd, last, games: v.games, streak: v.streak, best: v.best,
    history: v.history.map((e) => ({ ...e })), done: { ...v.done } };
}

// --- the position ---------------------------------------------------------------------

// stones map "x,y" -> player 0 (black) / 1 (white), as rules.js counts them.
export function stonesOf(moves) {
  const stones = new Map();
  moves.forEach((m, i) => stones.set(m[0] + "," + m[1], i % 2));
  return stones;
}

// The empty cells where `colour` (1 black, 2 white) would complete a winning line.
export function fiveCells(stones, colour, size, rule) {
  const out = [];
  const who = colour - 1;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const key = x + "," + y;
      if (stones.has(key)) continue;
      stones.set(key, who);
      if (winLine(stones, x, y, size, rule, 0)) out.push([x, y]);
      stones.delete(key);
    }
  }
  return out;
}

// Why the solving side may not play (x, y): "taken", a renju shape, or null.
export function illegal(stones, x, y, colour, size, rule) {
  if (stones.has(x + "," + y)) return "taken";
  if (rule === "renju" && colour === 1) return forbiddenShape(stones, x, y, size, 0);
  return null;
}

// The play-out of a VCF after a correct first move: the solver keeps making fours and the
// defender blocks each (its only reply), until the five. After the solver's stone (already
// in `stones`) at `move`: {result: "won"} (a five), {result: "block", reply} (a four: the
// defender's block; with two five points the first is blocked), or {result: "lost"} (no
// four: a VCF is fours only; or the fours allowed are spent; or the defender has a five).
export function vcfStep(stones, move, colour, size, rule, movesLeft) {
  if (winLine(stones, move[0], move[1], size, rule, 0)) return { result: "won" };
  if (movesLeft <= 0) return { result: "lost" };
  const fives = fiveCells(stones, colour, size, rule);
  if (!fives.length) return { result: "lost" };
  // the defender makes its own five first when the solver left one open
  if (fiveCells(stones, 3 - colour, size, rule).length) return { result: "lost" };
  const reply = fives[0];
  // renju: a block black may not play is no block (the five follows)
  if (rule === "renju" && colour === 2 && forbiddenShape(stones, reply[0], reply[1], size, 0)) {
    return { result: "won", trap: reply };
  }
  return { result: "block", reply };
}

// --- judging by the position -------------------------------------------------------------

// The engine judges every move of the solver by the position it leaves (the worker's
// "judge" message, py/gomoku/puzzles/judge.py): a verdict {outcome, reply, line, by,
// movesToWin, trap}, outcome one of JUDGE_OUTCOMES. These turn it into what the page does.
export const JUDGE_OUTCOMES = ["solved", "wins", "longer", "other", "lost", "unclear"];

// The moves a win-by-fours puzzle still allows, this one included (its prompt's count
// less the solver's moves made); null for the other themes (no count is promised).
export function movesLeft(puzzle, made) {
  if (puzzle.theme !== "vcf") return null;
  return Math.max(1, movesToWin(puzzle) - made);
}

// What the page does with a verdict on the solver's `move` ([x, y]) in `puzzle`:
// {action, says, play, overlay}. action: "solved" (the puzzle is won and counted),
// "reply" (the opponent's `play` is played after a moment and the puzzle goes on),
// "failed" (counted as missed; the opponent's answer and its line drawn as `overlay`),
// "again" (the move is taken back and nothing counted: it also wins but not in the
// puzzle's kind, or the engine could not tell). says: the sentences, [key, vars] each
// (i18n keys; cells written as on the board).
export function verdictPlan(puzzle, verdict, move) {
  const size = puzzle.size;
  const name = ([x, y]) => cellText(x, y, size);
  const solver = sideOf(puzzle);
  const opponent = { key: solver === 1 ? "pzWhite" : "pzBlack" };
  const defence = puzzle.theme === "defend";
  const m = name(move);
  const reply = verdict.reply ? name(verdict.reply) : null;
  const keepGoing = puzzle.theme === "vcf" ? "pzKeepGoing" : "pzKeepGoingVct";
  switch (verdict.outcome) {
    case "solved": {
      const says = [];
      if (verdict.trap) says.push(["pzTrap", { move: name(verdict.trap) }]);
      else if (defence) says.push(["pzDefended", { move: m }]);
      return { action: "solved", says, play: defence && verdict.reply ? verdict.reply : null, overlay: [] };
    }
    case "wins":
    case "longer": {
      const says = verdict.outcome === "longer" ? [["pzLonger", { move: m }]] : [];
      if (defence) says.push(["pzStillThreat", { color: opponent, move: reply }]);
      else says.push(["pzAnswers", { color: opponent, move: reply }], [keepGoing, {}]);
      return { action: "reply", says, play: verdict.reply, overlay: [] };
    }
    case "other":
      return { action: "again", says: [[puzzle.theme === "vct" ? "pzAlsoWinsThreats" : "pzAlsoWinsFours", { move: m }]], play: null, overlay: [] };
    case "lost": {
      const says = [];
      if (reply) says.push([defence ? "pzLostDefence" : "pzLostAttack", { move: m, color: opponent, reply }]);
      else says.push(["pzLostNoReply", { move: m }]);
      if (verdict.line.length > 1) says.push(["pzThen", { line: verdict.line.slice(1).map(name).join(" ") }]);
      return { action: "failed", says, play: null, overlay: verdict.line };
    }
    case "unclear":
      return { action: "again", says: [[defence ? "pzUnclearDefence" : "pzUnclear", { move: m }]], play: null, overlay: [] };
    default:
      throw new Error(`unknown verdict ${verdict.outcome}`);
  }
}

// Without the engine (it failed to load or stopped answering), the puzzle's own proof
// judges what it can: a five, the stored first moves, and in a win by fours each four
// answered by its block. Anything else is not judged: "unjudged" (the page takes the
// move back and says the engine is not there). `stones` holds the move already.
export function localVerdict(puzzle, stones, move, made) {
  const colour = sideOf(puzzle);
  const { size, rule } = puzzle;
  if (winLine(stones, move[0], move[1], size, rule, 0)) return { outcome: "solved", reply: null, line: [], by: "five" };
  const first = made === 0 && puzzle.solutions.some((s) => sameCell(s, move));
  if (puzzle.theme !== "vcf") return first ? { outcome: "solved", reply: null, line: [] } : { outcome: "unjudged" };
  const step = vcfStep(stones, move, colour, size, rule, Infinity);
  if (step.result === "won") return { outcome: "solved", reply: null, line: [], trap: step.trap };
  if (step.result === "block" && (first || made > 0)) return { outcome: "wins", reply: step.reply, line: [step.reply] };
  return { outcome: "unjudged" };
}
