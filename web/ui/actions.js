// The player's actions on the game: play a stone, browse, undo / redo, swap sides, a new
// game, open a record or a share link, analysis on / off, the level, a flag that fell;
// each cancels the engine's job it makes pointless, changes the state (state.js) and lets
// the engine go on (resume: its move, or the analysis). Called by input.js, the dialogs
// and the clock's view.
//
// Two players on one device (game.twoPlayers): both colours are played here, the engine
// only answers hints, analysis and the review; undo takes back one move, by the players'
// agreement (confirmUndo asks while the game is on). Under a game clock in play
// (state.js clockInPlay) the game is played at its end: undo there takes the moves back
// for good (the time is not given back), a stone on an earlier position is refused.

import * as Clock from "../model/clock.js";
import { cellText } from "../model/coords.js";
import { keptAt } from "../model/coach.js";
import * as Game from "../model/game.js";
import { errorMessage, msg } from "../model/i18n.js";
import { levelOf } from "../model/levels.js";
import * as Opening from "../model/opening.js";
import { parseFragment } from "../model/records.js";
import { playStone } from "./sound.js";
import * as State from "../model/state.js";
import { colorLowerMsg, colorMsg, offerMessage, openingOverMessage, resultMessage, shapeMsg } from "../model/status.js";

// The time control of the game's clock ({baseMs, incMs}), or null: for the next game.
export const controlOf = (game) => (game.clock ? { baseMs: game.clock.baseMs, incMs: game.clock.incMs } : null);

// A new game's seed (game.js: a node-limited level's random choices come from it):
// 0..MAX_SEED, from crypto.getRandomValues where there is one.
export function randomSeed() {
  try {
    return crypto.getRandomValues(new Uint32Array(1))[0] & Game.MAX_SEED;
  } catch {
    return Math.floor(Math.random() * (Game.MAX_SEED + 1));
  }
}

// A new game's opening setup like the game's ({rule, player}), or null: the same rule and
// the same role (who places the opening stones).
export function openingSetup(game) {
  return game.opening ? { rule: game.opening.rule, player: game.opening.player } : null;
}

