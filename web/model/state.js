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

import * as Clock from "./clock.js";
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

// Is the game over at the end of its line (whatever position is shown)? A fallen flag
// ends it there; else worked out once per move list (browsing keeps the list).
const endCache = new WeakMap();
export function overAtEnd(game) {
  if (game.clock && game.clock.flag) return true;
  let over = endCache.get(game.moves);
  if (over === undefined) {
    over = Game.position(Game.goTo(game, game.moves.length)).over;
    endCache.set(game.moves, over);
  }
  return over;
}

export const positionKey = (s) => Game.positionKey(s.game);
export const engineMoving = (s) => !!s.job && s.job.kind === "move";

// May the player put a stone on the board now (whatever the point)? Not in a clocked game
// looked back at (clockAtEnd). In the opening when it is the human's turn to place one (or
// to choose an offer: with two players always theirs); in analysis and with two players
// always (unless the game is over); else when the engine is fine, not moving, and it is
// the player's turn.
export function playerMayPlay(s) {
  if (shownOf(s.game).pos.over || clockAtEnd(s.game)) return false;
  if (Game.inOpening(s.game)) {
    const kinds = optionsOf(Game.openingOf(s.game).state);
    return Game.openingTurn(s.game) === "human" && !engineMoving(s) && (kinds.includes("place") || kinds.includes("select"));
  }
  return s.analysing || s.game.twoPlayers || (!s.engineError && !engineMoving(s) && Game.sideToMove(s.game) === s.game.human);
}

// An opening action ({kind, at?, n?}, opening.js) at the end of the game: throws the
// rule's refusal (game.js openingAct).
export function openingActed(s, action) {
  return { ...s, game: Game.openingAct(s.game, action), hint: null, offer: null, offerKind: null };
}

// ---- the game clock (clock.js) ------------------------------------------------------------

// Is the game's clock in play: a clock, no flag fallen, the game not over at the end of
// its line? Such a game is played at its end (the clock's turn is the end's side to move).
export const clockInPlay = (game) => !!game.clock && !game.clock.flag && !overAtEnd(game);

// Is a stone refused on the shown position because the clock is in play and the position
// is an earlier one (looked back at)? A stone there would start another line.
export const clockAtEnd = (game) => clockInPlay(game) && !Game.atEnd(game);

// Should the clock run now? In play, started (the first stone), not in analysis, the
// page in view (visible), and: for two players always; the player's turn always (looking
// back included: they are thinking); the engine's turn when its worker is ready and fine
// and the game at its end (where the engine moves: while it loads, restarts or waits
// for the player to come back from looking back, its time does not run).
export function clockLive(s, visible = true) {
  const { game } = s;
  if (!clockInPlay(game) || !game.clock.running || s.analysing || !visible) return false;
  if (game.twoPlayers || game.clock.running === game.human) return true;
  return s.engine.state === "ready" && !s.engineError && Game.atEnd(game);
}

// The state with the clock started or stopped at `now` as clockLive says (the same state
// when nothing changes).
export function syncClock(s, now, visible = true) {
  const { clock } = s.game;
  if (!clock) return s;
  const live = clockLive(s, visible);
  const next = live ? Clock.resume(clock, now) : Clock.pause(clock, now);
  return next === clock ? s : { ...s, game: { ...s.game, clock: next } };
}

// Has the running colour's time run out at `now` (the flag due, not yet fallen)?
export const flagDue = (s, now) => clockInPlay(s.game) && Clock.flagDue(s.game.clock, now);

// Did a flag fall between state `before` and `after` (a move that came too late: played)?
export const flagFellBetween = (before, after) =>
  !!after.game.clock && !!after.game.clock.flag && !(before.game.clock && before.game.clock.flag);

// The running colour's flag fell at `now`: the game ends, lost on time (game.js position
// timeout), and is kept as played() keeps a finished game (date: when).
export function flagFell(s, date, now) {
  const game = { ...s.game, clock: Clock.flagFall(s.game.clock, now) };
  return { ...finished(s, game, date, now), hint: null };
}

// The game taken back to its first n moves for good under a clock in play (undo at the
// end of the line: the moves after n are dropped, the time is not given back, the clock
// runs on for the side to move there).
export function tookBack(s, n, now) {
  const game = Game.takeBack(s.game, n);
  const clock = game.clock && Clock.takeBack(game.clock, n, Game.colorOf(game, n), now);
  return { ...s, game: { ...game, clock }, hint: null, offer: null, offerKind: null };
}

// The game's clock after a stone of `mover` on [x, y] of the shown position at `now`: at
// the end of a line in play charged and switched (untimed in analysis); on an earlier
// position of a game in play as a take-back to there and then the move (the page refuses
// such a stone, clockAtEnd; the engine's move after Swap sides may make one), unless it
// is the line's own next move (only browsed to); once the game is over, dropped (a finished
// game played on from an earlier position: free play, no clock).
function clockAfterMove(s, mover, [x, y], now) {
  const { game } = s;
  if (!game.clock) return null;
  const ahead = game.moves[game.cursor];
  if (ahead && ahead[0] === x && ahead[1] === y) return game.clock;
  if (!clockInPlay(game)) return null;
  let clock = game.clock;
  if (!Game.atEnd(game)) clock = Clock.takeBack(clock, game.cursor, mover, now);
  return s.analysing ? Clock.untimedMove(clock, 3 - mover) : Clock.moved(clock, mover, 3 - mover, now);
}

// A stone on [x, y] for the side to move (throws when illegal: game.js play); a game it
// ends goes to the finished games (date: when) and, played against the engine (not in
// analysis, not by two players), to the results at its level; a win there offers the next
// level (if any), the LOSSES_OFFER-th loss in a row there the level below (if any). Under
// a clock (clockAfterMove) the move is charged at `now`; a move that comes when the
// mover's time has run out is not played: the flag falls instead (flagFell).
export function played(s, x, y, date, now = 0) {
  if (flagDue(s, now) && Game.atEnd(s.game)) return flagFell(s, date, now);
  const mover = Game.sideToMove(s.game);
  const moved = Game.play(s.game, x, y);
  return { ...finished(s, { ...moved, clock: clockAfterMove(s, mover, [x, y], now) }, date, now), hint: null };
}

// The state with `game` in it after a move or a flag at `now`: a game that is over and not
// yet recorded goes to the finished games (its clock stopped) and, against the engine, to
// the results (played).
function finished(s, game, date, now) {
  let { finished: history, results, streak } = s;
  let offer = null;
  let offerKind = null;
  const result = Game.unrecordedResult(game, shownOf(game).pos);
  if (result) {
    game = Game.markRecorded(game.clock ? { ...game, clock: Clock.pause(game.clock, now) } : game);
    history = addToHistory(history, historyEntry(game, result, date));
    if (!s.analysing && !game.twoPlayers) {
      const outcome = outcomeOf(result, game.human);
      results = withResult(results, game.level, outcome);
      streak = nextStreak(streak, game.level, outcome);
      if (outcome === "won") offer = nextLevel(game.level)?.number ?? null;
      if (outcome === "lost" && streak.losses === LOSSES_OFFER) offer = previousLevel(game.level)?.number ?? null;
      if (offer !== null) offerKind = outcome === "won" ? "next" : "easier";
    }
  }
  return { ...s, game, finished: history, results, streak, offer, offerKind };
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
// played at `now` (its clock: played): the report stays shown for the position after it
// too.
export function engineMoved(s, reply, stm, key, [x, y], lastEngine, date, now = 0) {
  const next = played(s, x, y, date, now);
  if (flagFellBetween(s, next)) return next; // its flag fell first
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
