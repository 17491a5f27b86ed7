// Input: what the player does with the pointer, the keyboard and the page's controls,
// turned into actions (actions.js). On the board: a click plays, a tap previews and a
// second tap on the same point plays (settings.touchConfirm), the mouse previews the
// stone (or, on one of analysis's best moves, shows its line), the arrow keys move the
// keyboard cursor, Enter or Space plays, B reads analysis's best moves. Anywhere
// but in form fields (on the board with Alt or Ctrl): arrows, Home and End browse the game.

import { cellText } from "../model/coords.js";
import * as Game from "../model/game.js";
import { msg } from "../model/i18n.js";
import { controlOf, openingSetup } from "./actions.js";
import { chosenLevel } from "./level-chooser.js";
import { BLACK, WHITE } from "../model/rules.js";
import { playerMayPlay, positionKey, shownOf } from "../model/state.js";

const $ = (sel) => document.querySelector(sel);

// store: the state; board: board.js BoardView; view: view.js; analysisView:
// analysis-view.js; actions: actions.js.
export function setupInput({ store, board, view, analysisView, actions }) {
  const canvas = board.canvas;

  // Touch forgives a slip (settings.touchConfirm, on by default): a first tap previews the
  // stone where it would go and says so, a second tap on the same point plays it, a tap
  // elsewhere moves the preview. A mouse click, a pen, and touch with the setting off play
  // at once. The preview belongs to the position it was made on (gone when that changes).
  let pending = null; // {key, cell}: the touch preview
  const clearPending = () => {
    if (!pending) return;
    pending = null;
    board.hover = null;
    board.draw();
  };
  let lastPointer = "mouse"; // the pointer type of the last pointerdown (a click may not say)
  canvas.addEventListener("pointerdown", (ev) => { lastPointer = ev.pointerType || "mouse"; });

  canvas.addEventListener("click", (ev) => {
    const c = board.cellAt(ev.clientX, ev.clientY);
    if (!c) return;
    board.cursor = c;
    const s = store.get();
    const touch = (ev.pointerType || lastPointer) === "touch";
    if (touch && s.settings.touchConfirm && playerMayPlay(s)) {
      const key = positionKey(s);
      // (in the opening a stone goes on any free point the rule allows: the rule says)
      const legal = Game.inOpening(s.game) ? !shownOf(s.game).pos.stones.has(c.join(","))
        : !Game.illegalReason(s.game, ...c, shownOf(s.game).pos);
      const again = pending && pending.key === key && String(pending.cell) === String(c);
      if (legal && !again) {
        pending = { key, cell: c };
        board.hover = c;
        board.hoverColor = Game.nextStoneColour(s.game);
        board.draw();
        view.announce(msg("touchPreview", { move: cellText(c[0], c[1], s.game.size) }));
        return;
      }
    }
    clearPending();
    actions.humanPlay(...c);
  });
  store.subscribe((s) => {
    if (pending && (positionKey(s) !== pending.key || !playerMayPlay(s))) clearPending();
  });

  canvas.addEventListener("pointermove", (ev) => {
    if (ev.pointerType !== "mouse") return;
    pending = null; // a mouse now: its own preview
    const s = store.get();
    const c = board.cellAt(ev.clientX, ev.clientY);
    // on one of analysis's best moves: its line instead of the stone preview
    const onMark = analysisView.pointAt("board", c);
    const next = c && playerMayPlay(s) && !onMark && !shownOf(s.game).forbidden.has(c[0] + "," + c[1]) ? c : null;
    if (String(next) !== String(board.hover)) {
      board.hover = next;
      board.hoverColor = Game.nextStoneColour(s.game);
      board.draw();
    }
  });
  canvas.addEventListener("pointerleave", (ev) => {
    if (ev.pointerType !== "mouse" && pending) return; // a finger lifted: the preview stays
    board.hover = null;
    analysisView.pointAt("board", null);
    board.draw();
  });

  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  canvas.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return; // browsing keys: the document handler
    if (STEPS[ev.key]) {
      ev.preventDefault();
      const [dx, dy] = STEPS[ev.key];
      const [x, y] = board.cursor;
      const last = store.get().game.size - 1;
      board.cursor = [Math.min(last, Math.max(0, x + dx)), Math.min(last, Math.max(0, y + dy))];
      board.showCursor = true;
      view.cursorMoved();
      analysisView.pointAt("cursor", board.cursor); // on a best move: its line
      board.draw();
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      board.showCursor = true;
      actions.humanPlay(...board.cursor);
    } else if ((ev.key === "b" || ev.key === "B") && store.get().analysing) {
      ev.preventDefault();
      analysisView.read(); // the best moves, spoken
    }
  });
  canvas.addEventListener("focus", () => {
    // show the keyboard cursor only when focus came from the keyboard, not from a click
    board.showCursor = canvas.matches(":focus-visible");
    board.draw();
  });
  canvas.addEventListener("blur", () => {
    board.showCursor = false;
    analysisView.pointAt("cursor", null);
    board.draw();
  });

  // Browsing: arrows / Home / End anywhere but in form fields; on the board with Alt or Ctrl.
  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || document.querySelector("dialog[open]")) return;
    const tag = ev.target && ev.target.tagName;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
    const onBoard = ev.target === canvas;
    if (onBoard && !(ev.altKey || ev.ctrlKey || ev.metaKey)) return;
    const { game } = store.get();
    const to = { ArrowLeft: game.cursor - 1, ArrowRight: game.cursor + 1, Home: 0, End: game.moves.length }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    actions.goTo(to);
  });

  // ---- the controls ---------------------------------------------------------------------

  const sideSel = $("#side");
  const levelSel = $("#level");
  const game = () => store.get().game;
  const newGame = () => {
    const g = game();
    const human = Number(sideSel.value) === WHITE ? WHITE : BLACK;
    actions.newGame({
      human, level: g.level, rule: g.rule, first: g.first, size: g.size, twoPlayers: g.twoPlayers, clock: controlOf(g), opening: openingSetup(g),
    });
  };
  $("#new-game").addEventListener("click", newGame);
  sideSel.addEventListener("change", () => {
    if (game().moves.length === 0) newGame();
    else actions.sideNextGame();
  });
  levelSel.addEventListener("change", () => actions.setLevel(chosenLevel(levelSel) ?? Game.DEFAULT_LEVEL));
  $("#next-level").addEventListener("click", () => {
    if (actions.playOffered()) canvas.focus(); // the button is gone: the game is on the board
  });
  $("#undo").addEventListener("click", actions.undo);
  $("#redo").addEventListener("click", actions.redo);
  $("#hint").addEventListener("click", actions.hint);
  $("#swap").addEventListener("click", actions.swapSides);
  $("#analyse").addEventListener("click", () => actions.setAnalysis(!store.get().analysing));
  $("#move-now").addEventListener("click", actions.moveNow);
  $("#retry").addEventListener("click", actions.retry);
  $("#nav-first").addEventListener("click", () => actions.goTo(0));
  $("#nav-prev").addEventListener("click", () => actions.goTo(game().cursor - 1));
  $("#nav-next").addEventListener("click", () => actions.goTo(game().cursor + 1));
  $("#nav-last").addEventListener("click", () => actions.goTo(game().moves.length));
  $("#move-list").addEventListener("click", (ev) => {
    const b = ev.target.closest("button.mv");
    if (b) actions.goTo(Number(b.dataset.index));
  });
}
