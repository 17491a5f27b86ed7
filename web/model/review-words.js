// The game review in a player's words, as messages (i18n.js: rendered in the language of
// the moment). Pure functions of the review (review.js), the game and whose side the
// player is on; no DOM. review-view.js shows them.
//
// The words speak from the mover's side: the player's own move is "you played g9", its
// chance "your chance", the other side's "your opponent" (the engine, or whoever played
// the other side of a game opened from a record); colours ("Black's chance") only when
// neither side is the player's (analysis: the player plays both). How a flag was found
// (proven by a forced win, or judged by the evaluation) and the engine's budget go into
// a details line of their own.

import { msg } from "./i18n.js";
import { DEEP_NODES, moveFacts, percent } from "./review.js";
import { BLACK, WHITE } from "./rules.js";

// 12000 -> "12,000" (the same digits in both languages)
export const nodesText = (n) => Number(n).toLocaleString("en-US");

// Who moved, for the words: "you", "opponent", or the colour ("black" / "white") when the
// player is on neither side (side null). colour: "black" | "white"; side: BLACK, WHITE or null.
export function speaker(colour, side) {
  if (side !== BLACK && side !== WHITE) return colour;
  return colour === (side === BLACK ? "black" : "white") ? "you" : "opponent";
}

const SUFFIX = { you: "You", opponent: "Opp" };
const colourWord = (colour) => msg(colour === "black" ? "black" : "white"); // "Black"
const colourLower = (colour) => msg(colour === "black" ? "blackL" : "whiteL"); // "black"
// the key of a family of sentences for who (rvMoveYou, rvMoveOpp, rvMoveColor)
const keyFor = (base, who) => base + (SUFFIX[who] ?? "Color");

// A chance (0..1, black's) from the side of colour.
const sideChance = (black, colour) => (colour === "black" ? black : 1 - black);

// "the best move", "a blunder" (the class as a sentence's object)
export const classPhrase = (cls) => msg("clsA_" + cls);

// The head sentence of move n's review: "Move 9, you played g9: an inaccuracy.", "Move 12,
// your opponent played h9: a blunder.", "Move 9, you played g9: you could have won with
// i9."; null when move n is not reviewed.
export function moveHead(f, side) {
  const who = speaker(f.color, side);
  const vars = { n: f.n, move: f.move, color: colourLower(f.color) };
  if (f.cls === "missed_win" && f.better) return msg(keyFor("rvMissed", who), { ...vars, better: f.better, who: colourWord(f.color) });
  return msg(keyFor("rvMove", who), { ...vars, cls: classPhrase(f.cls) });
}

// What was better: "i9 was better." (with the line drawn on the board, when asked and
// there is one), the forced win a proven blunder allowed, or that nothing was better.
function betterWords(f, side, withLine) {
  const out = [];
  const line = withLine && f.line.split(" ").length > 1; // a line beyond the better move itself
  if (f.better && f.cls !== "missed_win") {
    out.push(line ? msg("rvBetterWasLine", { move: f.better, line: f.line }) : msg("rvBetterWas", { move: f.better }));
  }
  if (f.cls === "missed_win" && f.better && line) out.push(msg("rvWinLine", { line: f.line }));
  if (f.proof === "proven" && f.cls === "blunder") {
    const winner = f.color === "black" ? "white" : "black";
    const who = speaker(winner, side);
    out.push(msg(keyFor("rvForced", who), { color: colourLower(winner) }));
  }
  if (f.noBetter) out.push(msg("rvNoBetter"));
  return out;
}

// The mover's chance before and after the move: "Your chance 62% → 31%."
export function chanceWords(f, side) {
  const who = speaker(f.color, side);
  return msg(keyFor("rvChance", who), {
    before: percent(sideChance(f.before, f.color)), after: percent(sideChance(f.after, f.color)), color: colourWord(f.color),
  });
}

// The details of move n's review: how its flag was found and the budget.
export function detailsWords(f, nodes) {
  const vars = { nodes: nodesText(nodes) };
  if (f && f.proof === "proven") return msg("rvDetailsProven", vars);
  if (f && f.proof === "judged") return msg("rvDetailsJudged", vars);
  return msg("rvDetailsNodes", vars);
}

// Position i of the review in words (a list of messages): the start's chance, or the
// move's head, what was better and (unless brief) the mover's chance after it. [] when
// position i is not reviewed.
export function pointWords(review, game, i, side, brief = false) {
  if (!review || i >= review.black.length) return [];
  if (i === 0) {
    const colour = side === WHITE ? "white" : "black"; // the player's, or black's in analysis
    const who = speaker(colour, side);
    return [msg(keyFor("rvStart", who), { pct: percent(sideChance(review.black[0], colour)), color: colourWord(colour) })];
  }
  const f = moveFacts(review, game, i);
  if (!f) return [];
  const out = [moveHead(f, side), ...betterWords(f, side, false)];
  if (!brief) out.push(msg(keyFor("rvNow", speaker(f.color, side)), { pct: percent(sideChance(f.after, f.color)), color: colourWord(f.color) }));
  return out;
}

// The thinking panel's note on move n: {head, better: [messages], chance, details}, or
// null when move n is not reviewed.
export function moveNote(review, game, n, side) {
  const f = review ? moveFacts(review, game, n) : null;
  if (!f) return null;
  return { facts: f, head: moveHead(f, side), better: betterWords(f, side, true), chance: chanceWords(f, side), details: detailsWords(f, review.nodes) };
}

// Whose counts a line of the summary gives: "You", "Your opponent", or "Black".
export function summaryWho(colour, side) {
  const who = speaker(colour, side);
  if (who === "you") return msg("rvYou");
  if (who === "opponent") return msg("rvOpponent");
  return colourWord(colour);
}

// The review card's details line: the budget per position (and the deep review's).
export const budgetWords = (review) => msg("rvBudget", { nodes: nodesText(review.nodes), deep: nodesText(DEEP_NODES) });
