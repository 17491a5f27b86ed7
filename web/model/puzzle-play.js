// The puzzles page's state and words (puzzles.html; the page is puzzles-page.js, its views
// ui/puzzles-view.js): which puzzle or exercise of "learn from your mistakes" is on the
// board, what the player may do now (phase), and what the page says about it. Pure:
// plain data and functions, no DOM, no storage, no engine (node-testable).
//
// The state: {puzzle, moves, phase, made, daily, wrongMove, token, verdict, mode,
// exercises, exIndex, review, first}. phase: "idle" (no puzzle), "solve" / "continue"
// (the player's move: the first / a later one), "checking" (the engine judges it),
// "reply" (the opponent answers), "done", "failed", "wrong" (an exercise's move refused),
// "shown" (the solution is on the board), "reviewing" (the last game is reviewed first).
// token: a counter bumped whenever the board changes puzzle, so that a late answer of
// the engine about an earlier one is dropped. mode: "puzzle" or "mistakes".

import { cellText } from "./coords.js";
import { currentLanguage, t } from "./i18n.js";
import { movesToWin, record, sideOf, utcDate } from "./puzzles.js";

export const REFUTE_NODES = 4000; // the engine's budget for a refutation: small and fixed
export const REPLY_DELAY_MS = 350; // the opponent's answer comes after at least this long
// a judgement's node budgets: the first look, then a deeper one when it could not tell
export const JUDGE_NODES = [20000, 80000];
export const JUDGE_DEADLINE_MS = 60000;

export function newPlayState() {
  return {
    puzzle: null, moves: [], phase: "idle", made: 0, daily: false, wrongMove: null, token: 0, verdict: "",
    mode: "puzzle", exercises: [], exIndex: 0, review: null, first: 1, // learn from your mistakes
  };
}

// ---- words ------------------------------------------------------------------------------

export const colourName = (c) => (c === 1 ? t("pzBlack") : t("pzWhite"));
const themeName = (th) => ({ vcf: t("pzThemeVcf"), vct: t("pzThemeVct"), defend: t("pzThemeDefend") })[th];
const ruleName = (r) => ({ freestyle: t("pzRuleFreestyle"), standard: t("pzRuleStandard"), renju: t("pzRuleRenju") })[r];
export const cellsText = (cells, size) => cells.map(([x, y]) => cellText(x, y, size)).join(" ");

// Sentences one after another: a space between them in English, none in Chinese.
export const gap = () => (currentLanguage() === "zh" ? "" : " ");
// The sentences [[key, vars], ...] of a verdict's plan (puzzles.js verdictPlan) as text.
export const say = (says) => says.map(([key, vars]) => t(key, vars)).join(gap());

// What the puzzle asks of the player.
export function promptText(p) {
  const color = colourName(sideOf(p));
  if (p.theme === "vcf") return t("pzPromptVcf", { color, n: movesToWin(p) });
  if (p.theme === "vct") return t("pzPromptVct", { color });
  return t("pzPromptDefend", { color });
}

// An exercise's prompt and line about it.
function mistakeText(st) {
  const ex = st.exercises[st.exIndex];
  const size = st.puzzle.size;
  return {
    prompt: t("pzMistakePrompt", { move: cellText(ex.played[0], ex.played[1], size), color: colourName(ex.colour).toLowerCase() }),
    info: t("pzMistakeInfo", { n: ex.index, cls: t("cls_" + ex.cls), i: st.exIndex + 1, total: st.exercises.length }),
  };
}

// The page's prompt and the line under it ({prompt, info}) at time now (ms).
export function headline(st, now) {
  const p = st.puzzle;
  if (st.mode === "mistakes") return mistakeText(st);
  if (!p) return { prompt: t("pzNone"), info: "" };
  const daily = st.daily ? t("pzDailyInfo", { date: utcDate(now) }) + " " : "";
  return {
    prompt: promptText(p),
    info: daily + t("pzInfo", { id: p.id, theme: themeName(p.theme), rule: ruleName(p.rule), rating: p.rating ?? "?" }),
  };
}

