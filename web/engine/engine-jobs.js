// The page's engine jobs, run by the job runner (jobs.js): the engine's move (at a
// node-limited level one level think, {level, seed} and nothing else, never answered
// sooner than LEVEL_FLOOR_MS; at a timed level one timed think, or for the unlimited level
// think slices until Move now), a hint (a think of the full engine whose move is shown,
// not played) and analysis (slices of growing length with the best moves, until stopped
// or solved). Also what the page makes of the engine client's state (ready,
// restarted, failed) and of a failed job. Everything the jobs learn goes into the state
// (state.js); the view follows.

import { cellText } from "../model/coords.js";
import { remaining } from "../model/clock.js";
import {
  HINT_MAX_MS, LEVEL_FLOOR_MS, SLICES, clockFloorMs, clockThinkMs, deadlineFor as deadlineOf, levelThinkTimes, openingThinkTimes,
  sliceMs as sliceOf,
} from "./deadlines.js";
import { EngineTimeout } from "./engine-client.js";
import * as Game from "../model/game.js";
import { errorMessage, msg, t } from "../model/i18n.js";
import { createJobRunner } from "./jobs.js";
import { levelOf, nodeLimited, thinkMs } from "../model/levels.js";
import { WHITE } from "../model/rules.js";
import { isDecisive } from "../model/score.js";
import { playStone } from "../ui/sound.js";
import { clockInPlay, engineMoved, flagFellBetween, positionKey, shownOf, withInfo } from "../model/state.js";
import { offerMessage, openingOverMessage, resultMessage, shapeMsg } from "../model/status.js";

// The game review's job is review-job.js's, on the same runner (runner below); its
// failures go to onReviewFailure.

// The think times and deadlines are deadlines.js's (re-exported for the page's callers).
export { LEVEL_DEADLINE_AS_MS, LEVEL_FLOOR_MS, LEVEL_GUESS_NPS, SLICES } from "./deadlines.js";

// A think message's position: the game's shown one, with the colour of its first move (the
// engine's scores name black's chance by it: score.js).
export function thinkPosition(game) {
  const first = game.first === WHITE ? "white" : "black";
  return { type: "think", size: game.size, rule: game.rule, first, moves: Game.shownMoves(game) };
}

// The think message of the engine's move at node-limited level `level` (a levels.js
// level) in the game's shown position: limits {level, seed} alone, so that the move is a
// function of the position, the level and the seed, the same on every device.
export function levelThink(game, level) {
  return { ...thinkPosition(game), limits: { level: level.number, seed: game.seed } };
}

// The opening message of the engine's turn in the game's opening (gomoku.protocol.webopening):
// the moves, choices and offers so far, the game's seed (the opening stones it proposes).
export function openingMessage(game) {
  const { rule, choices, offers } = game.opening;
  return { type: "opening", size: game.size, rule: game.rule, opening: rule, moves: Game.shownMoves(game), choices: [...choices], offers: offers.map(([x, y]) => [x, y]), seed: game.seed };
}

// What is said of the engine's opening actions (a message, its stones and its offers
// grouped): "The engine places h8 h9 j10."
export function openingSentence(actions, size, phases) {
  const words = [];
  const cells = (list) => list.map((a) => cellText(a.at[0], a.at[1], size)).join(" ");
  let i = 0;
  while (i < actions.length) {
    const a = actions[i];
    if (a.kind === "place") {
      const offer = phases[i] === "offer";
      let j = i;
      while (j < actions.length && actions[j].kind === "place" && (phases[j] === "offer") === offer) j++;
      words.push(msg(offer ? "op_ann_engine_offer" : "op_ann_engine_place", { moves: cells(actions.slice(i, j)) }));
      i = j;
      continue;
    }
    words.push(msg("op_ann_engine_" + a.kind, { move: a.at ? cellText(a.at[0], a.at[1], size) : "", n: a.n }));
    i += 1;
  }
  return words;
}

