// The puzzles page's views (puzzles.html): the board, the prompt and the line under it,
// the feedback, the player's rating, streak and history, and the board's input by mouse
// and keyboard. What they show is the page's state (model/puzzle-play.js) and progress
// (model/puzzles.js); the page (puzzles-page.js) says when.

import { cellText } from "../model/coords.js";
import { t } from "../model/i18n.js";
import { colourName, headline } from "../model/puzzle-play.js";

export class PuzzlesView {
  // doc: the page's document; board: its BoardView on canvas #board.
  constructor(doc, board) {
    this.doc = doc;
    this.board = board;
    this.canvas = board.canvas || doc.querySelector("#board");
  }

  $(sel) {
    return this.doc.querySelector(sel);
  }

  feedback(text, kind = "") {
    const el = this.$("#pz-feedback");
    el.textContent = text.replace(/(?<=[。！？])\s+/gu, ""); // sentences joined by spaces: none after a Chinese one
    el.className = "notice " + kind;
  }

  notice(text) {
    this.$("#pz-notice").textContent = text;
  }

  renderBoard(st) {
    this.board.setPosition(st.moves);
    this.board.draw();
    this.canvas.dataset.moves = String(st.moves.length);
    this.canvas.dataset.phase = st.phase;
  }

  renderText(st, progress, now = Date.now()) {
    const p = st.puzzle;
    const words = headline(st, now);
    this.$("#pz-prompt").textContent = words.prompt;
    this.$("#pz-info").textContent = words.info;
    this.canvas.setAttribute("aria-label", t("pzBoardLabel", { size: p ? p.size : 15 }));
    this.$("#pz-rating").textContent = String(progress.rating);
    this.$("#pz-streak").textContent = String(progress.streak);
    this.$("#pz-best").textContent = String(progress.best);
    this.$("#pz-played").textContent = String(progress.games);
    const list = this.$("#pz-history");
    list.replaceChildren();
    if (!progress.history.length) {
      const li = this.doc.createElement("li");
      li.textContent = t("pzNoHistory");
      list.append(li);
    }
    for (const e of progress.history) {
      const li = this.doc.createElement("li");
      li.className = e.solved ? "solved" : "failed";
      li.textContent = t(e.solved ? "pzHistSolved" : "pzHistFailed", { id: e.id, before: e.before, after: e.after });
      list.append(li);
    }
    this.$("#pz-retry").hidden = st.phase !== "wrong" && st.phase !== "failed";
    this.$("#pz-show").hidden = st.phase !== "wrong" && st.phase !== "failed";
    this.doc.body.dataset.status = st.phase;
  }

  showRetry() {
    this.$("#pz-retry").hidden = false;
  }

  // The board's input: a click plays the cell; the arrow keys move a cursor (announced),
  // Enter or space plays it.
  bindInput(play) {
    const { board, canvas } = this;
    canvas.addEventListener("click", (ev) => {
      const cell = board.cellAt(ev.clientX, ev.clientY);
      if (cell) {
        board.cursor = cell;
        board.showCursor = false; // the keyboard's cursor shows when the keys are used
        play(cell[0], cell[1]);
      }
    });
    canvas.addEventListener("keydown", (ev) => {
      const size = board.size;
      const c = board.cursor || [Math.floor(size / 2), Math.floor(size / 2)];
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      if (moves[ev.key]) {
        ev.preventDefault();
        const [dx, dy] = moves[ev.key];
        board.cursor = [Math.max(0, Math.min(size - 1, c[0] + dx)), Math.max(0, Math.min(size - 1, c[1] + dy))];
        board.showCursor = true;
        board.draw();
        const stone = board.stones.get(board.cursor[0] + "," + board.cursor[1]);
        this.$("#cursor-announce").textContent = cellText(board.cursor[0], board.cursor[1], size) +
          (stone ? ", " + colourName(stone) : "");
      } else if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        board.showCursor = true;
        play(c[0], c[1]);
      }
    });
    canvas.addEventListener("blur", () => { board.showCursor = false; board.draw(); });
  }
}
