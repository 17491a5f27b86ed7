// Game review on the page: the review of one game as plain data, the engine's answers
// added to it, what is stored of it and its checks, and the messages the review job
// sends. Pure functions, no DOM. The engine's side is py/gomoku/review (its module doc:
// the classes and their thresholds); the worker answers one position at a time:
//
//   {type: "review", size, rule, moves, first, index, nodes}
//     -> {type: "review", index, total, position: {black, ...}, move: {class, better,
//         line, proof, noBetter, ...} | null, revised: {positions: [{index, black}],
//         moves: [move, ...]}, summary? (with index = total)}
//
// A step may change earlier positions and moves (revised): once a position is a proven
// win, the engine looks for that win earlier and judges the moves since again (the move
// that allowed it is blamed, not the one after).
//
// A review as the page keeps it (state.review):
//
//   {
//     key       reviewKey(game): the game it belongs to (size, first, rule, every move)
//     nodes     the engine's budget per position (DEFAULT_NODES, or DEEP_NODES)
//     total     the game's number of moves
//     black     black's winning chance (0..1) after 0, 1, 2 ... moves: the positions
//               reviewed so far (always from 0: a review runs in order and resumes where
//               it stopped)
//     moves     moves[i]: the review of move i, {cls, better: [x, y] | null, line:
//               [[x, y], ...], proof: "proven" | "judged" | null, noBetter} (better
//               and line only for a flagged move; proof: a flag proven by a forced win
//               or judged by the evaluation; noBetter: every better move the engine
//               tried loses by force); moves[0] null
//     summary   per colour, the number of moves of each counted class, once complete
//     error     why the last run stopped (an engine error), or null
//     resume    the engine was replaced mid-review: go on once it is ready again
//   }
//
// Stored (with the current game, and with a finished game in the records list), a review
// is encodeReview's plain JSON, points written like "h8": only what the page shows.

import { cellText, isSize, onBoard, parseCell } from "./coords.js";
import {
  DEEP_REVIEW_NODES, MAX_REVIEW_NODES, REVIEW_CLASSES, REVIEW_FLAGGED, REVIEW_MARKS, REVIEW_NODES,
} from "./engine-data.js";
import { colorOf, openingOf, position } from "./game.js";
import { BLACK } from "./rules.js";

// the engine's (py/gomoku/review, generated into engine-data.js)
export const DEFAULT_NODES = REVIEW_NODES; // a 40-move game in ~15 s
export const DEEP_NODES = DEEP_REVIEW_NODES;
export const MAX_NODES = MAX_REVIEW_NODES; // the worker's limit
export const CLASSES = REVIEW_CLASSES;
export const FLAGGED = REVIEW_FLAGGED;
export const MARKS = REVIEW_MARKS;
export const PROOFS = ["proven", "judged"]; // a flag's basis: a forced win found, or the evaluation
export const COUNTED = [...FLAGGED, "only_move"]; // the summary's classes
export const LINE_MAX = 12; // stones of a better line drawn on the board

const COLOURS = ["black", "white"];
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isChance = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;
const isPoint = (p, size) => Array.isArray(p) && p.length === 2 && onBoard(p[0], p[1], size);
export const colourName = (c) => (c === BLACK ? "black" : "white");

// ---- the game under review ---------------------------------------------------------------

// The game a review belongs to: its setup and every move (not only the shown ones).
export function reviewKey(game) {
  return `${game.size}/${game.first}/${game.rule}/` + game.moves.map((m) => m.join(".")).join(" ");
}

// May the game be reviewed: a finished game, or one opened from a record, a share link or
// the finished games (game.recorded), with at least one move.
export function reviewable(game) {
  if (!game.moves.length) return false;
  return game.recorded || position({ ...game, cursor: game.moves.length }).over;
}

// ---- the review's data --------------------------------------------------------------------

export function newReview(game, nodes = DEFAULT_NODES) {
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES) throw new Error(`bad node budget ${JSON.stringify(nodes)}`);
  return { key: reviewKey(game), nodes, total: game.moves.length, black: [], moves: [], summary: null, error: null, resume: false };
}

// The index of the next position to review, or null when the review is complete.
export function nextIndex(review) {
  return review.black.length > review.total ? null : review.black.length;
}

