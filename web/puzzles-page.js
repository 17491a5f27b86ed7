// The puzzles page (puzzles.html): shows a puzzle and sends each of the player's moves to
// the engine worker, which judges it by the position it leaves (the "judge" message): a
// move that keeps the win is answered by the opponent and the puzzle goes on, one that
// wins in another way is taken back with a word, one after which the win is gone is
// answered by the opponent's refutation (puzzles.js: verdictPlan). Without the engine the
// puzzle's own proof judges what it can (localVerdict). In "learn from your mistakes" a
// refused move gets the engine's reply at a small fixed node budget. Progress (rating,
// streak, history, solved / failed) is kept in localStorage under its own key.

import { BoardView } from "./ui/board.js";
import { cellText } from "./model/coords.js";
import { EngineClient } from "./engine/engine-client.js";
import { applyLanguage, currentLanguage, pickLanguage, readLanguageFrom, t } from "./model/i18n.js";
import { PUZZLES } from "./model/puzzles-data.js";
import {
  dailyPuzzle, decodeProgress, decodeRow, filterPuzzles, illegal, localVerdict, movesLeft, movesToWin,
  newProgress, nextPuzzle, record, sideOf, stonesOf, utcDate, verdictPlan,
} from "./model/puzzles.js";
import { exercises, firstLook, gameToLearnFrom, judged, keepReview, readStored } from "./model/mistakes.js";
import { isComplete } from "./model/review.js";
import { reviewToEnd } from "./engine/review-run.js";
import { KEYS } from "./model/storage.js";
import { browserLanguages } from "./ui/settings-panel.js";

const PROGRESS_KEY = "gomoku.puzzles.v1";
const REFUTE_NODES = 4000; // the engine's budget for a refutation: small and fixed
const REPLY_DELAY_MS = 350;
// a judgement's node budgets: the first look, then a deeper one when it could not tell
const JUDGE_NODES = [20000, 80000];
const JUDGE_DEADLINE_MS = 60000;

const $ = (sel) => document.querySelector(sel);
const all = PUZZLES.map(decodeRow);
const byId = new Map(all.map((p) => [p.id, p]));
const canvas = $("#board");
const board = new BoardView(canvas, 15);
const engine = new EngineClient({ workerUrl: "engine/worker.js" });

let progress = loadProgress();
const st = {
  puzzle: null, moves: [], phase: "idle", made: 0, daily: false, wrongMove: null, token: 0, verdict: "",
  mode: "puzzle", exercises: [], exIndex: 0, review: null, first: 1, // learn from your mistakes
};

// ---- storage --------------------------------------------------------------------------

function loadProgress() {
  let raw = null;
  try {
    raw = localStorage.getItem(PROGRESS_KEY);
  } catch {
    return newProgress();
  }
  if (raw === null) return newProgress();
  try {
    return decodeProgress(JSON.parse(raw));
  } catch (err) {
    // unreadable: dropped with a notice, and nothing else (the game, the settings) touched
    try { localStorage.removeItem(PROGRESS_KEY); } catch { /* storage unavailable */ }
    queueMicrotask(() => { $("#pz-notice").textContent = t("pzDropped", { err: err.message }); });
    return newProgress();
  }
}

function saveProgress() {
  try { localStorage.setItem(PROGRESS_KEY, JSON.stringify(progress)); } catch { /* private mode */ }
}

