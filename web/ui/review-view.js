// Game review on the page: the review card (Review / Resume review, Deep, Cancel, the
// progress bar, the evaluation graph, the summary per side, Learn from your mistakes and
// the details line), the class marks in the move list, the review's note in the thinking
// panel, the better line drawn on the board and the words said when browsing. The data is
// review.js's, the words review-words.js's (the player's words, from the mover's side),
// the graph's geometry review-graph.js's; the job that fills the review in is
// review-job.js's. view.js calls render (and markMove, line); actions.js asks for the
// words of a move (words).
//
// The graph is one focusable element (role "slider"): Left / Right move its focus one
// position, Up / Down (PageUp / PageDown) to the previous / next marked move, Home / End
// to the ends; its value text names the move, its class and the mover's chance, and Enter
// or Space shows that position on the board. A click (or tap) on the graph shows the
// position nearest to it; each position's point and each marked move's dot has a title.
// The graph's focus follows the board when the board moves.
//
// A flagged move is explained when the board shows the position after it (where a click
// on the move in the list, on its dot or browsing to it lands): the thinking panel names
// the class, the better move and its line, the mover's chance and (in a details line) how
// the flag was found and the budget; the line is drawn on the board as analysis draws one
// (numbered faint stones; the first one is the mover's better move, a point taken in the
// shown position, i.e. the flagged stone itself, is not drawn).

import { joined, msg, t, textOf } from "../model/i18n.js";
import {
  COUNTED, DEEP_NODES, DEFAULT_NODES, MARKS, betterLine, isComplete, moveFacts, progress, reviewKey, reviewable,
} from "../model/review.js";
import { exercises, learnOffered } from "../model/mistakes.js";
import { GRAPH, graphModel, indexAt, keyTarget } from "../model/review-graph.js";
import { budgetWords, moveNote, pointWords, summaryWho } from "../model/review-words.js";
import { WHITE } from "../model/rules.js";

const $ = (sel) => document.querySelector(sel);
const NS = "http://www.w3.org/2000/svg";

function svg(name, attrs = {}, cls = "") {
  const el = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (cls) el.setAttribute("class", cls);
  return el;
}

// The side the review speaks for: the player's colour, or null in analysis and in a game
// of two players on this device (the player plays both sides, or neither is "you": the
// words name the colours).
export const sideOf = (s) => (s.analysing || s.game.twoPlayers ? null : s.game.human);

// The summary's sides in order: the player's first ("You", then "Your opponent"), black
// first in analysis and with two players.
const summaryOrder = (s) => (sideOf(s) === WHITE ? ["white", "black"] : ["black", "white"]);

// The words of a count of one class ("1 blunder", "2 mistakes"), as a message.
export function countWords(cls, n) {
  return n === 1 ? msg("rvOne", { cls: msg("cls_" + cls) }) : msg("many_" + cls, { n });
}

// "You: 1 inaccuracy, 1 blunder." for one side of a summary, as a message.
export function sideWords(summary, colour, side) {
  const parts = COUNTED.filter((c) => summary[colour][c] > 0).map((c) => countWords(c, summary[colour][c]));
  return msg("rvSide", { color: summaryWho(colour, side), list: parts.length ? joined(parts, msg("rvSep")) : msg("rvNothing") });
}