export const isComplete = (review) => !!review && review.black.length === review.total + 1 && !!review.summary;

// {done, total, index}: positions reviewed of total + 1; index the move being reviewed
// (1..total; the start position counts as move 1's), for "Reviewing: move 12 of 40".
export function progress(review) {
  const done = review.black.length;
  return { done, total: review.total, index: Math.min(review.total, Math.max(1, done)) };
}

// Per colour, the number of moves of each counted class, from the classes themselves.
export function countClasses(review, game) {
  const out = { black: Object.fromEntries(COUNTED.map((c) => [c, 0])), white: Object.fromEntries(COUNTED.map((c) => [c, 0])) };
  review.moves.forEach((m, i) => {
    if (!m || !COUNTED.includes(m.cls)) return;
    out[colourName(colorOf(game, i - 1))][m.cls] += 1;
  });
  return out;
}

const sameSummary = (a, b) => COLOURS.every((c) => COUNTED.every((k) => a[c][k] === b[c][k]));

function checkSummary(v) {
  if (!isObject(v)) throw new Error("the summary is not an object");
  for (const c of COLOURS) {
    if (!isObject(v[c])) throw new Error(`the summary has no ${c}`);
    for (const k of COUNTED) {
      if (!Number.isInteger(v[c][k]) || v[c][k] < 0) throw new Error(`summary.${c}.${k} must be a count, got ${JSON.stringify(v[c][k])}`);
    }
  }
  return { black: { ...pick(v.black) }, white: { ...pick(v.white) } };
}
const pick = (o) => Object.fromEntries(COUNTED.map((k) => [k, o[k]]));

// The page's form of the engine's review of move n (a reply's move or a revised one).
function answerMove(m, n, game) {
  if (!isObject(m) || !CLASSES.includes(m.class)) throw new Error(`move ${n}: unknown class ${JSON.stringify(m && m.class)}`);
  if (m.player !== colourName(colorOf(game, n - 1))) throw new Error(`move ${n}: played by ${JSON.stringify(m.player)}?`);
  const move = { cls: m.class, better: null, line: [], proof: null, noBetter: false };
  if (FLAGGED.includes(m.class)) {
    if (m.proof != null && !PROOFS.includes(m.proof)) throw new Error(`move ${n}: unknown proof ${JSON.stringify(m.proof)}`);
    move.proof = m.proof || null;
    move.noBetter = m.noBetter === true;
  }
  if (FLAGGED.includes(m.class) && m.better != null) {
    if (!isPoint(m.better, game.size)) throw new Error(`move ${n}: the better move is not a point of the board`);
    const line = Array.isArray(m.line) ? m.line : [];
    if (!line.every((p) => isPoint(p, game.size))) throw new Error(`move ${n}: the line is not a list of points`);
    move.better = [m.better[0], m.better[1]];
    move.line = line.map(([x, y]) => [x, y]);
  }
  return move;
}

// The review with the engine's answer for its next position added. game: the game
// under review (its size and colours). Throws an Error saying what is wrong with the
// answer (a position out of turn, a chance out of 0..1, an unknown class or proof, a
// point off the board, a revision of a position not yet reviewed, a summary that does
// not match the classes). The answer's revisions replace earlier chances and moves.
export function addAnswer(review, reply, game) {
  const index = nextIndex(review);
  if (index === null) throw new Error("the review is complete already");
  if (!isObject(reply)) throw new Error("the review answer is not an object");
  if (reply.index !== index) throw new Error(`the engine reviewed position ${JSON.stringify(reply.index)}, expected ${index}`);
  if (reply.total !== review.total) throw new Error(`the engine reviewed a game of ${JSON.stringify(reply.total)} moves, not ${review.total}`);
  if (!isObject(reply.position) || !isChance(reply.position.black)) {
    throw new Error(`position ${index}: black's chance must be a number in 0..1`);
  }
  let move = null;
  if (index > 0) {
    move = answerMove(reply.move, index, game);
  } else if (reply.move !== null && reply.move !== undefined) {
    throw new Error("position 0 has no move");
  }
  const black = [...review.black, reply.position.black];
  const moves = [...review.moves, move];
  const revised = reply.revised === undefined ? { positions: [], moves: [] } : reply.revised;
  if (!isObject(revised) || !Array.isArray(revised.positions) || !Array.isArray(revised.moves)) {
    throw new Error("the revised positions and moves are not lists");
  }
  for (const r of revised.positions) {
    if (!isObject(r) || !Number.isInteger(r.index) || r.index < 0 || r.index >= index || !isChance(r.black)) {
      throw new Error(`a revised position must be an earlier position with a chance in 0..1, got ${JSON.stringify(r)}`);
    }
    black[r.index] = r.black;
  }
  for (const m of revised.moves) {
    const n = isObject(m) ? m.index : undefined;
    if (!Number.isInteger(n) || n < 1 || n >= index) throw new Error(`a revised move must be an earlier move, got ${JSON.stringify(n)}`);
    moves[n] = answerMove(m, n, game);
  }
  const next = { ...review, black, moves, error: null, resume: false };
  if (index === review.total) {
    const summary = checkSummary(reply.summary);
    if (!sameSummary(summary, countClasses(next, game))) throw new Error("the summary does not match the moves' classes");
    next.summary = summary;
  }
  return next;
}

