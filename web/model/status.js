// What the page says about the state (state.js), in the current language (i18n.js): the
// status and its code, the line under it, the thinking panel's score, the engine and
// search-worker lines, the board's spoken label. Pure functions of plain data, no DOM.

import { controlText } from "./clock.js";
import { cellText } from "./coords.js";
import * as Game from "./game.js";
import { currentLanguage, joinSentences, msg, t, textOf } from "./i18n.js";
import { RATING_ANCHOR, labelParts, levelDescription, levelName, levelNameMessage, levelOf, ratingText } from "./levels.js";
import { nextColour } from "./opening.js";
import { BLACK, WHITE } from "./rules.js";
import { colourScore } from "./score.js";
import { clockAtEnd, engineMoving, overAtEnd, shownOf } from "./state.js";

export const colorName = (c) => (c === BLACK ? "black" : "white");
// "Black" / "black" / a renju shape's name, as messages (i18n.js msg) and as text
export const colorMsg = (c) => msg(c === BLACK ? "black" : "white");
export const colorLowerMsg = (c) => msg(c === BLACK ? "blackL" : "whiteL");
export const shapeMsg = (shape) => msg("shape_" + String(shape).replaceAll(" ", "_"));
export const colorWord = (c) => textOf(colorMsg(c));
export const colorLower = (c) => textOf(colorLowerMsg(c));
export const shapeText = (shape) => textOf(shapeMsg(shape));

// " Black wins." / " White wins." / "White lost on time." / " The game is a draw." / ""
// (after a move's sentence, or alone: a flag that fell), as a message (resultMessage) and
// as text
export function resultMessage(pos) {
  if (pos.timeout) return msg("timeoutAnn", { color: colorMsg(pos.timeout) });
  if (pos.winner) return msg(pos.winner === BLACK ? "blackWins" : "whiteWins");
  if (pos.draw) return msg("isDraw");
  return "";
}
export const resultSentence = (pos) => textOf(resultMessage(pos));

// {code, text}: the board's data-status and the status line.
export function statusOf(s) {
  const { pos } = shownOf(s.game);
  if (pos.timeout) return { code: `${colorName(pos.winner)}-wins`, text: t("st_timeout", { color: colorWord(pos.timeout) }) };
  if (pos.winner) return { code: `${colorName(pos.winner)}-wins`, text: t("st_wins", { color: colorWord(pos.winner) }) };
  if (pos.draw) return { code: "draw", text: t("st_draw") };
  if (s.engineError && !s.game.twoPlayers) return { code: "error", text: t("st_error") };
  if (Game.inOpening(s.game)) return openingStatus(s);
  if (s.analysing) return { code: "analysing", text: t("st_analysing") };
  // an earlier position of a game that is over: looked at, not played (a move there would
  // start a new line and drop the game's review), so never "your turn"; the same under a
  // running clock (played at its end: state.js clockAtEnd)
  if (finishedGameBrowsed(s.game) || clockAtEnd(s.game)) {
    return { code: "review", text: t("st_browsing", { n: s.game.cursor, total: s.game.moves.length }) };
  }
  // two players: whose turn it is, the engine's state aside (it only gives hints)
  if (s.game.twoPlayers) {
    const c = Game.sideToMove(s.game);
    return { code: `${colorName(c)}-to-move`, text: t("st_toMove", { color: colorWord(c) }) };
  }
  const moving = engineMoving(s);
  const humanToMove = !moving && Game.sideToMove(s.game) === s.game.human;
  if (s.engine.state !== "ready") {
    // the human's move need not wait for the engine
    if (humanToMove) return { code: "your-turn", text: t("st_yourTurnLoading") };
    return { code: "loading", text: s.engine.restarts ? t("st_restarting") : t("st_loading") };
  }
  if (moving) return { code: "thinking", text: t("st_thinking") };
  if (humanToMove) return { code: "your-turn", text: t("st_yourTurn") };
  if (!Game.atEnd(s.game)) return { code: "review", text: t("st_review") };
  return { code: "thinking", text: t("st_thinking") };
}

