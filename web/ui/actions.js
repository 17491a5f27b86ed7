// The player's actions on the game: play a stone, browse, undo / redo, swap sides, a new
// game, open a record or a share link, analysis on / off, the level; each cancels the
// engine's job it makes pointless, changes the state (state.js) and lets the engine go on
// (resume: its move, or the analysis). Called by input.js and the dialogs.

import { cellText } from "../model/coords.js";
import * as Game from "../model/game.js";
import { currentLanguage, errorText, t } from "../model/i18n.js";
import { levelName, levelOf } from "../model/levels.js";
import * as Opening from "../model/opening.js";
import { parseFragment } from "../model/records.js";
import { playStone } from "./sound.js";
import * as State from "../model/state.js";
import { colorLower, colorWord, offerSentence, resultSentence, sentences, shapeText } from "../model/status.js";

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
// notice} (view.js); reviewWords(n): the game review's words for move n ("Move 14, white
// j9: blunder. Better: k8.", review-view.js words) or "".
export function createActions({ store, jobs, analysisView, say, reviewWords = () => "" }) {
  const get = () => store.get();
  const cell = ([x, y]) => cellText(x, y, get().game.size);

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
    if (pos.over) { say.announce(t("gameOver")); return false; }
    if (!s.analysing) {
      if (s.engineError || State.engineMoving(s)) { say.announce(t("waitEngine")); return false; }
      if (toMove !== s.game.human) {
        say.announce(Game.atEnd(s.game) ? t("waitEngine") : t("engineToMoveHere"));
        return false;
      }
    }
    if (pos.stones.has(x + "," + y)) {
      say.announce(t("taken", { move: cell([x, y]) }));
      return false;
    }
    if (forbidden.has(x + "," + y)) {
      say.announce(t("forbiddenMove", { move: cell([x, y]), shape: shapeText(forbidden.get(x + "," + y)) }));
      return false;
    }
    // a hint or analysis of the position that is about to change (a game review ends
    // when the moves change: review-job.js)
    jobs.cancelButReview();
    const next = store.update((st) => State.played(st, x, y, new Date()));
    if (next.settings.sound) playStone(toMove);
    const said = s.analysing ? t("playsMove", { color: colorWord(toMove), move: cell([x, y]) })
      : t("youPlayMove", { move: cell([x, y]) });
    say.announce(said + resultSentence(State.shownOf(next.game).pos));
    if (next.offer) say.notice(offerSentence(next), "info"); // the button: view.js #next-level
    resume();
    return true;
  }

  // The player's action in the opening ({kind, at?, n?}: opening.js): a stone, an offer,
  // the offer chosen, a colour taken, two more stones, the number declared. Refused (and
  // said why, in the page's language) when it is not the player's turn or the rule does
  // not allow it; then the engine's turn, if it is.
  function openingAction(action) {
    const s = get();
    if (Game.openingTurn(s.game) !== "human" || State.engineMoving(s) || s.engineError) {
      say.announce(t("waitEngine"));
      return false;
    }
    const before = Game.openingOf(s.game).state;
    let next;
    try {
      next = store.update((st) => State.openingActed(st, action));
    } catch (err) {
      say.announce(errorText(err));
      return false;
    }
    const kind = before.phase === "offer" ? "offer" : action.kind;
    const done = Game.inOpening(next.game) ? "" : t("op_ann_done", { colour: colorLower(next.game.human) });
    const said = sentences(t("op_ann_you_" + kind, { move: action.at ? cell(action.at) : "", n: action.n }), done);
    if (next.settings.sound && action.kind === "place") playStone(kind === "offer" ? 1 : Opening.nextColour(before));
    say.announce(said);
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
    if (review) say.announce(how ? how + (/[。！？]$/.test(how) ? "" : " ") + review : review);
    else say.announce(how || (n ? t("atMove", { n, move: cell(game.moves[n - 1]) }) : t("atStart")));
    resume();
  }

  function undo() {
    const n = Game.undoTarget(get().game, get().analysing);
    if (n !== null) goTo(n, t("takenBack"));
  }

  function redo() {
    const n = Game.redoTarget(get().game, get().analysing);
    if (n !== null) goTo(n, t("redone"));
  }

  function swapSides() {
    const s = get();
    if (s.analysing || State.shownOf(s.game).pos.over || Game.inOpening(s.game)) return;
    jobs.cancel();
    const next = store.update((st) => ({ ...st, game: Game.withHuman(st.game, 3 - st.game.human) }));
    say.announce(t("swapped", { color: colorLower(next.game.human) }));
    jobs.engineMove(true);
  }

  // A new game ({human, first, rule, size, level}) with a fresh seed.
  function newGame(setup) {
    jobs.cancel();
    analysisView.reset();
    const seed = randomSeed();
    const next = store.update((s) => State.newGame(s, { ...setup, seed }));
    say.notice("");
    const opening = next.game.opening;
    say.announce(opening ? t("newGameOpening", { rule: t("opr_" + opening.rule), role: t("op_role_" + opening.player) })
      : t("newGameAnn", { color: colorLower(next.game.human) }));
    jobs.engineMove();
  }

  // A game from a record ({moves, size, rule, first}: a move list, link, file or finished
  // game): shown at its end, the player takes the side to move. Throws (and changes
  // nothing) when the record is bad. analysing: whether to analyse it (default: as before).
  // A game kept unfinished (result "unfinished") comes back as it was: the player on the
  // same side, at the same level (the engine moves if it is its turn). The game it
  // replaces, if in progress, goes to the finished games as unfinished (state.js opened);
  // returns true when it did (the caller says so: t("keptUnfinished")).
  function loadRecord(record, analysing) {
    const s = get();
    const seed = Game.isSeed(record.seed) ? record.seed : randomSeed(); // a finished game keeps its own
    const resumed = record.result === "unfinished";
    const level = resumed && Game.isLevel(record.level) ? record.level : s.game.level;
    let game = Game.fromRecord(record, { human: s.game.human, level, seed });
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
      say.notice(t("badLink", { err: errorText(err) }), "warn");
      dropFragment();
      return false;
    }
    say.notice(t("linkOpened") + (kept ? " " + t("keptUnfinished") : ""), "info");
    dropFragment();
    return true;
  }

  function dropFragment() {
    try { window.history.replaceState(null, "", location.pathname + location.search); } catch { /* ignore */ }
  }

  function setAnalysis(on) {
    if (on === get().analysing || (on && Game.inOpening(get().game))) return;
    jobs.cancel();
    analysisView.reset();
    store.update({ analysing: on, hint: null });
    resume();
  }

  return {
    humanPlay, openingAction, goTo, undo, redo, swapSides, newGame, loadRecord, openFragment, setAnalysis, resume,
    hint: () => jobs.hint(),
    moveNow: () => jobs.moveNow(),
    retry: () => jobs.retry(),
    setLevel: (level) => store.update((s) => ({ ...s, game: Game.withLevel(s.game, level) })),
    // the level offered after a win or a losing streak (state.offer): a new game there,
    // same side, first player, rule and size
    playOffered() {
      const { game, offer } = get();
      if (!offer || !levelOf(offer)) return false;
      newGame({ human: game.human, first: game.first, rule: game.rule, size: game.size, level: offer, opening: openingSetup(game) });
      return true;
    },
    sideNextGame: () => say.notice(t("sideNext"), "info"),
    // the number of best moves shown in analysis changed: an analysis starts again, asking
    // for the new count
    analysisCountChanged() {
      if (!get().analysing) return;
      jobs.cancel();
      resume();
    },
  };
}