// store: the state; jobs: engine-jobs.js; analysisView: analysis-view.js; say: {announce,
// notice} (view.js: each takes a message, i18n.js); reviewWords(n): the game review's
// words for move n (a message: "Move 14, the engine played j9: a blunder. k8 was
// better.", review-view.js words) or "". now: the game clock's time source (main.js);
// confirmUndo({color, move}) -> Promise<boolean>: do both players agree to take back
// that move (the undo dialog)?
export function createActions({
  store, jobs, analysisView, say, reviewWords = () => "", now = () => performance.now(), confirmUndo = async () => true,
}) {
  const get = () => store.get();
  const cell = ([x, y]) => cellText(x, y, get().game.size);
  const bothSides = (s) => s.analysing || s.game.twoPlayers;

  // The engine's turn: its move, or in analysis the next search.
  function resume() {
    if (get().analysing) jobs.analyse();
    else jobs.engineMove();
  }

  // A stone from the player on [x, y] of the shown position; false (and said why) when it
  // cannot go there now. In the opening: the player's opening stone, offer or choice of an
  // offer (openingAction).
  function humanPlay(x, y) {
    const s = get();
    if (Game.inOpening(s.game)) {
      const state = Game.openingOf(s.game).state;
      return openingAction({ kind: state.phase === "select" ? "select" : "place", at: [x, y] });
    }
    const { pos, forbidden } = State.shownOf(s.game);
    const toMove = Game.sideToMove(s.game);
    if (pos.over) { say.announce(msg("gameOver")); return false; }
    if (State.clockAtEnd(s.game)) { say.announce(msg("clockAtEnd")); return false; }
    if (!bothSides(s)) {
      if (s.engineError || State.engineMoving(s)) { say.announce(msg("waitEngine")); return false; }
      if (toMove !== s.game.human) {
        say.announce(msg(Game.atEnd(s.game) ? "waitEngine" : "engineToMoveHere"));
        return false;
      }
    }
    if (pos.stones.has(x + "," + y)) {
      say.announce(msg("taken", { move: cell([x, y]) }));
      return false;
    }
    if (forbidden.has(x + "," + y)) {
      say.announce(msg("forbiddenMove", { move: cell([x, y]), shape: shapeMsg(forbidden.get(x + "," + y)) }));
      return false;
    }
    // a hint or analysis of the position that is about to change (a game review ends
    // when the moves change: review-job.js)
    jobs.cancelButReview();
    const next = store.update((st) => State.played(st, x, y, new Date(), now()));
    if (State.flagFellBetween(s, next)) { flagFell(); return false; } // the time ran out first
    if (next.settings.sound) playStone(toMove);
    const said = bothSides(s) ? msg("playsMove", { color: colorMsg(toMove), move: cell([x, y]) })
      : msg("youPlayMove", { move: cell([x, y]) });
    say.announce([said, resultMessage(State.shownOf(next.game).pos)]);
    if (next.offer) say.notice(offerMessage(next), "info"); // the button: view.js #next-level
    resume();
    return true;
  }

  // The player's action in the opening ({kind, at?, n?}: opening.js): a stone, an offer,
  // the offer chosen, a colour taken, two more stones, the number declared. Refused (and
  // said why, in the language of the moment) when it is not the player's turn or the rule
  // does not allow it; then the engine's turn, if it is. With two players each action is
  // said as the first or the second player's.
  function openingAction(action) {
    const s = get();
    const two = s.game.twoPlayers;
    if (Game.openingTurn(s.game) !== "human" || State.engineMoving(s) || (s.engineError && !two)) {
      say.announce(msg("waitEngine"));
      return false;
    }
    const before = Game.openingOf(s.game).state;
    let next;
    try {
      next = store.update((st) => State.openingActed(st, action));
    } catch (err) {
      say.announce(errorMessage(err));
      return false;
    }
    const kind = before.phase === "offer" ? "offer" : action.kind;
    const fields = { move: action.at ? cell(action.at) : "", n: action.n };
    const did = two ? msg("op_ann_player_" + kind, { ...fields, role: msg("op_role_" + before.actor) }) : msg("op_ann_you_" + kind, fields);
    if (next.settings.sound && action.kind === "place") playStone(kind === "offer" ? 1 : Opening.nextColour(before));
    say.announce([did, openingOverMessage(next.game)]);
    resume();
    return true;
  }

  // Browse to move n (how: what to say instead of the move reached).
  function goTo(n, how) {
    const { game } = get();
    n = Math.max(0, Math.min(game.moves.length, n));
    if (n === game.cursor) return;
    jobs.cancelButReview(); // a game review goes on while the player browses
    store.update((s) => State.browsed(s, n));
    const review = reviewWords(n);
    if (review) say.announce(how ? [how, review] : review);
    else say.announce(how || (n ? msg("atMove", { n, move: cell(game.moves[n - 1]) }) : msg("atStart")));
    resume();
  }

  // Undo: against the engine back to the player's previous turn, in analysis and with two
  // players one move. With two players, while the game is on (not over at the end of its
  // line: not a finished game looked back at), both agree first (confirmUndo). Under a
  // clock in play at the end the moves are taken back for good (State.tookBack);
  // otherwise undo browses back (redo brings the moves again).
  async function undo() {
    let s = get();
    const n = Game.undoTarget(s.game, bothSides(s));
    if (n === null) return;
    if (s.game.twoPlayers && !s.analysing && !State.overAtEnd(s.game)) {
      const asked = s.game;
      const last = asked.moves[asked.cursor - 1];
      const agreed = await confirmUndo({ color: colorLowerMsg(Game.colorOf(asked, asked.cursor - 1)), move: cell(last) });
      s = get();
      // refused, or the game moved on meanwhile (a stone, a flag: not the clock's own ticks)
      if (!agreed || s.game.moves !== asked.moves || s.game.cursor !== asked.cursor || State.overAtEnd(s.game)) return;
    }
    if (State.clockInPlay(s.game) && Game.atEnd(s.game)) {
      jobs.cancel();
      store.update((st) => State.tookBack(st, n, now()));
      say.announce(msg("takenBack"));
      resume();
      return;
    }
    goTo(n, msg("takenBack"));
  }

  function redo() {
    const n = Game.redoTarget(get().game, bothSides(get()));
    if (n !== null) goTo(n, msg("redone"));
  }

  // The running colour's time ran out (the clock's view saw it, or a move came too late):
  // the flag falls if it has not yet, the engine stops, and the result is said.
  function flagFell() {
    jobs.cancel();
    const s = get();
    const next = State.flagDue(s, now()) ? store.update((st) => State.flagFell(st, new Date(), now())) : s;
    const { pos } = State.shownOf(next.game);
    if (!pos.timeout) return;
    say.announce(resultMessage(pos));
    if (next.offer) say.notice(offerMessage(next), "info");
  }

  function swapSides() {
    const s = get();
    if (s.analysing || s.game.twoPlayers || State.shownOf(s.game).pos.over || State.clockAtEnd(s.game) || Game.inOpening(s.game)) return;
    jobs.cancel();
    const next = store.update((st) => ({ ...st, game: Game.withHuman(st.game, 3 - st.game.human) }));
    say.announce(msg("swapped", { color: colorLowerMsg(next.game.human) }));
    jobs.engineMove(true);
  }

  // A new game ({human, first, rule, size, level, twoPlayers?, clock?: a time control or
  // null}) with a fresh seed.
  function newGame(setup) {
    jobs.cancel();
    analysisView.reset();
    const seed = randomSeed();
    const next = store.update((s) => State.newGame(s, { ...setup, seed }));
    say.notice("");
    if (!next.game.twoPlayers) keepCoach(next.game.level); // (a level the game has not)
    const { opening, twoPlayers } = next.game;
    const rule = opening ? msg("opr_" + opening.rule) : null;
    if (opening && twoPlayers) say.announce(msg("newGameOpeningTwo", { rule }));
    else if (opening) say.announce(msg("newGameOpening", { rule, role: msg("op_role_" + opening.player) }));
    else if (twoPlayers) say.announce(msg("howToPlayTwo", { color: colorLowerMsg(next.game.first) }));
    else say.announce(msg("newGameAnn", { color: colorLowerMsg(next.game.human) }));
    jobs.engineMove();
  }

  // A level above those where the coach is on by default, for a player who has seen it:
  // it stays on (coach.js coachOn), said once with how to turn it off, and from then on
  // it is the player's choice.
  function keepCoach(level) {
    if (!keptAt(get().settings, level)) return;
    store.update((s) => ({ ...s, settings: { ...s.settings, coach: true } }));
    say.notice(msg("coachKept"), "info");
  }

  // A game from a record ({moves, size, rule, first}: a move list, link, file or finished
  // game): shown at its end, the player takes the side to move. Throws (and changes
  // nothing) when the record is bad. analysing: whether to analyse it (default: as before).
  // A game kept unfinished (result "unfinished") comes back as it was: the player on the
  // same side, at the same level (the engine moves if it is its turn). The game it
  // replaces, if in progress, goes to the finished games as unfinished (state.js opened);
  // returns true when it did (the caller says so: "keptUnfinished").
  function loadRecord(record, analysing) {
    const s = get();
    const seed = Game.isSeed(record.seed) ? record.seed : randomSeed(); // a finished game keeps its own
    const resumed = record.result === "unfinished";
    const level = resumed && Game.isLevel(record.level) ? record.level : s.game.level;
    // a finished game is played as it was (two players or not), anything else as the game on the board
    const twoPlayers = record.result ? record.twoPlayers === true : s.game.twoPlayers;
    let game = Game.fromRecord(record, { human: s.game.human, level, seed, twoPlayers, clock: recordClock(record) });
    if (resumed && Game.isColour(record.human)) game = Game.withHuman(game, record.human);
    jobs.cancel();
    analysisView.reset();
    const next = store.update((st) => State.opened(st, game, analysing, new Date()));
    resume();
    return State.keptUnfinished(s, next);
  }

  // A share link (#moves=h8,i9&rule=freestyle&size=15) opens that position, out of
  // analysis; a bad one is reported and changes nothing. The fragment is dropped either
  // way: a reload then shows the game as it goes on (from localStorage).
  function openFragment() {
    let kept;
    try {
      const link = parseFragment(location.hash);
      if (!link) return false;
      kept = loadRecord(link, false);
    } catch (err) {
      say.notice(msg("badLink", { err: errorMessage(err) }), "warn");
      dropFragment();
      return false;
    }
    say.notice([msg("linkOpened"), kept ? msg("keptUnfinished") : ""], "info");
    dropFragment();
    return true;
  }

  function dropFragment() {
    try { window.history.replaceState(null, "", location.pathname + location.search); } catch { /* ignore */ }
  }

  // The clock of a record: a finished game's as it was kept (storage.js checked it), a
  // link's time control with the start's times; none otherwise. Under an opening rule
  // the clock has seen no move until the opening is over (game.js clockedMoves).
  function recordClock(record) {
    const inOpening = !!record.opening && !Opening.isDone(Opening.fromRecord(record.opening, record.moves, record.size, record.rule).state);
    const n = inOpening ? 0 : record.moves.length;
    const next = n % 2 === 0 ? record.first : 3 - record.first;
    if (record.clock) return Clock.decodeClock(record.clock, n);
    return record.control ? Clock.clockOfRecord(record.control, n, next) : null;
  }

  function setAnalysis(on) {
    if (on === get().analysing || (on && Game.inOpening(get().game))) return;
    jobs.cancel();
    analysisView.reset();
    store.update({ analysing: on, hint: null });
    resume();
  }

  return {
    humanPlay, openingAction, goTo, undo, redo, swapSides, newGame, loadRecord, openFragment, setAnalysis, resume, flagFell,
    hint: () => jobs.hint(),
    moveNow: () => jobs.moveNow(),
    retry: () => jobs.retry(),
    setLevel(level) {
      store.update((s) => ({ ...s, game: Game.withLevel(s.game, level) }));
      keepCoach(level);
    },
    // the level offered after a win or a losing streak (state.offer): a new game there,
    // same side, first player, rule and size
    playOffered() {
      const { game, offer } = get();
      if (!offer || !levelOf(offer)) return false;
      newGame({
        human: game.human, first: game.first, rule: game.rule, size: game.size, level: offer, clock: controlOf(game), opening: openingSetup(game),
      });
      return true;
    },
    sideNextGame: () => say.notice(msg("sideNext"), "info"),
    // the number of best moves shown in analysis changed: an analysis starts again, asking
    // for the new count
    analysisCountChanged() {
      if (!get().analysing) return;
      jobs.cancel();
      resume();
    },
  };
}
