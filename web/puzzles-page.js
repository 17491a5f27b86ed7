// The puzzles page (puzzles.html): shows a puzzle and sends each of the player's moves to
// the engine worker, which judges it by the position it leaves (the "judge" message): a
// move that keeps the win is answered by the opponent and the puzzle goes on, one that
// wins in another way is taken back with a word, one after which the win is gone is
// answered by the opponent's refutation (model/puzzles.js: verdictPlan). Without the
// engine the puzzle's own proof judges what it can (localVerdict). In "learn from your
// mistakes" a refused move gets the engine's reply at a small fixed node budget. The
// page's state and words: model/puzzle-play.js; its storage: model/puzzle-store.js (the
// progress under its own key); its views: ui/puzzles-view.js. This module wires them to
// the engine worker and the page's buttons.

import { BoardView } from "./ui/board.js";
import { cellText } from "./model/coords.js";
import { EngineClient } from "./engine/engine-client.js";
import { applyLanguage, currentLanguage, pickLanguage, readLanguageFrom, t } from "./model/i18n.js";
import { PUZZLES } from "./model/puzzles-data.js";
import {
  dailyPuzzle, decodeRow, filterPuzzles, illegal, localVerdict, movesLeft, nextPuzzle, sideOf, stonesOf, utcDate,
  verdictPlan,
} from "./model/puzzles.js";
import {
  JUDGE_DEADLINE_MS, JUDGE_NODES, REFUTE_NODES, REPLY_DELAY_MS, cellsText, colourName, counted, failedText,
  lineOverlay, newPlayState, say, showSolution, solvedText, solverColour, startExercise, startPuzzle, takenBack,
} from "./model/puzzle-play.js";
import { loadProgress, saveLanguage, saveProgress, savedSettings } from "./model/puzzle-store.js";
import { exercises, firstLook, gameToLearnFrom, judged, keepReview, readStored } from "./model/mistakes.js";
import { isComplete } from "./model/review.js";
import { reviewToEnd } from "./engine/review-run.js";
import { browserLanguages } from "./ui/settings-panel.js";
import { PuzzlesView } from "./ui/puzzles-view.js";

const $ = (sel) => document.querySelector(sel);
const all = PUZZLES.map(decodeRow);
const byId = new Map(all.map((p) => [p.id, p]));
const canvas = $("#board");
const board = new BoardView(canvas, 15);
const view = new PuzzlesView(document, board);
const engine = new EngineClient({ workerUrl: "engine/worker.js" });

let progress = readProgress();
const st = newPlayState();
const renderBoard = () => view.renderBoard(st);
const renderText = () => view.renderText(st, progress);

// The stored progress; an unreadable one is dropped with a notice.
function readProgress() {
  const { progress: read, dropped } = loadProgress(localStorage);
  if (dropped) queueMicrotask(() => view.notice(t("pzDropped", { err: dropped.message })));
  return read;
}

// ---- showing ----------------------------------------------------------------------------

function show(p, { daily = false } = {}) {
  startPuzzle(st, p, { daily });
  board.overlay = [];
  if (p) {
    if (board.size !== p.size) board.setSize(p.size);
    board.cursor = board.cursor || [Math.floor(p.size / 2), Math.floor(p.size / 2)];
    const url = new URL(location.href);
    url.searchParams.set("id", p.id);
    history.replaceState(null, "", url);
  }
  view.feedback("");
  renderBoard();
  renderText();
}

function showExercise(i, game = null) {
  startExercise(st, i, game);
  board.overlay = [];
  if (board.size !== st.puzzle.size) board.setSize(st.puzzle.size);
  view.feedback("");
  renderBoard();
  renderText();
}

// ---- judging ----------------------------------------------------------------------------

function count(solved) {
  const r = counted(progress, st.puzzle, solved, utcDate(Date.now()));
  progress = r.progress;
  saveProgress(localStorage, progress);
  return r;
}

function solved(extra = "") {
  st.phase = "done";
  view.feedback(solvedText(count(true), extra), "good");
}

function failed(text) {
  st.phase = "failed";
  view.feedback(failedText(count(false), text), "bad");
}

async function refute(moves, token) {
  const p = st.puzzle;
  try {
    const res = await engine.request(
      { type: "think", size: p.size, rule: p.rule, moves, limits: { nodes: REFUTE_NODES, book: false } },
      { deadlineMs: 60000 },
    );
    if (token !== st.token) return;
    if (res.type !== "result") throw new Error(res.message || "no move");
    const line = res.pv && res.pv.length ? res.pv : [res.move];
    board.overlay = lineOverlay(line, 3 - solverColour(st));
    renderBoard();
    // what the other side answers: its move, and the line drawn on the board
    const answer = { color: colourName(3 - solverColour(st)), move: cellsText(line.slice(0, 1), p.size), line: cellsText(line, p.size) };
    view.feedback(st.verdict + " " + t(line.length > 1 ? "pzAnswersLine" : "pzAnswers", answer), "bad");
  } catch {
    if (token === st.token) view.feedback(st.verdict + " " + t("pzNoEngine"), "bad");
  }
}

