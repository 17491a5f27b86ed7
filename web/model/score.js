// The engine's scores, read and put into words in one place. Pure functions, no DOM.
//
// The engine sends a score as data, from the side to move's view (py/gomoku/search/score.py):
// {cp: n} (the evaluation in centi-stones, written "+1.2"), {win: n} (the side to move makes
// five on its n-th move) or {loss: n} (the other side does, on its n-th move); and with
// every info and result `black`, black's winning chance (0..1) on the engine's one curve,
// the review graph's too. Every part of the page that looks at a score goes through this
// module: the analysis marks, list and spoken form (scoreLabel, scoreWords: words through
// the page's i18n `t`, passed in so that this module stays pure), the canvas's
// data-top-moves (scoreCode), when a search has solved the position (the jobs), and the
// thinking panel's score and evaluation bar (colourScore).

import { BLACK, WHITE } from "./rules.js";

const KINDS = ["cp", "win", "loss"];

// {cp: n} with n an integer, or {win: n} / {loss: n} with n >= 1: nothing else.
export function isScore(score) {
  if (score === null || typeof score !== "object" || Array.isArray(score)) return false;
  const keys = Object.keys(score);
  if (keys.length !== 1 || !KINDS.includes(keys[0])) return false;
  const n = score[keys[0]];
  return Number.isInteger(n) && (keys[0] === "cp" || n >= 1);
}

// {kind: "cp" | "win" | "loss", n} of a score; throws naming what is not one.
function read(score) {
  if (!isScore(score)) throw new Error(`not a score: ${JSON.stringify(score)}`);
  const kind = Object.keys(score)[0];
  return { kind, n: score[kind] };
}

// "+0.8", "-1.2", "+0.0": centi-stones as stones, a sign always, one decimal.
export function evalText(cp) {
  return (cp < 0 ? "-" : "+") + (Math.abs(cp) / 100).toFixed(1);
}

// Has the search solved the position (a forced win or loss found)? reply: an info or
// result message.
export function isDecisive(reply) {
  return !!reply && isScore(reply.score) && !("cp" in reply.score);
}

// The board's mark: "+0.8", or "W5" / "L4" ("胜5" / "负4"); t: i18n.js's t.
export function scoreLabel(score, t) {
  const s = read(score);
  if (s.kind === "cp") return evalText(s.n);
  return (s.kind === "win" ? t("markWin") : t("markLoss")) + s.n;
}

// The list's and a screen reader's words: "+0.8", "win in 5" ("5 手内获胜"), "loss in 4".
export function scoreWords(score, t) {
  const s = read(score);
  if (s.kind === "cp") return evalText(s.n);
  return s.kind === "win" ? t("topWin", { n: s.n }) : t("topLoss", { n: s.n });
}

// The same in one word of no language, for data attributes: "+0.8", "win-in-5", "loss-in-4".
export function scoreCode(score) {
  const s = read(score);
  return s.kind === "cp" ? evalText(s.n) : `${s.kind}-in-${s.n}`;
}

// Below this (in centi-stones, either way) the position is called even.
const EVEN_BELOW = 5;

const isChance = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;

// A reply's score from the colours' view, stm being the colour to move in the searched
// position. One of
//   {kind: "wins", color, n, black}   color wins in n moves
//   {kind: "even", black}
//   {kind: "ahead", color, value, black}   color is ahead by value (stones, "1.2")
// where black is black's share of the evaluation bar (0..1): the engine's `black`, 1 or 0
// for a win (0.5 when a reply has none).
export function colourScore(reply, stm) {
  const score = reply ? reply.score : undefined;
  const s = isScore(score) ? read(score) : { kind: "cp", n: 0 };
  if (s.kind !== "cp") {
    const color = s.kind === "win" ? stm : 3 - stm;
    return { kind: "wins", color, n: s.n, black: color === BLACK ? 1 : 0 };
  }
  const black = isChance(reply && reply.black) ? reply.black : 0.5;
  const b = stm === BLACK ? s.n : -s.n;
  if (Math.abs(b) < EVEN_BELOW) return { kind: "even", black };
  return { kind: "ahead", color: b > 0 ? BLACK : WHITE, value: (Math.abs(b) / 100).toFixed(1), black };
}