// ---- the messages ---------------------------------------------------------------------------

// The worker's request for position index of the game (every move sent: the answer
// depends on the game, the index and the budget alone). A game under an opening rule has
// its opening's stones fixed (class "opening", not judged: the rule placed them).
export function reviewMessage(game, index, nodes) {
  return {
    type: "review", size: game.size, rule: game.rule, moves: game.moves.map(([x, y]) => [x, y]),
    first: colourName(game.first), index, nodes, ...(game.opening ? { fixed: openingOf(game).length } : {}),
  };
}

// The think time a step is expected to take at most, for the job runner (its hard
// deadline is 3x this + 10 s): in Pyodide a position of 12,000 nodes took 0.05..1.6 s,
// and a step may also search two positions again at twice the budget (a flag checked
// by the second pass) and ask the threat search about better moves and earlier positions.
export function requestMs(nodes) {
  return Math.max(3000, Math.round(nodes / 4));
}

// ---- what is stored -------------------------------------------------------------------------

const round4 = (v) => Math.round(v * 10000) / 10000;

// The stored form: {nodes, black: [chances], moves: [{class, better?: "k8", line?: "k8 j9
// ...", proof?: "proven" | "judged", noBetter?: true}] (move 1 first), summary?}. size:
// the game's board size.
export function encodeReview(review, size) {
  const out = {
    nodes: review.nodes,
    black: review.black.map(round4),
    moves: review.moves.slice(1).map((m) => {
      const out = m.better
        ? { class: m.cls, better: cellText(m.better[0], m.better[1], size), line: m.line.map(([x, y]) => cellText(x, y, size)).join(" ") }
        : { class: m.cls };
      if (m.proof) out.proof = m.proof;
      if (m.noBetter) out.noBetter = true;
      return out;
    }),
  };
  if (review.summary) out.summary = review.summary;
  return out;
}