function play(x, y) {
  const p = st.puzzle;
  if (!p || (st.phase !== "solve" && st.phase !== "continue")) {
    if (p && (st.phase === "reply" || st.phase === "checking")) view.feedback(t("pzNotYourTurn"));
    return;
  }
  const colour = solverColour(st);
  const stones = stonesOf(st.moves);
  const why = illegal(stones, x, y, colour, p.size, p.rule);
  const move = cellText(x, y, p.size);
  if (why === "taken") return view.feedback(t("pzTaken", { move }));
  if (why) return view.feedback(t("pzForbidden", { move, shape: t("shape_" + why.replaceAll(" ", "_")) }), "bad");
  st.moves.push([x, y]);
  stones.set(x + "," + y, colour - 1);
  if (st.mode === "mistakes") return answerMistake([x, y], move);
  judge([x, y], move, stones);
}

// The engine judges the move by the position it leaves (a second, deeper look when it
// could not tell); without the engine the puzzle's own proof judges what it can.
async function judge(m, move, stones) {
  const p = st.puzzle;
  const token = st.token;
  const made = st.made;
  st.phase = "checking";
  view.feedback(t("pzJudging", { move }));
  renderBoard();
  renderText();
  const asked = performance.now();
  let verdict = null;
  try {
    for (const [i, nodes] of JUDGE_NODES.entries()) {
      if (i > 0) view.feedback(t("pzJudgingDeeper", { move }));
      const res = await engine.request({
        type: "judge", size: p.size, rule: p.rule, moves: st.moves.slice(0, -1), move: m, theme: p.theme,
        ...(movesLeft(p, made) === null ? {} : { movesLeft: movesLeft(p, made) }), nodes,
      }, { deadlineMs: JUDGE_DEADLINE_MS });
      if (token !== st.token) return;
      if (res.type !== "judge") throw new Error(res.message || "no verdict");
      verdict = res;
      if (res.outcome !== "unclear") break;
    }
  } catch (err) {
    if (token !== st.token) return;
    console.warn("puzzle judge:", err && err.message);
    verdict = localVerdict(p, stones, m, made);
  }
  if (verdict.outcome === "unjudged") return takeBack([["pzNoJudge", { move }]]);
  const plan = verdictPlan(p, verdict, m);
  if (plan.action === "again") return takeBack(plan.says);
  if (plan.action === "failed") {
    st.wrongMove = m;
    board.overlay = lineOverlay(plan.overlay, 3 - sideOf(p));
    failed(say(plan.says));
    renderBoard();
    renderText();
    return;
  }
  if (plan.action === "solved") {
    if (plan.play) st.moves.push(plan.play); // a counter-four's block, before the end
    solved(say(plan.says));
    renderBoard();
    renderText();
    return;
  }
  // the puzzle goes on: the opponent's answer after a moment, then the solver's move
  st.made += 1;
  st.phase = "reply";
  view.feedback(t("pzJudging", { move }));
  renderText();
  setTimeout(() => {
    if (token !== st.token) return;
    st.moves.push(plan.play);
    st.phase = "continue";
    view.feedback(say(plan.says));
    renderBoard();
    renderText();
  }, Math.max(0, REPLY_DELAY_MS - (performance.now() - asked)));
}

// The move is taken back and the puzzle asks again; nothing is counted (and nothing was
// wrong: the move also wins, or it could not be judged).
function takeBack(says) {
  takenBack(st);
  view.feedback(say(says));
  renderBoard();
  renderText();
}

// ---- learn from your mistakes -----------------------------------------------------------

// Learn from your mistakes: the player's last finished game (mistakes.js gameToLearnFrom,
// read without changing anything: the game page owns it), reviewed here first when no
// complete review of it is stored (with its progress; the review is then kept where the
// game page finds it), and its exercises. Next puzzle or Daily puzzle meanwhile stops it.
async function startMistakes() {
  let found;
  try {
    found = gameToLearnFrom(readStored(localStorage));
  } catch {
    found = null;
  }
  if (!found) {
    view.feedback(t("pzNoGame"));
    return;
  }
  const { game } = found;
  let review = found.review;
  if (!review || (!isComplete(review) && !exercises(game, review).length)) {
    st.token += 1;
    const token = st.token;
    st.phase = "reviewing";
    renderText();
    const said = ({ index, total }) => view.feedback(t("pzReviewingLast", { n: index, total }));
    said({ index: 1, total: game.moves.length });
    try {
      review = await reviewToEnd({
        request: (message, deadlineMs) => engine.request(message, { deadlineMs }),
        game, review, nodes: review ? review.nodes : undefined, onProgress: said, wanted: () => token === st.token,
      });
    } catch (err) {
      if (token !== st.token) return;
      st.phase = st.puzzle ? "solve" : "idle";
      view.feedback(t("pzReviewFailed", { err: err.message }), "bad");
      renderText();
      return;
    }
    if (!review) return; // the player went on to another puzzle
    try { keepReview(localStorage, game, review); } catch { /* storage unavailable: kept for this visit only */ }
  }
  const list = exercises(game, review);
  if (!list.length) {
    st.phase = st.puzzle ? "solve" : "idle";
    view.feedback(t("pzNothingToLearn"), "good");
    renderText();
    return;
  }
  st.mode = "mistakes";
  st.exercises = list;
  st.review = review;
  st.first = game.first;
  showExercise(0, game);
}