// The status in the opening: what the human must do now ("your-turn"; with two players
// which of them: the first or the second player), or the engine's turn ("thinking";
// "loading" while it loads), or looking back ("review").
export function openingStatus(s) {
  const { game } = s;
  if (!Game.atEnd(game)) return { code: "review", text: t("op_st_browsing") };
  if (Game.openingTurn(game) === "engine") {
    if (s.engine.state !== "ready") return { code: "loading", text: s.engine.restarts ? t("st_restarting") : t("st_loading") };
    return { code: "thinking", text: t("op_st_engine") };
  }
  const state = Game.openingOf(game).state;
  const task = openingTask(state);
  const text = game.twoPlayers ? t("op_st_player", { role: msg("op_role_" + state.actor), task }) : t("op_st_you", { task });
  return { code: "your-turn", text };
}

// What the opening's phase asks of the player acting now (a message): "place the three
// opening stones (black now, 1 of 3)", "choose a colour", ...
export function openingTask(state) {
  const colour = colorLowerMsg(nextColour(state));
  const phase = state.phase.replace("-", "_");
  if (phase === "open") {
    const k = state.stones.length + 1;
    return msg("op_do_open_" + state.rule, { colour, k, where: msg("op_where_" + k) });
  }
  return msg("op_do_" + phase, { colour, n: state.n, k: state.offers.length + 1 });
}

// The line under the status in the opening: the rule, the human's role and colour for now
// (with two players: the first player's colour for now).
export function openingLine(game) {
  const state = Game.openingOf(game).state;
  const rule = msg("opr_" + state.rule);
  return joinSentences([
    game.twoPlayers ? t("op_line_two", { rule, colour: colorLowerMsg(state.black === 1 ? BLACK : WHITE) })
      : t("op_line", { rule, role: msg("op_role_" + game.opening.player), colour: colorLowerMsg(game.human) }),
    state.offers.length ? t("op_line_offers") : "",
    Game.atEnd(game) ? "" : t("op_line_browsing"),
  ]);
}

// What is said when an action ends the opening (a message; "" while it goes on): the
// colour the player plays now, with two players the first and the second player's.
export function openingOverMessage(game) {
  if (!game.opening || Game.inOpening(game)) return "";
  if (!game.twoPlayers) return msg("op_ann_done", { colour: colorLowerMsg(game.human) });
  const black = Game.openingOf(game).state.black;
  return msg("op_ann_done_two", { colour: colorLowerMsg(black === 1 ? BLACK : WHITE), other: colorLowerMsg(black === 1 ? WHITE : BLACK) });
}

// Is the game over at the end of its line, and shown before that end?
export function finishedGameBrowsed(game) {
  return !Game.atEnd(game) && overAtEnd(game);
}

// The line under the status: who plays what, the setup when not the default, what to do.
export function playerLine(s, code, defaultSize) {
  const { game } = s;
  const { pos, forbidden } = shownOf(game);
  if (Game.inOpening(game)) return openingLine(game);
  // (after an opening the first move was the opening's, not the player's)
  let line = game.twoPlayers ? t("twoLine")
    : t(game.human === game.first && !game.opening ? "youAreFirst" : "youAre", { color: colorLower(game.human) });
  const setup = [];
  if (game.size !== defaultSize) setup.push(`${game.size}×${game.size}`);
  if (game.rule !== "freestyle") setup.push(t("rule_" + game.rule));
  if (game.opening) setup.push(t("opr_" + game.opening.rule));
  if (game.clock) setup.push(t("clockSetup", { control: controlText(game.clock) }));
  // (in Chinese no space after a sentence, and the list's own comma)
  if (setup.length) line = joinSentences([line, t("setupLine", { setup: setup.join(t("setupSep")) })]);
  if (s.analysing) line = t("analysisLine");
  else if (pos.winner && game.twoPlayers) line = t("twoWins", { color: colorWord(pos.winner) });
  else if (pos.winner) line = pos.winner === game.human ? t("youWin") : t("engineWins");
  else if (pos.draw) line = t("nobodyWins");
  else if (finishedGameBrowsed(game)) line = t("browseLine");
  else if (code === "review") line = t("reviewLine");
  if (pos.over && !s.analysing) line += t("pressNew");
  if (forbidden.size) line += " " + t("forbiddenLegend");
  return line;
}