// The review of a stored value for game (a game, or a finished game's entry: {size,
// first, rule, moves}). Throws an Error saying what is wrong: not an object, a budget out
// of range, more positions than the game has, a chance out of 0..1, an unknown class, a
// point off the board, a summary missing from a complete review or not matching its
// classes.
export function decodeReview(v, game) {
  if (!isObject(v)) throw new Error("the stored review is not an object");
  if (!isSize(game.size)) throw new Error("the game has no board size");
  const { nodes } = v;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES) throw new Error(`bad node budget ${JSON.stringify(nodes)}`);
  const total = game.moves.length;
  if (!Array.isArray(v.black) || v.black.length > total + 1 || !v.black.every(isChance)) {
    throw new Error("the stored chances are not a list of numbers in 0..1 of the game's length");
  }
  if (!Array.isArray(v.moves) || v.moves.length !== Math.max(0, v.black.length - 1)) {
    throw new Error("the stored moves do not match the positions");
  }
  const cell = (text, what) => {
    const p = parseCell(text, game.size);
    if (!p) throw new Error(`${what}: ${JSON.stringify(String(text).slice(0, 12))} is not a point of the board`);
    return p;
  };
  const moves = [null, ...v.moves.map((m, i) => {
    if (!isObject(m) || !CLASSES.includes(m.class)) throw new Error(`move ${i + 1}: unknown class`);
    if (m.proof !== undefined && (!PROOFS.includes(m.proof) || !FLAGGED.includes(m.class))) {
      throw new Error(`move ${i + 1}: a proof ${JSON.stringify(m.proof)} for a ${m.class} move`);
    }
    // stored by an older page: no proof (shown without one), no noBetter
    const basis = { proof: m.proof || null, noBetter: m.noBetter === true && FLAGGED.includes(m.class) };
    if (m.better === undefined) return { cls: m.class, better: null, line: [], ...basis };
    if (!FLAGGED.includes(m.class)) throw new Error(`move ${i + 1}: a better move for a ${m.class} move`);
    const line = typeof m.line === "string" && m.line.trim() ? m.line.trim().split(/\s+/) : [];
    return { cls: m.class, better: cell(m.better, `move ${i + 1}`), line: line.map((t) => cell(t, `move ${i + 1}'s line`)), ...basis };
  })].slice(0, v.black.length);
  const review = {
    key: reviewKey(game), nodes, total, black: [...v.black], moves, summary: null, error: null, resume: false,
  };
  if (v.black.length === total + 1) {
    if (v.summary === undefined) throw new Error("a complete review without its summary");
    const summary = checkSummary(v.summary);
    if (!sameSummary(summary, countClasses(review, game))) throw new Error("the summary does not match the moves' classes");
    review.summary = summary;
  } else if (v.summary !== undefined) {
    throw new Error("an incomplete review with a summary");
  }
  return review;
}

// ---- the finished games ----------------------------------------------------------------------

// The review kept with a finished game of the list that is this game, or null.
export function reviewInHistory(finished, game) {
  const key = reviewKey(game);
  for (let i = finished.length - 1; i >= 0; i--) {
    const e = finished[i];
    if (!e.review || reviewKey(e) !== key) continue;
    try {
      return decodeReview(e.review, e);
    } catch {
      return null; // checked when it was read; never here
    }
  }
  return null;
}

// The finished games with review (complete) kept with each entry that is its game;
// the same list when none is.
export function withHistoryReview(finished, review) {
  let changed = false;
  const out = finished.map((e) => {
    if (reviewKey(e) !== review.key) return e;
    changed = true;
    return { ...e, review: encodeReview(review, e.size) };
  });
  return changed ? out : finished;
}

// ---- words --------------------------------------------------------------------------------------

// 0.6857 -> "69%"
export const percent = (v) => `${Math.round(v * 100)}%`;

// The review of move n (1..total) with its colour and points as text, or null when move n
// is not reviewed (yet): {n, color ("black" | "white"), move: "j9", cls, mark, better:
// "k8" | null, line: "k8 j9 ..." , before, after (black's chances), proof ("proven" |
// "judged" | null), noBetter}.
export function moveFacts(review, game, n) {
  if (!review || n < 1 || n >= review.black.length || !review.moves[n]) return null;
  const m = review.moves[n];
  const [x, y] = game.moves[n - 1];
  const text = ([a, b]) => cellText(a, b, game.size);
  return {
    n, color: colourName(colorOf(game, n - 1)), move: text([x, y]), cls: m.cls, mark: MARKS[m.cls] || "",
    better: m.better ? text(m.better) : null, line: m.line.map(text).join(" "),
    before: review.black[n - 1], after: review.black[n], proof: m.proof || null, noBetter: !!m.noBetter,
  };
}

// The better line of move n as board overlay entries ({x, y, color, label}; the first
// stone the mover's), when move n is flagged and has one; else [].
export function betterLine(review, game, n, max = LINE_MAX) {
  const m = review && n >= 1 && n < review.black.length ? review.moves[n] : null;
  if (!m || !m.better) return [];
  const mover = colorOf(game, n - 1);
  const line = m.line.length ? m.line : [m.better];
  return line.slice(0, max).map(([x, y], i) => ({ x, y, color: i % 2 === 0 ? mover : 3 - mover, label: i + 1 }));
}