async function answerMistake(m, move) {
  const ex = st.exercises[st.exIndex];
  const size = st.puzzle.size;
  const better = cellText(ex.better[0], ex.better[1], size);
  const line = cellsText(ex.line, size);
  const look = firstLook(ex, m);
  const accept = (text) => {
    st.phase = "done";
    board.overlay = lineOverlay(ex.line.slice(1), 3 - ex.colour);
    view.feedback(text, "good");
    renderBoard();
    renderText();
  };
  const refuse = (text) => {
    st.phase = "wrong";
    st.verdict = text + " " + t(ex.line.length > 1 ? "pzBetterWas" : "pzBetterMove", { better, line });
    view.feedback(st.verdict + " " + t("pzRefuting"), "bad");
    renderBoard();
    renderText();
    refute(st.moves.map((p) => [...p]), st.token);
  };
  if (look === "accept") return accept(t("pzBetterFound", { move, line }));
  if (look === "refuse") return refuse(t("pzPlayedIt", { move }));
  st.phase = "reply";
  view.feedback(t("pzChecking", { move }));
  renderBoard();
  renderText();
  const token = st.token;
  try {
    const res = await engine.request({
      type: "review", size, rule: st.puzzle.rule, moves: st.moves.map((p) => [...p]),
      first: st.first === 1 ? "black" : "white", index: st.moves.length, nodes: st.review.nodes,
    }, { deadlineMs: 180000 });
    if (token !== st.token) return;
    if (res.type !== "review") throw new Error(res.message || "no review");
    if (judged(ex, res.position.black)) accept(t("pzGood", { move, better, line }));
    else refuse(t("pzNotAsGood", { move }));
  } catch {
    if (token !== st.token) return;
    st.phase = "wrong";
    view.feedback(t("pzNoEngine"), "bad");
    renderText();
  }
}

function retry() {
  if (st.mode === "mistakes") return showExercise(st.exIndex);
  show(st.puzzle, { daily: st.daily });
}

function solution() {
  const shown = showSolution(st);
  board.overlay = shown.overlay;
  view.feedback(shown.text);
  renderBoard();
  renderText();
  view.showRetry();
}

function filtered() {
  return filterPuzzles(all, { theme: $("#pz-theme").value, rule: $("#pz-rule").value });
}

function next() {
  if (st.mode === "mistakes") {
    if (st.exIndex + 1 < st.exercises.length) return showExercise(st.exIndex + 1);
    st.mode = "puzzle";
    show(nextPuzzle(filtered(), progress));
    view.feedback(t("pzMistakesDone"));
    return;
  }
  show(nextPuzzle(filtered(), progress, st.puzzle && st.puzzle.id));
}

// ---- input ------------------------------------------------------------------------------

view.bindInput(play);
$("#pz-next").addEventListener("click", next);
$("#pz-daily").addEventListener("click", () => show(dailyPuzzle(all, utcDate(Date.now())), { daily: true }));
$("#pz-retry").addEventListener("click", retry);
$("#pz-mistakes").addEventListener("click", startMistakes);
$("#pz-show").addEventListener("click", solution);
$("#pz-theme").addEventListener("change", next);
$("#pz-rule").addEventListener("change", next);
$("#opt-lang").addEventListener("change", (ev) => {
  chosenLanguage = ev.target.value;
  saveLanguage(localStorage, currentLanguage());
  applyLanguage(document);
  renderText();
  if (st.puzzle && st.phase === "solve") view.feedback("");
});

// ---- start ------------------------------------------------------------------------------

const settings = savedSettings(localStorage);
if (settings && (settings.theme === "light" || settings.theme === "dark")) document.documentElement.dataset.theme = settings.theme;
// the language setting (the stored settings' lang; null: the browser's): t() reads it here
let chosenLanguage = settings && settings.lang;
const preferred = browserLanguages();
readLanguageFrom(() => pickLanguage(chosenLanguage, preferred));
applyLanguage(document);
$("#opt-lang").value = currentLanguage();
new ResizeObserver(() => board.resize()).observe(canvas);
window.addEventListener("resize", () => board.resize());
const asked = byId.get(new URL(location.href).searchParams.get("id"));
show(asked || nextPuzzle(all, progress));
if (new URL(location.href).searchParams.get("mistakes") === "1") startMistakes();
board.resize();
engine.start();
window.gomokuPuzzles = { state: st, all, progress: () => progress }; // for tests and tools
if (new URL(location.href).searchParams.get("test") === "1") {
  // the tests' reset: the stored progress read again (as a load reads it) and the puzzle
  // `id` shown from its start, the engine worker kept (it takes seconds to start)
  window.gomokuPuzzles.reset = (id) => {
    progress = readProgress();
    show(byId.get(id) || null);
  };
}
