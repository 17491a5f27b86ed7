// The engine's scores, read in one place. Pure functions, no DOM.
//
// The engine reports a score from the side to move's view twice: `score`, a number
// (centi-stones; large values mean a forced win or loss), and `score_text`, what it means:
// "+0.8", "-1.2", "win in 5" or "loss in 4" (py/gomoku/evaluation.py score_text). Every
// part of the page that looks at a score goes through this module: the analysis marks and
// their spoken form (analysis.js), when an analysis or unlimited search is solved (the
// jobs), and the thinking panel's score and evaluation bar (the colours' view).

import { BLACK, WHITE } from "./rules.js";

const EVAL_RE = /^[+-]\d+\.\d$/;
const MATE_RE = /^(win|loss) in (\d+)$/;

// "+0.8" -> {kind: "eval", value: 0.8}; "win in 5" -> {kind: "win", n: 5}; "loss in 4" ->
// {kind: "loss", n: 4}; null for anything else.
export function parseScoreText(text) {
  if (typeof text !== "string") return null;
  if (EVAL_RE.test(text)) return { kind: "eval", value: Number(text) };
  const m = MATE_RE.exec(text);
  return m ? { kind: m[1], n: Number(m[2]) } : null;
}

// Has the search solved the position (a forced win or loss found)? reply: an info or
// result message.
export function isDecisive(reply) {
  const s = parseScoreText(reply ? reply.score_text : null);
  return !!s && s.kind !== "eval";
}

// Below this (in centi-stones, either way) the position is called even.
const EVEN_BELOW = 5;

// A reply's score from the colours' view, stm being the colour to move in the searched
// position. One of
//   {kind: "wins", color, n, black}   color wins in n moves
//   {kind: "even", black: 0.5}
//   {kind: "ahead", color, value, black}   color is ahead by value (stones, "1.2")
// where black is black's share of the evaluation bar (0..1).
export function colourScore(reply, stm) {
  const s = parseScoreText(String(reply.score_text ?? ""));
  if (s && s.kind !== "eval") {
    const color = s.kind === "win" ? stm : 3 - stm;
    return { kind: "wins", color, n: s.n, black: color === BLACK ? 1 : 0 };
  }
  const own = Number(reply.score) || 0;
  const b = stm === BLACK ? own : -own;
  if (Math.abs(b) < EVEN_BELOW) return { kind: "even", black: 0.5 };
  return {
    kind: "ahead", color: b > 0 ? BLACK : WHITE, value: (Math.abs(b) / 100).toFixed(1),
    black: 1 / (1 + Math.exp(-b / 400)),
  };
}
