// Analysis with several moves, on the page: the engine's best moves of the analysed
// position as marks on the board (with their scores, the best one set apart), a list in
// the thinking panel, their lines shown while one is hovered or focused (on the board or
// in the list), the canvas's data-top-moves, the setting "best moves shown" and what a
// screen reader hears. The logic is analysis.js's; the analysis job (engine-jobs.js)
// feeds the engine's reports in (offer) and tells when a search slice ended (sliceEnded);
// the view (view.js) asks what to draw (draw).

import {
  boardMarks, chooseTop, isTopCount, lineOverlay, readTop, replacesTop, shouldAnnounce, spokenTop, topIndexAt,
  topMovesText,
} from "../model/analysis.js";
import { cellText } from "../model/coords.js";
import { t } from "../model/i18n.js";
import { isDecisive, scoreWords } from "../model/score.js";

const $ = (sel) => document.querySelector(sel);

// canvas: the board; count(): the setting "best moves shown" (settings.js analysisMoves);
// setCount(n): change it; context() -> {analysing, key, size, stm, blocked(x, y),
// colorWord(c)} of the shown position; play(x, y): play a move (a click on a listed move);
// onChange(): redraw the board (the marks or the line shown changed); onCount(): the
// setting changed.
export function setupAnalysisView({ canvas, count, setCount, context, play, onChange, onCount }) {
  const box = $("#top-box");
  const list = $("#top-moves");
  const readBtn = $("#read-top");
  const live = $("#analysis-announce");
  const select = $("#opt-top-moves");
  let report = null; // {key, want, depth, decisive, top}: the analysis shown
  // the move whose line is shown: {source: "board" | "cursor", point} (the pointer or the
  // keyboard cursor on a mark) or {source: "list", index} (a button of the list)
  let hover = null;
  let lastSpoken = null; // {key, best}
  let warned = null; // the report whose dropped moves were logged

  // The moves to show for the shown position ([] outside analysis or for another one).
  function shown() {
    const ctx = context();
    if (!ctx.analysing || !report || report.key !== ctx.key) return [];
    const { moves, dropped } = chooseTop(report.top, { size: ctx.size, count: count(), blocked: ctx.blocked });
    if (dropped.length && warned !== report) {
      warned = report;
      console.warn("analysis: the engine's top moves left out:", JSON.stringify(dropped));
    }
    return moves;
  }

  // An info or result of an analysis search (want: the multi-PV count asked for). True
  // when it replaces the report shown (replacesTop); throws on a malformed top.
  function offer(reply, { key, want, size }) {
    const next = {
      key, want, depth: reply.depth, decisive: isDecisive(reply),
      top: readTop(reply, size),
    };
    if (!replacesTop(report, next)) return false;
    report = next;
    return true;
  }

  function words(stm) {
    const ctx = context();
    return {
      intro: (items) => t("topSummary", { color: ctx.colorWord(stm), list: items }),
      sep: t("topSep"), none: t("topNone"), score: (score) => scoreWords(score, t),
    };
  }

  function speak(text) {
    // cleared first, so that the same sentence asked for twice is heard twice
    live.textContent = "";
    window.setTimeout(() => { live.textContent = text; }, 60);
  }

  function summary() {
    const ctx = context();
    return spokenTop(shown(), ctx.size, words(ctx.stm));
  }

  // The end of a search slice: the summary is spoken for a new position, or when the best
  // move changed (never on every iteration).
  function sliceEnded() {
    const ctx = context();
    const moves = shown();
    const best = moves.length && moves[0].best ? cellText(moves[0].x, moves[0].y, ctx.size) : "";
    const next = { key: ctx.key, best };
    if (!shouldAnnounce(lastSpoken, next)) return;
    lastSpoken = next;
    speak(summary());
  }

  // what = {point} or {index}; null: that source shows no line now
  function setHover(source, what) {
    const before = JSON.stringify(hover);
    if (what) hover = { source, ...what };
    else if (hover && hover.source === source) hover = null;
    if (JSON.stringify(hover) !== before) onChange();
  }

  function hoverIndex(moves) {
    if (!hover) return -1;
    if (hover.point) return topIndexAt(moves, hover.point[0], hover.point[1]);
    return hover.index < moves.length ? hover.index : -1;
  }

  // What the board draws: {marks, overlay, line (the whole line shown, for data-overlay),
  // text (data-top-moves)}; bestLine: the thinking panel's line (when it is shown).
  function draw(bestLine) {
    const ctx = context();
    const moves = shown();
    const index = hoverIndex(moves);
    const line = index >= 0 ? lineOverlay(moves, index, ctx.stm) : bestLine;
    const { marks, overlay } = boardMarks(moves, line, t);
    canvas.dataset.topMoves = topMovesText(moves, ctx.size);
    renderList(moves, ctx, index);
    return { marks, overlay, line };
  }

  // The list in the thinking panel: buttons updated in place, so that focus stays put.
  function renderList(moves, ctx, active) {
    box.hidden = !ctx.analysing;
    while (list.children.length > moves.length) list.lastElementChild.remove();
    moves.forEach((m, i) => {
      let li = list.children[i];
      if (!li) {
        li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.index = String(i);
        li.append(b);
        list.append(li);
      }
      const b = li.firstElementChild;
      const where = cellText(m.x, m.y, ctx.size);
      b.textContent = `${where} ${scoreWords(m.score, t)}`;
      b.className = "top-move" + (m.best ? " best" : "") + (i === active ? " active" : "");
      b.title = t("topMoveTitle");
      b.dataset.cell = where;
    });
    list.dataset.empty = String(!moves.length);
    readBtn.disabled = !moves.length;
  }

  list.addEventListener("mouseover", (ev) => {
    const b = ev.target.closest("button.top-move");
    if (b) setHover("list", { index: Number(b.dataset.index) });
  });
  list.addEventListener("mouseleave", () => setHover("list", null));
  list.addEventListener("focusin", (ev) => {
    const b = ev.target.closest("button.top-move");
    if (b) setHover("list", { index: Number(b.dataset.index) });
  });
  list.addEventListener("focusout", () => setHover("list", null));
  list.addEventListener("click", (ev) => {
    const b = ev.target.closest("button.top-move");
    const m = b && shown()[Number(b.dataset.index)];
    if (m) play(m.x, m.y);
  });
  readBtn.addEventListener("click", () => speak(summary()));

  select.value = String(count());
  select.addEventListener("change", () => {
    const n = Number(select.value);
    if (!isTopCount(n)) return;
    setCount(n);
    onCount();
  });

  return {
    offer,
    draw,
    sliceEnded,
    // the pointer (or keyboard cursor) on [x, y], or null: shows that move's line when it
    // is one of the marks; true when it is
    pointAt(source, point) {
      const on = !!point && topIndexAt(shown(), point[0], point[1]) >= 0;
      setHover(source, on ? { point: [point[0], point[1]] } : null);
      return on;
    },
    // "best move 1, +0.8" for the cursor's label, or "" when [x, y] is not marked
    describe([x, y]) {
      const moves = shown();
      const i = topIndexAt(moves, x, y);
      if (i < 0) return "";
      return t("topCursor", { n: i + 1, score: scoreWords(moves[i].score, t) });
    },
    read() { speak(summary()); },
    // an analysis search starts: what was shown before is dropped at its first report
    begin() { report = null; },
    // a new game or record: forget the analysis shown and what was said
    reset() { report = null; hover = null; lastSpoken = null; },
  };
}