// The language is the game page's setting; changing it here changes it there too (only
// that field: the rest of the settings is left as it is, unreadable settings untouched).
function savedSettings() {
  try {
    const v = JSON.parse(localStorage.getItem(KEYS.settings) || "null");
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

function saveLanguage(lang) {
  const s = savedSettings();
  try { localStorage.setItem(KEYS.settings, JSON.stringify({ ...(s || {}), lang })); } catch { /* ignore */ }
}

// ---- showing ----------------------------------------------------------------------------

const colourName = (c) => (c === 1 ? t("pzBlack") : t("pzWhite"));
const themeName = (th) => ({ vcf: t("pzThemeVcf"), vct: t("pzThemeVct"), defend: t("pzThemeDefend") })[th];
const ruleName = (r) => ({ freestyle: t("pzRuleFreestyle"), standard: t("pzRuleStandard"), renju: t("pzRuleRenju") })[r];
const cellsText = (cells, size) => cells.map(([x, y]) => cellText(x, y, size)).join(" ");

function prompt(p) {
  const color = colourName(sideOf(p));
  if (p.theme === "vcf") return t("pzPromptVcf", { color, n: movesToWin(p) });
  if (p.theme === "vct") return t("pzPromptVct", { color });
  return t("pzPromptDefend", { color });
}

function feedback(text, kind = "") {
  const el = $("#pz-feedback");
  el.textContent = text.replace(/(?<=[。！？])\s+/gu, ""); // sentences joined by spaces: none after a Chinese one
  el.className = "notice " + kind;
}

function renderBoard() {
  board.setPosition(st.moves);
  board.draw();
  canvas.dataset.moves = String(st.moves.length);
  canvas.dataset.phase = st.phase;
}

function renderText() {
  const p = st.puzzle;
  const words = st.mode === "mistakes" ? mistakeText() : null;
  $("#pz-prompt").textContent = words ? words.prompt : p ? prompt(p) : t("pzNone");
  $("#pz-info").textContent = words ? words.info : !p ? "" : (st.daily ? t("pzDailyInfo", { date: utcDate(Date.now()) }) + " " : "") +
    t("pzInfo", { id: p.id, theme: themeName(p.theme), rule: ruleName(p.rule), rating: p.rating ?? "?" });
  canvas.setAttribute("aria-label", t("pzBoardLabel", { size: p ? p.size : 15 }));
  $("#pz-rating").textContent = String(progress.rating);
  $("#pz-streak").textContent = String(progress.streak);
  $("#pz-best").textContent = String(progress.best);
  $("#pz-played").textContent = String(progress.games);
  const list = $("#pz-history");
  list.replaceChildren();
  if (!progress.history.length) {
    const li = document.createElement("li");
    li.textContent = t("pzNoHistory");
    list.append(li);
  }
  for (const e of progress.history) {
    const li = document.createElement("li");
    li.className = e.solved ? "solved" : "failed";
    li.textContent = t(e.solved ? "pzHistSolved" : "pzHistFailed", { id: e.id, before: e.before, after: e.after });
    list.append(li);
  }
  $("#pz-retry").hidden = st.phase !== "wrong" && st.phase !== "failed";
  $("#pz-show").hidden = st.phase !== "wrong" && st.phase !== "failed";
  document.body.dataset.status = st.phase;
}

function show(p, { daily = false } = {}) {
  st.mode = "puzzle";
  st.token += 1;
  st.puzzle = p;
  st.daily = daily;
  st.wrongMove = null;
  board.overlay = [];
  if (!p) {
    st.moves = [];
    st.phase = "idle";
  } else {
    if (board.size !== p.size) board.setSize(p.size);
    st.moves = p.moves.map((m) => [...m]);
    st.phase = "solve";
    st.made = 0; // the solver's moves made, the opponent's answer given
    board.cursor = board.cursor || [Math.floor(p.size / 2), Math.floor(p.size / 2)];
    const url = new URL(location.href);
    url.searchParams.set("id", p.id);
    history.replaceState(null, "", url);
  }
  feedback("");
  renderBoard();
  renderText();
}

function lineOverlay(line, first) {
  board.overlay = line.map(([x, y], i) => ({ x, y, color: i % 2 === 0 ? first : 3 - first, label: i + 1 }));
}

// ---- judging ----------------------------------------------------------------------------

function count(solved) {
  const before = progress.rating;
  const counted = !(st.puzzle.id in progress.done);
  progress = record(progress, st.puzzle, solved, utcDate(Date.now()));
  saveProgress();
  return { before, after: progress.rating, counted };
}

function solved(extra = "") {
  st.phase = "done";
  const r = count(true);
  feedback((extra ? extra + gap() : "") +
    (r.counted ? t("pzSolved", { before: r.before, after: r.after }) : t("pzSolvedAgain", { rating: r.after })), "good");
}

function failed(text) {
  st.phase = "failed";
  const r = count(false);
  feedback(text + (r.counted ? gap() + t("pzFailed", { before: r.before, after: r.after }) : ""), "bad");
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
    lineOverlay(line, 3 - solverColour());
    renderBoard();
    // what the other side answers: its move, and the line drawn on the board
    const answer = { color: colourName(3 - solverColour()), move: cellsText(line.slice(0, 1), p.size), line: cellsText(line, p.size) };
    feedback(st.verdict + " " + t(line.length > 1 ? "pzAnswersLine" : "pzAnswers", answer), "bad");
  } catch {
    if (token === st.token) feedback(st.verdict + " " + t("pzNoEngine"), "bad");
  }
}

// The side the player plays: the puzzle's side to move, or the mistake's colour.
const solverColour = () => (st.mode === "mistakes" ? st.exercises[st.exIndex].colour : sideOf(st.puzzle));

function play(x, y) {
  const p = st.puzzle;
  if (!p || (st.phase !== "solve" && st.phase !== "continue")) {
    if (p && (st.phase === "reply" || st.phase === "checking")) feedback(t("pzNotYourTurn"));
    return;
  }
  const colour = solverColour();
  const stones = stonesOf(st.moves);
  const why = illegal(stones, x, y, colour, p.size, p.rule);
  const move = cellText(x, y, p.size);
  if (why === "taken") return feedback(t("pzTaken", { move }));
  if (why) return feedback(t("pzForbidden", { move, shape: t("shape_" + why.replaceAll(" ", "_")) }), "bad");
  st.moves.push([x, y]);
  stones.set(x + "," + y, colour - 1);
  if (st.mode === "mistakes") return answerMistake([x, y], move);
  judge([x, y], move, stones);
}

// Sentences one after another: a space between them in English, none in Chinese.
const gap = () => (currentLanguage() === "zh" ? "" : " ");
const say = (says) => says.map(([key, vars]) => t(key, vars)).join(gap());

// The engine judges the move by the position it leaves (a second, deeper look when it
// could not tell); without the engine the puzzle's own proof judges what it can.
async function judge(m, move, stones) {
  const p = st.puzzle;
  const token = st.token;
  const made = st.made;
  st.phase = "checking";
  feedback(t("pzJudging", { move }));
  renderBoard();
  renderText();
  const asked = performance.now();
  let verdict = null;
  try {
    for (const [i, nodes] of JUDGE_NODES.entries()) {
      if (i > 0) feedback(t("pzJudgingDeeper", { move }));
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
    lineOverlay(plan.overlay, 3 - sideOf(p));
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
  feedback(t("pzJudging", { move }));
  renderText();
  setTimeout(() => {
    if (token !== st.token) return;
    st.moves.push(plan.play);
    st.phase = "continue";
    feedback(say(plan.says));
    renderBoard();
    renderText();
  }, Math.max(0, REPLY_DELAY_MS - (performance.now() - asked)));
}

// The move is taken back and the puzzle asks again; nothing is counted (and nothing was
// wrong: the move also wins, or it could not be judged).
function takeBack(says) {
  st.moves.pop();
  st.phase = st.made ? "continue" : "solve";
  feedback(say(says));
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
    feedback(t("pzNoGame"));
    return;
  }
  const { game } = found;
  let review = found.review;
  if (!review || (!isComplete(review) && !exercises(game, review).length)) {
    st.token += 1;
    const token = st.token;
    st.phase = "reviewing";
    renderText();
    const said = ({ index, total }) => feedback(t("pzReviewingLast", { n: index, total }));
    said({ index: 1, total: game.moves.length });
    try {
      review = await reviewToEnd({
        request: (message, deadlineMs) => engine.request(message, { deadlineMs }),
        game, review, nodes: review ? review.nodes : undefined, onProgress: said, wanted: () => token === st.token,
      });
    } catch (err) {
      if (token !== st.token) return;
      st.phase = st.puzzle ? "solve" : "idle";
      feedback(t("pzReviewFailed", { err: err.message }), "bad");
      renderText();
      return;
    }
    if (!review) return; // the player went on to another puzzle
    try { keepReview(localStorage, game, review); } catch { /* storage unavailable: kept for this visit only */ }
  }
  const list = exercises(game, review);
  if (!list.length) {
    st.phase = st.puzzle ? "solve" : "idle";
    feedback(t("pzNothingToLearn"), "good");
    renderText();
    return;
  }
  st.mode = "mistakes";
  st.exercises = list;
  st.review = review;
  st.first = game.first;
  showExercise(0, game);
}

function showExercise(i, game = null) {
  const ex = st.exercises[i];
  st.exIndex = i;
  st.token += 1;
  const size = game ? game.size : st.puzzle.size;
  const rule = game ? game.rule : st.puzzle.rule;
  // a stand-in puzzle: the board's size and rule, the position before the move
  st.puzzle = { id: "mistake", size, rule, theme: "mistake", depth: 0, rating: null, moves: ex.moves, solutions: [ex.better], line: ex.line };
  st.daily = false;
  st.moves = ex.moves.map((m) => [...m]);
  st.phase = "solve";
  board.overlay = [];
  if (board.size !== size) board.setSize(size);
  feedback("");
  renderBoard();
  renderText();
}

function mistakeText() {
  const ex = st.exercises[st.exIndex];
  const size = st.puzzle.size;
  return {
    prompt: t("pzMistakePrompt", { move: cellText(ex.played[0], ex.played[1], size), color: colourName(ex.colour).toLowerCase() }),
    info: t("pzMistakeInfo", { n: ex.index, cls: t("cls_" + ex.cls), i: st.exIndex + 1, total: st.exercises.length }),
  };
}

async function answerMistake(m, move) {
  const ex = st.exercises[st.exIndex];
  const size = st.puzzle.size;
  const better = cellText(ex.better[0], ex.better[1], size);
  const line = cellsText(ex.line, size);
  const look = firstLook(ex, m);
  const accept = (text) => {
    st.phase = "done";
    lineOverlay(ex.line.slice(1), 3 - ex.colour);
    feedback(text, "good");
    renderBoard();
    renderText();
  };
  const refuse = (text) => {
    st.phase = "wrong";
    st.verdict = text + " " + t(ex.line.length > 1 ? "pzBetterWas" : "pzBetterMove", { better, line });
    feedback(st.verdict + " " + t("pzRefuting"), "bad");
    renderBoard();
    renderText();
    refute(st.moves.map((p) => [...p]), st.token);
  };
  if (look === "accept") return accept(t("pzBetterFound", { move, line }));
  if (look === "refuse") return refuse(t("pzPlayedIt", { move }));
  st.phase = "reply";
  feedback(t("pzChecking", { move }));
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
    feedback(t("pzNoEngine"), "bad");
    renderText();
  }
}

function retry() {
  if (st.mode === "mistakes") return showExercise(st.exIndex);
  const p = st.puzzle;
  show(p, { daily: st.daily });
}

function showSolution() {
  const p = st.puzzle;
  if (st.mode === "mistakes") {
    const ex = st.exercises[st.exIndex];
    st.token += 1;
    st.moves = ex.moves.map((m) => [...m]);
    st.phase = "shown";
    lineOverlay(ex.line, ex.colour);
    const better = { better: cellText(ex.better[0], ex.better[1], p.size), line: cellsText(ex.line, p.size) };
    feedback(t(ex.line.length > 1 ? "pzBetterWas" : "pzBetterMove", better));
    renderBoard();
    renderText();
    $("#pz-retry").hidden = false;
    return;
  }
  st.token += 1;
  st.moves = p.moves.map((m) => [...m]);
  st.phase = "shown";
  const first = p.theme === "defend" ? 3 - sideOf(p) : sideOf(p);
  const line = p.theme === "defend" ? p.solutions.slice(0, 1) : p.line;
  lineOverlay(line, p.theme === "defend" ? sideOf(p) : first);
  // the solution's first move, the other first moves accepted, and its line on the board
  const [move] = line.length ? line : p.solutions;
  const others = p.solutions.filter(([x, y]) => x !== move[0] || y !== move[1]);
  const vars = { move: cellText(move[0], move[1], p.size), others: cellsText(others, p.size) };
  feedback(t(others.length ? "pzSolutionAlso" : "pzSolutionMove", vars) +
    (line.length > 1 ? " " + t("pzSolutionLine", { line: cellsText(line, p.size) }) : ""));
  renderBoard();
  renderText();
  $("#pz-retry").hidden = false;
}

function filtered() {
  return filterPuzzles(all, { theme: $("#pz-theme").value, rule: $("#pz-rule").value });
}

function next() {
  if (st.mode === "mistakes") {
    if (st.exIndex + 1 < st.exercises.length) return showExercise(st.exIndex + 1);
    st.mode = "puzzle";
    show(nextPuzzle(filtered(), progress));
    feedback(t("pzMistakesDone"));
    return;
  }
  show(nextPuzzle(filtered(), progress, st.puzzle && st.puzzle.id));
}

// ---- input ------------------------------------------------------------------------------

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
    const key = board.cursor[0] + "," + board.cursor[1];
    const stone = board.stones.get(key);
    $("#cursor-announce").textContent = cellText(board.cursor[0], board.cursor[1], size) +
      (stone ? ", " + colourName(stone) : "");
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    board.showCursor = true;
    play(c[0], c[1]);
  }
});
canvas.addEventListener("blur", () => { board.showCursor = false; board.draw(); });

$("#pz-next").addEventListener("click", next);
$("#pz-daily").addEventListener("click", () => show(dailyPuzzle(all, utcDate(Date.now())), { daily: true }));
$("#pz-retry").addEventListener("click", retry);
$("#pz-mistakes").addEventListener("click", startMistakes);
$("#pz-show").addEventListener("click", showSolution);
$("#pz-theme").addEventListener("change", next);
$("#pz-rule").addEventListener("change", next);
$("#opt-lang").addEventListener("change", (ev) => {
  chosenLanguage = ev.target.value;
  saveLanguage(currentLanguage());
  applyLanguage(document);
  renderText();
  if (st.puzzle && st.phase === "solve") feedback("");
});

// ---- start ------------------------------------------------------------------------------

const settings = savedSettings();
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
    progress = loadProgress();
    show(byId.get(id) || null);
  };
}
