// The page's state: plain data, and the pure functions that make the next state. No DOM.
// The page keeps it in a store (store.js) and its parts subscribe: what is stored
// (persistence below), the view (view.js) and the theme and language (settings-panel.js).
//
//   {
//     game         the game (game.js): moves, cursor, size, rule, first, human, level, seed
//     finished     the finished games (storage.js entries, moves as points), oldest first
//     results      the player's results per level (results.js)
//     offer        the level offered after a game against the engine (its number), or
//                  null: the next one after a win, the one below after LOSSES_OFFER
//                  losses in a row at a level (once a streak); set when such a game ends,
//                  gone with the next change of the game
//     offerKind    "next" | "easier": why offer is offered
//     streak       {level, losses}: the player's losses in a row at a level (reset by a
//                  game there that is not lost, started again at another level), or null
//     settings     settings.js
//     analysing    analysis: the player plays both colours, the engine only comments
//     hint         {key, move}: the engine's hint for position key, or null
//     info         the engine's last report, {...reply, stm, keys, source}: stm the colour
//                  to move in the position searched, keys the positions (game.js
//                  positionKey) it is shown for; or null
//     lastEngine   {move: "h8", secs: "1.2"}: the engine's last move and its time, or null
//     engineError  what went wrong with the engine (until Retry), or null
//     job          the engine's job under way (jobs.js current(): {kind, key, sliced}) or null
//     engine       {state: "idle" | "loading" | "ready" | "failed", restarts, ready}: the
//                  engine client, ready its last ready message (version, pageLoadMs, ...)
//     workers      {threads, ready, total}: the parallel search's search workers (null
//                  until the engine client first says)
//     review       the game review of the game (review.js: its positions' chances, its
//                  moves' classes), or null; main.js adds it, review-job.js keeps it
//     coach        {key, threats}: the coach's answer (coach.js readThreats) for position
//                  key, or null; coach-view.js keeps it
//   }
//
// A function here returns a new state and never changes the one it is given.

import * as Game from "./game.js";
import { nextLevel, previousLevel } from "./levels.js";
import { optionsOf } from "./opening.js";
import { outcomeOf, withResult } from "./results.js";
import { KEYS, addToHistory, encodeGame, encodeHistory, encodeResults, historyEntry, save } from "./storage.js";

// After this many losses in a row at a level the page offers the one below.
export const LOSSES_OFFER = 3;

export function initialState({ game, history = [], results = {}, streak = null, settings }) {
  return {
    game: game || Game.newGame(), finished: history, results, streak, offer: null, offerKind: null, settings, analysing: false, hint: null, info: null,
    lastEngine: null, engineError: null, job: null,
    engine: { state: "idle", restarts: 0, ready: null }, workers: null, coach: null,
  };
}

// ---- the shown position -----------------------------------------------------------------

const shownCache = new WeakMap();

// {pos, forbidden} of the game's shown position: pos as Game.position ({stones, winner,
// line, draw, over}), forbidden Game.forbiddenPoints ("x,y" -> shape; renju, black to
// move). Worked out once per game value.
export function shownOf(game) {
  let got = shownCache.get(game);
  if (!got) {
    const pos = Game.position(game);
    got = { pos, forbidden: Game.forbiddenPoints(game, pos) };
    shownCache.set(game, got);
  }
  return got;
}

// Is the game over at the end of its line (whatever position is shown)? Worked out once
// per move list (browsing keeps the list).
const endCache = new WeakMap();
export function overAtEnd(game) {
  let over = endCache.get(game.moves);
  if (over === undefined) {
    over = Game.position(Game.goTo(game, game.moves.length)).over;
    endCache.set(game.moves, over);
  }
  return over;
}

export const positionKey = (s) => Game.positionKey(s.game);
export const engineMoving = (s) => !!s.job && s.job.kind === "move";

// May the player put a stone on the board now (whatever the point)? In the opening when
// it is the human's turn to place one (or to choose an offer); in analysis always (unless
// the game is over); else when the engine is fine, not moving, and it is the player's turn.
export function playerMayPlay(s) {
  if (shownOf(s.game).pos.over) return false;
  if (Game.inOpening(s.game)) {
    const kinds = optionsOf(Game.openingOf(s.game).state);
    return Game.openingTurn(s.game) === "human" && !engineMoving(s) && (kinds.includes("place") || kinds.includes("select"));
  }
  return s.analysing || (!s.engineError && !engineMoving(s) && Game.sideToMove(s.game) === s.game.human);
}

// An opening action ({kind, at?, n?}, opening.js) at the end of the game: throws the
// rule's refusal (game.js openingAct).
export function openingActed(s, action) {
  return { ...s, game: Game.openingAct(s.game, action), hint: null, offer: null, offerKind: null };
}