// store: the state; engine: the engine client (parallel-client.js); params: params.js;
// analysisView: analysis-view.js; say: {announce, notice} (view.js); onReady(): the engine
// is ready (again): the page resumes its work; onReviewFailure(err, {job, retrying}): a
// review job failed (review-job.js failed). now / sleep: the clock and timer of the job
// runner (tests pass fakes). clockNow: the game clock's time source (main.js; clock.js
// `now`); onFlag(): the engine's move came after its flag was due (its flag falls
// instead: state.js played), said by the page's flag handler.
export function createEngineJobs({
  store, engine, params, analysisView, say, onReady, onReviewFailure, now, sleep, clockNow = () => performance.now(), onFlag = () => {},
}) {
  // (deadlines.js; ?deadline= and ?slice= override them)
  const deadlineFor = (ms) => deadlineOf(ms, params.deadline);
  const sliceMs = (i) => sliceOf(i, params.slice);

  const runner = createJobRunner({
    client: engine,
    deadlineFor,
    ...(now ? { now } : {}),
    ...(sleep ? { sleep } : {}),
    isTimeout: (err) => err instanceof EngineTimeout,
    onChange: (job) => store.update({ job }),
    onFailure(err, { job, retrying }) {
      if (job && job.kind === "review" && onReviewFailure) {
        onReviewFailure(err, { job, retrying }); // the review says so itself; the engine is fine
        return;
      }
      if (retrying) {
        // the client already started a fresh worker; its ready state resumes the work
        say.notice(msg("tooLong"), "warn");
        return;
      }
      const engineError = String(err.message || err);
      store.update({ engineError });
      say.notice(msg("problem", { err: errorMessage(err) }), "error");
    },
  });

  // multiPv > 1 (analysis): the engine also reports its best multiPv moves (top)
  function thinkMessage(game, timeMs, book = true, multiPv = 1) {
    const limits = book ? { timeMs } : { timeMs, book: false };
    if (multiPv > 1) limits.multiPv = multiPv;
    return { ...thinkPosition(game), limits };
  }

  // A move the page promises within maxMs (a timed level's "10 s a move", a hint): the
  // engine's time manager makes it its hard cap (webapi.py maxMs; timeman.py
  // move_times), where timeMs is only a soft target it may overrun.
  function cappedMessage(game, maxMs) {
    return { ...thinkPosition(game), limits: { maxMs } };
  }

  const showInfo = (reply, stm, key) => store.update((s) => withInfo(s, reply, stm, key));

  // The position the job is about: the shown one, its key and the colour to move.
  function about(s) {
    return { game: s.game, key: positionKey(s), stm: Game.sideToMove(s.game) };
  }

  // May the engine start a job now?
  const free = (s) => !runner.busy() && !shownOf(s.game).pos.over && !s.engineError && engine.state === "ready";

  // An engine move is checked like the player's: off the board, taken or, under renju, on
  // a point forbidden for black is reported (thrown: the job fails) and not played. The
  // error carries its text's key and fields (i18n.js errorMessage: said in the language
  // of the moment).
  const refused = (key, vars) => Object.assign(new Error(t(key, vars)), { key, vars });
  function checkEngineMove(x, y, reply) {
    const { game } = store.get();
    const why = Game.illegalReason(game, x, y);
    if (why === "forbidden") {
      throw refused("engineForbidden", { move: cellText(x, y, game.size), shape: shapeMsg(Game.forbiddenAt(game, x, y)) });
    }
    if (why) throw refused("engineIllegal", { move: JSON.stringify(reply.move) });
    if (reply.guard) console.info("renju guard:", reply.guard.message);
  }

  // The engine's turn in the game's opening: its actions asked of the worker (an
  // "opening" message), checked by the rule and applied all at once; then, if the opening
  // is over and the engine is to move, its move. (The clock starts when the opening is
  // over: the engine's opening choices are not charged to it.)
  function openingTurn() {
    const s = store.get();
    if (!free(s) || Game.openingTurn(s.game) !== "engine" || !Game.atEnd(s.game)) return;
    const { game, key } = about(s);
    store.update({ hint: null });
    runner.start({
      kind: "move", key, floorMs: LEVEL_FLOOR_MS, replyType: "opening",
      next: (i) => (i === 0 ? { message: openingMessage(game), ...openingThinkTimes(params.deadline) } : null),
      onDone(reply) {
        if (!Array.isArray(reply.actions) || !reply.actions.length) throw refused("engineIllegal", { move: JSON.stringify(reply.actions) });
        let next = game;
        const phases = [];
        for (const action of reply.actions) {
          phases.push(Game.openingOf(next).state.phase);
          next = Game.openingAct(next, action); // throws the rule's refusal: an engine problem
        }
        const after = store.update((st) => ({ ...st, game: next, hint: null }));
        if (after.settings.sound && reply.actions.some((a) => a.kind === "place")) playStone(1);
        if (reply.notes && reply.notes.length) console.info("opening:", reply.notes.join("; "));
        say.announce([openingSentence(reply.actions, game.size, phases), openingOverMessage(after.game)]);
        engineMove();
      },
    });
  }

  // The game clock's limits for the engine's move in the shown position: the game's
  // starting time and what is left on the engine's clock (the brain's timeout_match and
  // time_left: the engine's time manager spreads it, webapi.py), or null without a clock
  // in play.
  function clockLimits(game) {
    if (!clockInPlay(game)) return null;
    const left = remaining(game.clock, Game.sideToMove(game), clockNow());
    return { matchMs: game.clock.baseMs, timeLeftMs: Math.floor(left) };
  }

  // The engine's move, when it is the engine's turn at the end of the game (force: also
  // while browsing, after Swap sides); in the opening, its turn there; never with two
  // players.
  function engineMove(force = false) {
    const s = store.get();
    if (s.game.twoPlayers) return;
    if (Game.inOpening(s.game)) {
      if (!s.analysing) openingTurn();
      return;
    }
    if (!free(s) || s.analysing || Game.sideToMove(s.game) === s.game.human) return;
    if (!force && !Game.atEnd(s.game)) return;
    const { game, key, stm } = about(s);
    const level = levelOf(game.level);
    const started = performance.now();
    const clock = clockLimits(game);
    store.update({ hint: null });
    if (nodeLimited(level)) {
      // one level think; ?time= does not apply (the move must not depend on the clock);
      // a game clock only caps its time (its nodes decide while the clock allows them)
      const message = levelThink(game, level);
      if (clock) message.limits = { ...message.limits, ...clock };
      const step = { message, ...levelThinkTimes(level.nodes, params.deadline) };
      runner.start({
        kind: "move", key, floorMs: clock ? clockFloorMs(clock.timeLeftMs) : LEVEL_FLOOR_MS,
        next: (i) => (i === 0 ? step : null),
        onInfo: (info) => showInfo(info, stm, key),
        onDone: played,
      });
      return;
    }
    // a timed level (the full engine on the clock; 0: until Move now); under a game clock
    // Expert keeps its promise within the clock (the tighter wins), Unlimited plays by
    // the clock alone (one think)
    const per = thinkMs(level) ? (params.time ?? thinkMs(level)) : null;
    runner.start({
      kind: "move", key, sliced: per == null && !clock,
      // a timed level: one think; unlimited: slices until Move now or a solved position
      next(i, last) {
        if (clock) {
          if (i > 0) return null;
          const message = per != null ? cappedMessage(game, per) : thinkPosition(game);
          message.limits = { ...message.limits, ...clock };
          return { message, ms: per ?? clockThinkMs(clock.timeLeftMs) };
        }
        if (per != null) return i === 0 ? { message: cappedMessage(game, per), ms: per } : null;
        return last && isDecisive(last) ? null : { message: thinkMessage(game, sliceMs(i)), ms: sliceMs(i) };
      },
      onInfo: (info) => showInfo(info, stm, key),
      onReply: (reply) => { if (per == null) showInfo(reply, stm, key); },
      onDone: played,
    });

    // the engine's move played (the job's last reply), charged to its clock
    function played(reply) {
      const [x, y] = Array.isArray(reply.move) ? reply.move : [];
      checkEngineMove(x, y, reply);
      const move = cellText(x, y, game.size);
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      const before = store.get();
      const next = store.update((st) => engineMoved(st, reply, stm, key, [x, y], { move, secs }, new Date(), clockNow()));
      if (flagFellBetween(before, next)) { onFlag(); return; } // its time ran out first
      if (next.settings.sound) playStone(Game.colorOf(next.game, next.game.cursor - 1));
      say.announce([msg("enginePlays", { move }), resultMessage(shownOf(next.game).pos)]);
      say.notice(offerMessage(next)); // the level below after the third loss in a row, if so
    }
  }

  // A hint: the engine's move for the player, marked on the board, not played.
  function hint() {
    const s = store.get();
    if (Game.inOpening(s.game)) return; // the opening's choices are the player's own
    if (!free(s) || s.analysing) {
      say.announce(msg("hintBusy"));
      return;
    }
    if (Game.sideToMove(s.game) !== s.game.human && !s.game.twoPlayers) return;
    const { game, key, stm } = about(s);
    const ms = params.time ?? HINT_MAX_MS; // the full engine, whatever the level
    runner.start({
      kind: "hint", key,
      next: (i) => (i === 0 ? { message: cappedMessage(game, ms), ms } : null),
      onInfo: (info) => showInfo(info, stm, key),
      onDone(reply) {
        checkEngineMove(...(Array.isArray(reply.move) ? reply.move : []), reply);
        store.update((st) => ({ ...withInfo(st, reply, stm, key), hint: { key, move: reply.move } }));
        say.announce(msg("hintIs", { move: cellText(reply.move[0], reply.move[1], game.size) }));
      },
    });
  }

  // Analysis of the shown position: slices of growing length, each showing its best moves
  // (multi-PV, no opening book: analysis shows what a search finds), until stopped or
  // solved (at the longest slice: more time adds nothing then).
  function analyse() {
    const s = store.get();
    if (!s.analysing || !free(s)) return;
    const { game, key, stm } = about(s);
    const want = s.settings.analysisMoves; // the best moves asked for (multi-PV)
    // a report is shown, in the panel and as marks on the board, when it replaces the one
    // shown (analysis.js replacesTop: deeper, or a new slice as deep); throws on a
    // malformed top
    const report = (reply) => {
      if (analysisView.offer(reply, { key, want, size: game.size })) showInfo(reply, stm, key);
    };
    analysisView.begin();
    runner.start({
      kind: "analyse", key, sliced: true,
      next(i, last) {
        if (last && isDecisive(last) && i - 1 >= SLICES.length - 1) return null;
        return { message: thinkMessage(game, sliceMs(i), false, want), ms: sliceMs(i) };
      },
      onInfo(info) {
        try {
          report(info);
        } catch (err) {
          console.warn("analysis info ignored:", err.message);
        }
      },
      onReply(reply) {
        report(reply);
        analysisView.sliceEnded();
      },
    });
  }

  // The engine client's state changed (its onState).
  function engineState(state, detail) {
    const engineInfo = { state, restarts: engine.restarts, ready: store.get().engine.ready };
    if (state === "ready") {
      console.info("engine ready", JSON.stringify({ pageLoadMs: detail.pageLoadMs, workerMs: detail.loadMs, start: detail.start }));
      const quiet = runner.takeQuietRestart();
      store.update({ engine: { ...engineInfo, ready: detail } });
      if (engine.restarts && !quiet) say.notice(msg("restarted"), "info");
      onReady();
    } else if (state === "failed") {
      store.update({ engine: engineInfo, engineError: detail });
      say.notice(msg("cannotStart", { err: detail }), "error");
    } else {
      store.update({ engine: engineInfo });
    }
  }

  return {
    engineMove, hint, analyse, engineState,
    cancel: () => runner.cancel(),
    // cancel the job under way unless it is a game review (browsing leaves a review running)
    cancelButReview() {
      const job = runner.current();
      if (!job || job.kind !== "review") runner.cancel();
    },
    runner,
    moveNow: () => runner.moveNow(),
    // Retry engine: the error is forgotten and a fresh worker started
    retry() {
      store.update({ engineError: null });
      runner.resetRetries();
      say.notice("");
      engine.restart();
    },
  };
}