// A finished game's result from the player's side: "won", "lost", "draw", "unfinished"
// (for a game of two players, see resultWords).
export function playerResult(h) {
  if (h.result === "draw" || h.result === "unfinished") return h.result;
  return (h.result === "black" ? BLACK : WHITE) === h.human ? "won" : "lost";
}

// A finished game (storage.js entry) as the list shows it: "27 Nov 2026, 14:05 · You won · 18 moves · level 8
// (Expert) · 15×15 · freestyle · reviewed" (the date in the page's language and the
// browser's time zone).
export function historyLabel(h, lang = currentLanguage()) {
  const when = new Date(h.date);
  const date = Number.isNaN(when.getTime()) ? h.date
    : when.toLocaleString(lang === "zh" ? "zh-CN" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
  const parts = [date, resultWords(h), t(h.moves.length === 1 ? "histOneMove" : "histMoves", { n: h.moves.length })];
  const level = h.level !== null && !h.twoPlayers ? levelOf(h.level) : null; // (not known for older games)
  if (h.twoPlayers) parts.push(t("histTwo"));
  else if (level) parts.push(t("histLevelName", { n: h.level, name: levelName(level, lang) }));
  else if (h.level !== null) parts.push(t("histLevel", { n: h.level }));
  parts.push(`${h.size}×${h.size}`, t("rule_" + h.rule));
  if (h.opening) parts.push(t("opr_" + h.opening.rule));
  if (h.clock) parts.push(t("clockSetup", { control: controlText(h.clock) }));
  if (h.review) parts.push(t("rvReviewed"));
  return parts.join(" · ");
}

// A finished game's result as the list says it: "You won", ...; with two players "Black
// won" / "White won"; a game lost on time "White lost on time".
function resultWords(h) {
  const fell = h.clock && h.clock.flag && (h.result === "black" || h.result === "white") ? h.clock.flag : 0;
  if (fell) return t("histTimeout", { color: colorWord(fell) });
  if (h.twoPlayers && (h.result === "black" || h.result === "white")) return t(h.result === "black" ? "histBlackWon" : "histWhiteWon");
  return t("hist_" + playerResult(h));
}

// The number (1..) of black's offered 5th move on [x, y] in the opening shown, or 0.
export function offerAt(game, x, y) {
  if (!Game.inOpening(game)) return 0;
  return Game.openingOf(game).state.offers.findIndex(([ox, oy]) => ox === x && oy === y) + 1;
}

// "h9 j7": the forbidden points, in board order (by column, then row)
export function forbiddenText(forbidden, size) {
  return [...forbidden.keys()].map((k) => k.split(",").map(Number))
    .sort((a, b) => a[0] - b[0] || b[1] - a[1]).map(([x, y]) => cellText(x, y, size)).join(" ");
}

// The thinking panel's score ("Black +1.2", "White wins in 7", "even 0.0") and black's
// share of the evaluation bar (the engine's black chance), of an engine report {score,
// black, stm}.
export function scoreLine(info) {
  const sc = colourScore(info, info.stm);
  if (sc.kind === "wins") return { text: t("winsIn", { color: colorWord(sc.color), n: sc.n }), black: sc.black };
  if (sc.kind === "even") return { text: t("scoreEven"), black: sc.black };
  return { text: t("scoreAhead", { color: colorWord(sc.color), value: sc.value }), black: sc.black };
}

// 950 -> "950", 12345 -> "12.3k", 2500000 -> "2.50M"
export function kilo(n) {
  n = Number(n) || 0;
  return n >= 1e6 ? (n / 1e6).toFixed(2) + "M" : n >= 1000 ? (n / 1000).toFixed(1) + "k" : String(Math.round(n));
}

export const speedText = (nps) => t("nodesPerSec", { n: kilo(nps) });

// The engine's ready message {version, pyodide, pageLoadMs} as a line; "" before it.
export function engineReadyText(ready) {
  if (!ready) return "";
  return t("engineReady", { version: ready.version, secs: (ready.pageLoadMs / 1000).toFixed(1), pyodide: ready.pyodide });
}

export function workersText({ ready, total }) {
  return total ? t("workersParallel", { ready, total }) : t("workersOne");
}

// What the keyboard cursor is on, for the board's label and the cursor announcement:
// {short: "g10, empty", label: the board's aria-label}. top: analysis's words for a best
// move there ("best move 2, +0.5") or "".
export function cursorText(s, [x, y], top = "") {
  const { game } = s;
  const { pos, forbidden } = shownOf(game);
  const who = pos.stones.get(x + "," + y);
  const shape = forbidden.get(x + "," + y);
  let what;
  if (who !== undefined) what = t(who === BLACK ? "blackStone" : "whiteStone");
  else if (shape) what = t("forbiddenCursor", { shape: shapeText(shape) });
  else if (offerAt(game, x, y)) what = t("op_cursorOffer", { k: offerAt(game, x, y) });
  else what = top ? t("emptyTop", { top }) : t("empty");
  const cell = cellText(x, y, game.size);
  return {
    short: t("cursorShort", { cell, what }),
    label: t("boardLabel", { n: game.size, cell, what }),
  };
}

// ---- levels ----------------------------------------------------------------------------

// A level as the choosers list it: "4 · Casual", with its rating rounded when measured
// ("6 · Casual (≈ 1200)").
export function levelLabel(level) {
  const { n, name, rating } = labelParts(level, currentLanguage());
  return rating === null ? t("levelOption", { n, name }) : t("levelOptionRated", { n, name, rating });
}

// The level's rating in a player's words: "Rating about 1100." (rounded as the choosers
// show it), "Rating not yet measured.", or for Unlimited (timeMs 0, thinks as long as the
// player lets it) "at least Expert's strength".
export function levelRatingText(level) {
  const { rating } = labelParts(level, currentLanguage());
  if (rating === null && level.timeMs === 0) return t("levelUnlimitedRating");
  return rating === null ? t("levelUnrated") : t("levelRatedShort", { rating });
}

// How the rating was measured, for the details line: "Details: Elo 1115 ± 127 from engine
// matches (the greedy reference player = 800)."; "" when it is not measured.
export function levelRatingDetails(level) {
  const rating = ratingText(level);
  return rating === null ? "" : t("levelRated", { rating, anchor: RATING_ANCHOR });
}

// The sentence of a level offered after a game (state.offer, offerKind): after a win "You
// beat level 4, Newcomer! Ready for level 5, Beginner?", after the third loss in a row the
// level below, in a sentence the player can ignore; "" when nothing is offered.
export function offerSentence(state) {
  return textOf(offerMessage(state));
}

// offerSentence as a message (its level names in each language).
export function offerMessage({ game, offer, offerKind }) {
  const at = levelOf(game.level);
  const other = offer ? levelOf(offer) : null;
  if (!at || !other) return "";
  const n = at.number;
  if (offerKind === "easier") return msg("levelEasier", { n, lower: offer, lowerName: levelNameMessage(other) });
  return msg("levelWon", { n, name: levelNameMessage(at), next: offer, nextName: levelNameMessage(other) });
}

// The two lines that tell a newcomer how to play (shown until their first finished game):
// five in a row wins; which colour they are, who moves first, and that the engine answers.
export function howToPlay(game) {
  if (game.opening) return [t("howToPlay1"), t("howToPlayOpening")]; // the opening says the colours (two players too)
  if (game.twoPlayers) return [t("howToPlay1"), t("howToPlayTwo", { color: colorLower(game.first) })];
  const color = colorLower(game.human);
  return [t("howToPlay1"), t(game.human === game.first ? "howToPlayFirst" : "howToPlaySecond", { color })];
}

// The player's record at a level ({won, lost, drawn}: results.js recordAt) as a sentence.
export function levelRecordText({ won, lost, drawn }) {
  return won + lost + drawn ? t("levelRecord", { won, lost, drawn }) : t("levelNoGames");
}

// What the New game dialog says under its level chooser: {description: the level's
// one-line description, details: its rating in a player's words and the player's record
// there, method: how the rating was measured (the details line; "" when not measured)}.
export function levelAbout(level, record) {
  return {
    description: levelDescription(level, currentLanguage()),
    details: t("levelDetails", { rating: levelRatingText(level), record: levelRecordText(record) }),
    method: levelRatingDetails(level),
  };
}
