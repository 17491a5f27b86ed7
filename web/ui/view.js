// The view: the state (state.js) on the page. The board canvas (its content and data-*
// attributes), the status and the line under it, the buttons' states, the move list and
// browsing, the engine's and search workers' lines, the thinking panel (think-view.js),
// analysis's best moves (analysis-view.js) and the game review (review-view.js); plus the
// two live regions (announce) and the notice. It subscribes to the store (update): a change of the engine's report alone
// redraws only the panel (and the board when it shows a line or marks), a change of the
// search workers alone only their line; anything else renders the page.

import { DEFAULT_SIZE, cellText, centre } from "../model/coords.js";
import * as Game from "../model/game.js";
import { currentLanguage, t, textOf } from "../model/i18n.js";
import { fillLevels } from "./level-chooser.js";
import { levelName, levelOf } from "../model/levels.js";
import { formatMoves } from "../model/records.js";
import { clockAtEnd, positionKey, shownOf } from "../model/state.js";
import { cursorText, engineReadyText, forbiddenText, howToPlay, playerLine, statusOf, workersText } from "../model/status.js";

const $ = (sel) => document.querySelector(sel);

// store: the state; board: board.js BoardView on the canvas; think: think-view.js;
// analysisView: analysis-view.js (it draws its own list; here its marks and lines);
// reviewView: review-view.js (its card and note; here its marks in the move list and its
// better line on the board); coachView: coach-view.js (its marks, sentence and check box);
// openingView: opening-view.js (the opening's panel of choices and black's offers).
export function createView({ store, board, think, analysisView, reviewView = null, coachView = null, openingView = null }) {
  const canvas = board.canvas;
  const moveList = $("#move-list");
  const buttons = {
    undo: $("#undo"), redo: $("#redo"), hint: $("#hint"), swap: $("#swap"), analyse: $("#analyse"),
    moveNow: $("#move-now"), retry: $("#retry"), first: $("#nav-first"), prev: $("#nav-prev"),
    next: $("#nav-next"), last: $("#nav-last"),
  };

  // The lines and marks on the board: the line shown (a top move's while one is hovered
  // or focused, else the game review's better line after a flagged move, else the best
  // line when asked for) and, in analysis, the best moves; then the board drawn.
  function drawBoard(s = store.get()) {
    const better = reviewView ? reviewView.line(s) : [];
    const { marks, overlay, line } = analysisView.draw(better.length ? better : think.bestLine(s));
    board.marks = marks;
    board.coach = coachView ? coachView.marks(s) : [];
    board.overlay = overlay;
    canvas.dataset.overlay = line.map((o) => cellText(o.x, o.y, s.game.size)).join(" ");
    board.draw();
  }

  function render(s = store.get()) {
    const { game } = s;
    const { pos, forbidden } = shownOf(game);
    if (board.size !== game.size) {
      board.setSize(game.size);
      board.cursor = centre(game.size);
    }
    const moves = Game.shownMoves(game);
    board.setPosition(moves, game.first);
    board.winningLine = pos.line;
    board.showNumbers = s.settings.numbers;
    board.showCoords = s.settings.coords;
    board.hint = s.hint && s.hint.key === positionKey(s) ? s.hint.move : null;
    board.hintColor = Game.sideToMove(game);
    board.forbidden = [...forbidden.keys()].map((k) => k.split(",").map(Number));
    if (openingView) openingView.render(s, board, canvas);
    drawBoard(s);

    const { code, text } = statusOf(s);
    Object.assign(canvas.dataset, {
      moves: formatMoves(moves, game.size), status: code, engine: s.engine.state,
      hint: board.hint ? cellText(board.hint[0], board.hint[1], game.size) : "", rule: game.rule,
      forbidden: forbiddenText(forbidden, game.size), size: String(game.size),
    });
    document.body.dataset.status = code;
    const status = $("#status");
    status.textContent = text.charAt(0).toUpperCase() + text.slice(1);
    status.dataset.status = code;
    $("#you-are").textContent = playerLine(s, code, DEFAULT_SIZE);

    const ready = s.engine.state === "ready" && !s.engineError;
    const toMove = Game.sideToMove(game);
    const opening = Game.inOpening(game); // the opening's choices are the players' own
    const bothSides = s.analysing || game.twoPlayers; // undo and redo step one move
    buttons.undo.disabled = Game.undoTarget(game, bothSides) === null;
    buttons.redo.disabled = Game.redoTarget(game, bothSides) === null;
    buttons.hint.disabled = s.analysing || pos.over || !ready || !!s.job || (toMove !== game.human && !game.twoPlayers) || opening;
    buttons.swap.hidden = game.twoPlayers; // (two players: nobody to swap with)
    buttons.swap.disabled = s.analysing || pos.over || clockAtEnd(game) || opening;
    buttons.analyse.disabled = opening;
    $("#side").disabled = !!game.opening; // the opening rule decides the colours
    // (two players: no side of yours, no engine's level)
    $(".settings").hidden = game.twoPlayers;
    $(".level-pick").hidden = game.twoPlayers;
    buttons.analyse.setAttribute("aria-pressed", String(s.analysing));
    buttons.analyse.textContent = t(s.analysing ? "stopAnalyse" : "analyse");
    buttons.moveNow.hidden = !(s.job && s.job.kind === "move" && s.job.sliced);
    buttons.retry.hidden = !s.engineError;
    $("#side").value = String(game.human);
    fillLevels($("#level"));
    $("#level").value = String(game.level);
    renderOffer(s);
    renderHowToPlay(s);
    buttons.first.disabled = buttons.prev.disabled = game.cursor === 0;
    buttons.next.disabled = buttons.last.disabled = Game.atEnd(game);
    $("#nav-pos").textContent = t("navPos", { n: game.cursor, total: game.moves.length });
    renderEngine(s);
    renderWorkers(s);
    if (reviewView) reviewView.render(s);
    if (coachView) coachView.render(s);
    renderMoveList(game);
    think.render(s);
    cursorLabel(s);
    showSaid();
  }

  // The level offered after a game (state.offer): its button, a plain one for the level
  // below after a losing streak (an offer to ignore as easily as to take).
  function renderOffer(s) {
    const offer = s.offer ? levelOf(s.offer) : null;
    $("#level-offer").hidden = !offer;
    $("#next-level").classList.toggle("primary", s.offerKind !== "easier");
    if (offer) $("#next-level").textContent = t("playLevel", { n: offer.number, name: levelName(offer, currentLanguage()) });
  }

  // How to play, in two lines, for a newcomer: until their first finished game, while no
  // game is being analysed.
  function renderHowToPlay(s) {
    const show = s.finished.length === 0 && Object.keys(s.results).length === 0 && !s.analysing;
    const box = $("#how-to-play");
    box.hidden = !show;
    if (show) [...box.children].forEach((line, i) => { line.textContent = howToPlay(s.game)[i]; });
  }

  function renderEngine(s) {
    if (!s.engine.ready) return;
    $("#engine-info").textContent = engineReadyText(s.engine.ready);
    canvas.dataset.loadMs = String(s.engine.ready.pageLoadMs);
  }

  function renderWorkers(s) {
    if (!s.workers) return;
    canvas.dataset.workers = String(s.workers.ready);
    canvas.dataset.threads = String(s.workers.threads);
    $("#workers-info").textContent = workersText(s.workers);
  }

  function renderMoveList(game) {
    moveList.textContent = "";
    moveList.classList.toggle("reviewed", !!reviewView && reviewView.marking());
    if (!game.moves.length) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = t("noMoves");
      moveList.append(li);
      return;
    }
    let current = null;
    for (let i = 0; i < game.moves.length; i += 2) {
      const li = document.createElement("li");
      const n = document.createElement("span");
      n.className = "n";
      n.textContent = `${i / 2 + 1}.`;
      li.append(n);
      for (const j of [i, i + 1]) {
        if (j >= game.moves.length) break;
        const b = document.createElement("button");
        b.type = "button";
        b.className = "mv" + (j >= game.cursor ? " future" : "");
        b.textContent = cellText(game.moves[j][0], game.moves[j][1], game.size);
        b.dataset.index = String(j + 1);
        if (j + 1 === game.cursor) { b.setAttribute("aria-current", "step"); current = b; }
        if (reviewView) reviewView.markMove(b, j + 1);
        li.append(b);
      }
      moveList.append(li);
    }
    if (current) {
      const top = current.offsetTop;
      if (top < moveList.scrollTop || top > moveList.scrollTop + moveList.clientHeight - 24) {
        moveList.scrollTop = top - moveList.clientHeight / 2;
      }
    }
    moreHint();
  }

  // The line under the move list when it holds more than it shows: that it scrolls.
  function moreHint() {
    const more = $("#move-list-more");
    const scrolls = moveList.clientHeight > 0 && moveList.scrollHeight > moveList.clientHeight + 2;
    more.hidden = !scrolls;
    more.textContent = scrolls ? t("movesScroll", { n: moveList.querySelectorAll(".mv").length }) : "";
  }
  // (its size changes when the Moves box opens or closes and with the window)
  new ResizeObserver(() => moreHint()).observe(moveList);

  // The board's label says where the keyboard cursor is; returns the short form.
  function cursorLabel(s = store.get()) {
    const { pos } = shownOf(s.game);
    const empty = !pos.stones.has(board.cursor[0] + "," + board.cursor[1]);
    const marked = empty ? analysisView.describe(board.cursor) || (coachView ? coachView.describe(s, board.cursor) : "") : "";
    const { short, label } = cursorText(s, board.cursor, marked);
    canvas.setAttribute("aria-label", label);
    return short;
  }

  // The notice and the last thing said, kept as messages (i18n.js) and rendered on every
  // render, so that a change of language shows them in the new one at once. A live
  // region is written only when its text changes (a screen reader would say it again).
  const said = { notice: "", announce: "" };
  function showSaid() {
    for (const [id, message] of [["#notice", said.notice], ["#announce", said.announce]]) {
      const text = textOf(message);
      const el = $(id);
      if (el.textContent !== text) el.textContent = text;
    }
  }

  function update(s, prev) {
    const changed = Object.keys(s).filter((k) => s[k] !== prev[k]);
    if (changed.every((k) => k === "info")) {
      think.render(s);
      if (think.onBoard(s)) drawBoard(s);
    } else if (changed.every((k) => k === "workers")) {
      renderWorkers(s);
    } else {
      render(s);
    }
  }

  return {
    render,
    update,
    drawBoard,
    // the keyboard cursor moved: its place is said and its label set
    cursorMoved() {
      $("#cursor-announce").textContent = cursorLabel();
    },
    // what is said (a message, i18n.js): kept, and shown in the language of the moment
    announce(message) {
      said.announce = message;
      showSaid();
    },
    // empties the screen-reader-only live regions (the cursor's, the analysis', the
    // coach's): what they said was in a language no longer shown, or before a test reset
    silence() {
      for (const el of document.querySelectorAll(".visually-hidden[aria-live]")) el.textContent = "";
    },
    // the notice (a message, i18n.js; "" for none), kept like what is said
    notice(message, kind = "info") {
      said.notice = message || "";
      $("#notice").dataset.kind = kind;
      showSaid();
    },
  };
}