// store: the page's state; goTo(n): show position n on the board (actions.js goTo);
// start(nodes): review the game with that budget per position (review-job.js); cancel():
// stop the review.
export function setupReviewView({ store, goTo, start, cancel }) {
  const box = $("#review-box");
  const startBtn = $("#review-start");
  const cancelBtn = $("#review-cancel");
  const deep = $("#review-deep");
  const running = $("#review-running");
  const bar = $("#review-progress");
  const barText = $("#review-progress-text");
  const state = $("#review-state");
  const graph = $("#review-graph");
  const summaryBox = $("#review-summary");
  const note = $("#review-note");
  const learn = $("#review-learn");
  const canvas = $("#board");

  let current = null; // the review of the game shown (null when none), as last rendered
  let model = null; // its graph
  let focus = 0; // the graph's focused position
  let lastCursor = null;
  let shownReview = null; // key and budget of the review the Deep box was last set for

  // The review of the game on the board (a review of another game is not shown).
  const reviewOf = (s) => (s.review && s.review.key === reviewKey(s.game) ? s.review : null);
  const nodesChosen = () => (deep.checked ? DEEP_NODES : DEFAULT_NODES);

  // What position i is, in words (review-words.js): "Move 6, your opponent played j9: a
  // blunder. k8 was better. Your opponent's chance after it: 0%." (brief: without the
  // chance), as a message and as text.
  const pointMessage = (s, i, brief = false) => (current ? pointWords(current, s.game, i, sideOf(s), brief) : []);
  const pointText = (s, i, brief = false) => textOf(pointMessage(s, i, brief));

  function render(s = store.get()) {
    const { game } = s;
    current = reviewOf(s);
    const job = !!s.job && s.job.kind === "review";
    const can = reviewable(game);
    box.hidden = !current && !can;
    canvas.dataset.review = job ? "running" : isComplete(current) ? "done" : current ? "partial" : "";
    if (current && current.key + "@" + current.nodes !== shownReview) {
      // a review comes up (loaded, reopened, started): the Deep box says its budget, so
      // that Review does not replace a deep review by a shallow one unasked
      shownReview = current.key + "@" + current.nodes;
      deep.checked = current.nodes === DEEP_NODES;
    }
    if (game.cursor !== lastCursor) {
      lastCursor = game.cursor;
      focus = game.cursor;
    }
    renderNote(s);
    if (box.hidden) {
      // nothing of another game's review left behind (labels are read even when hidden)
      renderGraph(s);
      renderSummary(s);
      return;
    }

    const nodes = nodesChosen();
    const same = !!current && current.nodes === nodes;
    const complete = isComplete(current);
    const ready = s.engine.state === "ready" && !s.engineError;
    startBtn.textContent = t(same && !complete && current.black.length ? "rvResume" : "rvStart");
    startBtn.disabled = job || !ready || !can || (same && complete);
    cancelBtn.hidden = !job;
    deep.disabled = job;
    running.hidden = !job;
    if (job && current) {
      const p = progress(current);
      const label = t("rvProgress", { n: p.index, total: p.total });
      bar.max = p.total + 1;
      bar.value = p.done;
      bar.setAttribute("aria-label", label);
      barText.textContent = label;
    }
    if (!current) state.textContent = "";
    else if (complete) state.textContent = textOf(budgetWords(current));
    else if (!job) state.textContent = t("rvPartial", { n: Math.max(0, current.black.length - 1), total: current.total });
    else state.textContent = "";
    renderGraph(s);
    renderSummary(s);
    renderLearn(s);
  }

  // Learn from your mistakes (the puzzles page): offered when the review found moves of
  // the player's to try again (with their number), or after a lost game not yet reviewed
  // (the puzzles page reviews it); not when a review found nothing (mistakes.js).
  function renderLearn(s) {
    const offered = !s.analysing && learnOffered(s.game, current);
    learn.parentElement.hidden = !offered;
    const n = offered && current ? exercises(s.game, current).length : 0;
    learn.textContent = n ? t("pzMistakesCount", { n }) : t("pzMistakes");
  }

  function renderSummary(s) {
    summaryBox.textContent = "";
    if (!isComplete(current)) return;
    for (const colour of summaryOrder(s)) {
      const p = document.createElement("p");
      p.className = "rv-side";
      const who = document.createElement("strong");
      who.textContent = textOf(summaryWho(colour, sideOf(s)));
      p.append(who, ": ");
      const parts = COUNTED.filter((c) => current.summary[colour][c] > 0);
      if (!parts.length) p.append(t("rvNothing"));
      parts.forEach((c, i) => {
        if (i) p.append(t("rvSep"));
        const span = document.createElement("span");
        span.className = "rv-count " + c;
        span.textContent = textOf(countWords(c, current.summary[colour][c]));
        p.append(span);
      });
      p.dataset.colour = colour;
      p.setAttribute("aria-label", textOf(sideWords(current.summary, colour, sideOf(s))));
      summaryBox.append(p);
    }
  }

  function renderGraph(s) {
    graph.textContent = "";
    const has = !!current && current.black.length > 0;
    graph.toggleAttribute("hidden", !has); // an SVG element: the attribute (style.css hides it)
    if (!has) {
      model = null;
      return;
    }
    model = graphModel(current, s.game.cursor);
    const { width, height } = model;
    graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
    graph.dataset.points = String(model.points.length);
    graph.append(
      svg("rect", { x: 0.5, y: 0.5, width: width - 1, height: height - 1, rx: 3 }, "rg-bg"), // its border inside
      svg("path", { d: model.area }, "rg-area"),
      svg("line", { x1: 0, x2: width, y1: model.midY, y2: model.midY }, "rg-mid"),
      svg("path", { d: model.line }, "rg-line"),
    );
    if (model.cursor) {
      graph.append(svg("line", { x1: model.cursor.x, x2: model.cursor.x, y1: 0, y2: height }, "rg-cursor"));
    }
    for (const p of model.points) {
      const c = svg("circle", { cx: p.x, cy: p.y, r: 4.5, "data-index": p.index }, "rg-pt" + (p.index === s.game.cursor ? " shown" : ""));
      const title = svg("title");
      title.textContent = pointText(s, p.index);
      c.append(title);
      graph.append(c);
    }
    for (const d of model.dots) {
      const c = svg("circle", { cx: d.x, cy: d.y, r: 3.6, "data-index": d.index, "data-class": d.cls }, "rg-dot " + d.cls);
      const title = svg("title");
      title.textContent = pointText(s, d.index);
      c.append(title);
      graph.append(c);
    }
    focus = Math.min(focus, model.points.length - 1);
    const f = model.points[focus];
    graph.append(svg("circle", { cx: f.x, cy: f.y, r: 5.5 }, "rg-focus"));
    graph.setAttribute("aria-valuemin", "0");
    graph.setAttribute("aria-valuemax", String(current.total));
    graph.setAttribute("aria-valuenow", String(focus));
    graph.setAttribute("aria-valuetext", pointText(s, focus));
  }

  // The thinking panel's note on the shown position's move (or the start): what the move
  // was in the mover's words, what was better, the mover's chance, and the details line.
  function renderNote(s) {
    note.textContent = "";
    const n = s.game.cursor;
    const words = current && n >= 1 ? moveNote(current, s.game, n, sideOf(s)) : null;
    if (!current || (n === 0 ? current.black.length === 0 : !words)) {
      note.hidden = true;
      return;
    }
    note.hidden = false;
    const line = (message, cls = "") => {
      const p = document.createElement("p");
      if (cls) p.className = cls;
      p.textContent = textOf(message);
      note.append(p);
      return p;
    };
    if (n === 0) {
      line(pointMessage(s, 0));
      return;
    }
    const f = words.facts;
    const head = line(words.head, "rv-head " + f.cls);
    if (f.mark) {
      const mark = document.createElement("span");
      mark.className = "rv-mark " + f.cls;
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = " " + f.mark;
      head.append(mark);
    }
    for (const better of words.better) line(better, "rv-better");
    line(words.chance, "rv-chance");
    line(words.details, "rv-details" + (f.proof ? " " + f.proof : ""));
  }

  // ---- input -------------------------------------------------------------------------------

  startBtn.addEventListener("click", () => start(nodesChosen()));
  cancelBtn.addEventListener("click", () => cancel());
  deep.addEventListener("change", () => render());

  graph.addEventListener("click", (ev) => {
    if (!model) return;
    const hit = ev.target.closest && ev.target.closest("[data-index]");
    let i = hit ? Number(hit.dataset.index) : null;
    if (i === null) {
      const rect = graph.getBoundingClientRect();
      i = indexAt(model, ((ev.clientX - rect.left) * GRAPH.width) / rect.width);
    }
    if (i === null) return;
    focus = i;
    goTo(i);
  });
  graph.addEventListener("keydown", (ev) => {
    if (!model || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      goTo(focus);
      return;
    }
    const to = keyTarget(model, focus, ev.key);
    if (to === null) return;
    ev.preventDefault();
    focus = to;
    renderGraph(store.get());
  });

  return {
    render,
    // The class mark after move n's button in the move list (n 1-based), with the class
    // as text for screen readers; nothing for a move without a mark.
    markMove(button, n) {
      const f = current ? moveFacts(current, store.get().game, n) : null;
      if (!f || !f.mark) return;
      const mark = document.createElement("span");
      mark.className = "rv-mark " + f.cls;
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = f.mark;
      const said = document.createElement("span");
      said.className = "visually-hidden";
      said.textContent = " " + t("cls_" + f.cls);
      button.append(mark, said);
      button.title = t("cls_" + f.cls);
      button.dataset.class = f.cls;
    },
    // does the move list carry marks (wider columns)?
    marking: () => !!current && current.moves.some((m) => m && MARKS[m.cls]),
    // The better line of the shown position's move as board overlay entries, or [].
    line(s = store.get()) {
      const r = reviewOf(s);
      return r ? betterLine(r, s.game, s.game.cursor) : [];
    },
    // What is said on browsing to move n (a message): its class and the better move
    // ("Move 14, your opponent played j9: a blunder. k8 was better."), or "" when the
    // move is not reviewed.
    words(n) {
      const s = store.get();
      current = reviewOf(s);
      return n >= 1 ? pointMessage(s, n, true) : "";
    },
    // The finished review, in words (a message): "Review done. You: ... Your opponent: ...".
    summaryWords() {
      const s = store.get();
      const r = reviewOf(s);
      if (!isComplete(r)) return "";
      return [msg("rvDone"), ...summaryOrder(s).map((colour) => sideWords(r.summary, colour, sideOf(s)))];
    },
  };
}