// ---- the state's changes ----------------------------------------------------------------

// The side the player plays: the puzzle's side to move, or the mistake's colour.
export const solverColour = (st) => (st.mode === "mistakes" ? st.exercises[st.exIndex].colour : sideOf(st.puzzle));

// A line of moves as the board's overlay: numbered stones, the first of colour first.
export const lineOverlay = (line, first) => line.map(([x, y], i) => ({ x, y, color: i % 2 === 0 ? first : 3 - first, label: i + 1 }));

// The puzzle p (null: none) on the board from its start.
export function startPuzzle(st, p, { daily = false } = {}) {
  st.mode = "puzzle";
  st.token += 1;
  st.puzzle = p;
  st.daily = daily;
  st.wrongMove = null;
  st.moves = p ? p.moves.map((m) => [...m]) : [];
  st.phase = p ? "solve" : "idle";
  if (p) st.made = 0; // the solver's moves made, the opponent's answer given
}

// Exercise i of the mistakes on the board (game: the game they come from; null: the same
// as the exercise on the board now), as a stand-in puzzle of its size and rule.
export function startExercise(st, i, game = null) {
  const ex = st.exercises[i];
  st.exIndex = i;
  st.token += 1;
  const size = game ? game.size : st.puzzle.size;
  const rule = game ? game.rule : st.puzzle.rule;
  st.puzzle = { id: "mistake", size, rule, theme: "mistake", depth: 0, rating: null, moves: ex.moves, solutions: [ex.better], line: ex.line };
  st.daily = false;
  st.moves = ex.moves.map((m) => [...m]);
  st.phase = "solve";
}

// The move was taken back: the puzzle asks again.
export function takenBack(st) {
  st.moves.pop();
  st.phase = st.made ? "continue" : "solve";
}

// The solution on the board (the phase "shown"): {overlay, text} to show.
export function showSolution(st) {
  const p = st.puzzle;
  st.token += 1;
  st.phase = "shown";
  if (st.mode === "mistakes") {
    const ex = st.exercises[st.exIndex];
    st.moves = ex.moves.map((m) => [...m]);
    const better = { better: cellText(ex.better[0], ex.better[1], p.size), line: cellsText(ex.line, p.size) };
    return { overlay: lineOverlay(ex.line, ex.colour), text: t(ex.line.length > 1 ? "pzBetterWas" : "pzBetterMove", better) };
  }
  st.moves = p.moves.map((m) => [...m]);
  const first = p.theme === "defend" ? 3 - sideOf(p) : sideOf(p);
  const line = p.theme === "defend" ? p.solutions.slice(0, 1) : p.line;
  // the solution's first move, the other first moves accepted, and its line on the board
  const [move] = line.length ? line : p.solutions;
  const others = p.solutions.filter(([x, y]) => x !== move[0] || y !== move[1]);
  const vars = { move: cellText(move[0], move[1], p.size), others: cellsText(others, p.size) };
  const text = t(others.length ? "pzSolutionAlso" : "pzSolutionMove", vars) +
    (line.length > 1 ? " " + t("pzSolutionLine", { line: cellsText(line, p.size) }) : "");
  return { overlay: lineOverlay(line, p.theme === "defend" ? sideOf(p) : first), text };
}

// The puzzle on the board counted as solved or not on day date: {progress (the new one),
// before, after (the ratings), counted (false: done before, not counted again)}.
export function counted(progress, puzzle, solved, date) {
  const before = progress.rating;
  const first = !(puzzle.id in progress.done);
  const next = record(progress, puzzle, solved, date);
  return { progress: next, before, after: next.rating, counted: first };
}

// What the page says when the puzzle is solved (extra: the verdict's words first) or
// failed (text: the verdict's words), from counted's result r.
export const solvedText = (r, extra = "") => (extra ? extra + gap() : "") +
  (r.counted ? t("pzSolved", { before: r.before, after: r.after }) : t("pzSolvedAgain", { rating: r.after }));
export const failedText = (r, text) => text + (r.counted ? gap() + t("pzFailed", { before: r.before, after: r.after }) : "");