// ---- changes ------------------------------------------------------------------------------

// A stone on [x, y] for the side to move (throws when illegal: game.js play); a game it
// ends goes to the finished games (date: when) and, played against the engine (not in
// analysis), to the results at its level; a win there offers the next level (if any), the
// LOSSES_OFFER-th loss in a row there the level below (if any).
export function played(s, x, y, date) {
  let game = Game.play(s.game, x, y);
  let { finished, results, streak } = s;
  let offer = null;
  let offerKind = null;
  const result = Game.unrecordedResult(game, shownOf(game).pos);
  if (result) {
    game = Game.markRecorded(game);
    finished = addToHistory(finished, historyEntry(game, result, date));
    if (!s.analysing) {
      const outcome = outcomeOf(result, game.human);
      results = withResult(results, game.level, outcome);
      streak = nextStreak(streak, game.level, outcome);
      if (outcome === "won") offer = nextLevel(game.level)?.number ?? null;
      if (outcome === "lost" && streak.losses === LOSSES_OFFER) offer = previousLevel(game.level)?.number ?? null;
      if (offer !== null) offerKind = outcome === "won" ? "next" : "easier";
    }
  }
  return { ...s, game, finished, results, streak, offer, offerKind, hint: null };
}

// The losses in a row ({level, losses}) after a game at level with outcome.
export function nextStreak(streak, level, outcome) {
  const before = streak && streak.level === level ? streak.losses : 0;
  return { level, losses: outcome === "lost" ? before + 1 : 0 };
}

// The game browsed to move n.
export const browsed = (s, n) => ({ ...s, game: Game.goTo(s.game, n), hint: null, offer: null, offerKind: null });

export function newGame(s, setup) {
  return { ...s, game: Game.newGame(setup), analysing: false, hint: null, info: null, lastEngine: null, offer: null, offerKind: null };
}

// Is the game one that opening another would lose: moves played since it was opened or
// started, not over at the end of its line and not in the finished games already?
export function inProgress(game) {
  return game.moves.length > 0 && !game.recorded && !overAtEnd(game);
}

// A game opened from a record (game.js fromRecord, which checks it) replaces the one on
// the board. analysing: whether to analyse it (default: as before). The game it replaces,
// when in progress (inProgress) and not the same moves, goes to the finished games as
// "unfinished" (date: when), so a link, a record or a .psq file never loses it; the
// caller says so when the list grew (kept).
export function opened(s, game, analysing = s.analysing, date = new Date()) {
  let { finished } = s;
  const old = s.game;
  const same = old.size === game.size && old.rule === game.rule && old.first === game.first &&
    old.moves.length === game.moves.length && old.moves.every(([x, y], i) => x === game.moves[i][0] && y === game.moves[i][1]);
  if (inProgress(old) && !same) finished = addToHistory(finished, historyEntry(old, "unfinished", date));
  // (a game in its opening is played, not analysed: the opening's turns are the players')
  analysing = analysing && !Game.inOpening(game);
  return { ...s, game, finished, analysing, hint: null, info: null, offer: null, offerKind: null };
}

// Did opening a record keep the game it replaced (opened, before -> after)?
export const keptUnfinished = (before, after) => after.finished !== before.finished;

// The engine's report about position key (stm to move there) becomes the one shown.
export function withInfo(s, reply, stm, key) {
  return { ...s, info: { ...reply, stm, keys: [key], source: reply.source ?? null } };
}

// The engine's report, if it is about the shown position.
export function currentInfo(s) {
  return s.info && s.info.keys.includes(positionKey(s)) ? s.info : null;
}

// The engine's move [x, y] (its result reply, for the position key with stm to move)
// played: the report stays shown for the position after it too.
export function engineMoved(s, reply, stm, key, [x, y], lastEngine, date) {
  const next = played(s, x, y, date);
  const info = { ...withInfo(s, reply, stm, key).info };
  info.keys = [key, positionKey(next)];
  return { ...next, info, lastEngine };
}

// ---- what is stored -------------------------------------------------------------------------

// A subscriber that writes what changed to storage (storage.js): the game, the settings,
// the finished games, the results per level, the losses in a row.
export function persistence(storage) {
  return (s, prev) => {
    if (s.game !== prev.game) save(storage, KEYS.game, encodeGame(s.game));
    if (s.settings !== prev.settings) save(storage, KEYS.settings, s.settings);
    if (s.finished !== prev.finished) save(storage, KEYS.history, encodeHistory(s.finished));
    if (s.results !== prev.results) save(storage, KEYS.results, encodeResults(s.results));
    if (s.streak !== prev.streak && s.streak) save(storage, KEYS.streak, s.streak);
  };
}
