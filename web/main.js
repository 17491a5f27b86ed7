// The page: wires the game state (game.js), what is stored (storage.js) and the records
// (records.js) to the DOM, the canvas (board.js) and the engine client.
//
// `game` is the current game (plain data, replaced by game.js functions on every change)
// and `cur` its shown position. The engine answers one request at a time; every search
// ("job": the engine's move, a hint, an analysis) carries a token, and a job whose token is
// stale is ignored when its answer arrives.
import { setupAnalysisView } from "./analysis-view.js";
import { BoardView } from "./board.js";
import { EngineTimeout } from "./engine-client.js";
import { createJobRunner } from "./jobs.js";
import { ParallelEngineClient } from "./parallel-client.js";
import { defaultThreads, validThreads } from "./settings.js";
import { BLACK, WHITE, isRule } from "./rules.js";
import { DEFAULT_SIZE, SIZES, cellText, centre, isSize } from "./coords.js";
import * as Game from "./game.js";
import { DEFAULT_LEVEL, LEVELS, isLevel } from "./game.js";
import { KEYS, addToHistory, encodeGame, encodeHistory, historyEntry, loadAll, save } from "./storage.js";
import { formatMoves, parseFragment } from "./records.js";
import { setupRecordsDialog } from "./records-dialog.js";
import { currentLanguage, pickLanguage, setLanguage, t } from "./i18n.js";
import { colourScore, isDecisive } from "./score.js";
import { playStone } from "./sound.js";
import { registerOffline } from "./offline.js";

// A running search cannot be interrupted (no SharedArrayBuffer), so open-ended thinking
// (analysis, the unlimited level) is a series of think requests of growing length.
const SLICES = [500, 1000, 2000];

const params = new URLSearchParams(location.search);
const TEST_MODE = params.get("test") === "1";

function intParam(name, lo, hi) {
  const v = Number.parseInt(params.get(name) ?? "", 10);
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : null;
}
// ?time=ms overrides the level's think time; ?deadline=ms the hard per-move deadline;
// ?slice=ms the length of each analysis / unlimited-level slice.
const TIME_OVERRIDE = intParam("time", 20, 60000);
const DEADLINE_OVERRIDE = intParam("deadline", 500, 600000);
const SLICE_OVERRIDE = intParam("slice", 50, 10000);
// ?threads=n: search workers for this visit (not saved; the setting is)
const THREADS_OVERRIDE = intParam("threads", 1, 4);

const $ = (sel) => document.querySelector(sel);
const canvas = $("#board");
const statusEl = $("#status");
const noticeEl = $("#notice");
const announceEl = $("#announce");
const cursorEl = $("#cursor-announce");
const engineInfoEl = $("#engine-info");
const moveListEl = $("#move-list");
const newGameBtn = $("#new-game");
const undoBtn = $("#undo");
const redoBtn = $("#redo");
const hintBtn = $("#hint");
const swapBtn = $("#swap");
const analyseBtn = $("#analyse");
const moveNowBtn = $("#move-now");
const retryBtn = $("#retry");
const sideSel = $("#side");
const levelSel = $("#level");

// ---- stored data --------------------------------------------------------------------

// localStorage, or a stand-in that remembers nothing when the browser refuses storage
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return { getItem: () => null, setItem() {}, removeItem() {} };
  }
})();
const stored = loadAll(storage);
const startupNotices = stored.notices;
const settings = stored.settings;
let history = stored.history; // finished games, moves as points
let game = stored.game || Game.newGame();

const saveSettings = () => save(storage, KEYS.settings, settings);
const saveGame = () => save(storage, KEYS.game, encodeGame(game));

const view = new BoardView(canvas, game.size);
let cur = null; // the shown position (Game.position): {stones, winner, line, draw, over}
let forbidden = new Map(); // renju, black to move: "x,y" -> shape (Game.forbiddenPoints)
let analysing = false;
let engineError = null;
let hint = null; // {key, move}
let lastInfo = null; // {keys, offset, stm, depth, score, score_text, nps, pv, source}
let lastEngine = null; // {text}
let pvHover = false;
let offlineStarted = false;

// ---- game state ---------------------------------------------------------------------

const colorOf = (i) => Game.colorOf(game, i);
const shown = () => Game.shownMoves(game);
const sideToMove = () => Game.sideToMove(game);
const isOver = () => cur.over;
const atEnd = () => Game.atEnd(game);
const colorName = (c) => (c === BLACK ? "black" : "white");
const colorWord = (c) => t(c === BLACK ? "black" : "white");
const colorLower = (c) => t(c === BLACK ? "blackL" : "whiteL");
const posKey = () => Game.positionKey(game);
const cell = ([x, y]) => cellText(x, y, game.size);
const shapeText = (shape) => t("shape_" + String(shape).replaceAll(" ", "_"));
// "h9 j7": the forbidden points of the shown position, in board order (by column, then row)
const forbiddenText = () => [...forbidden.keys()].map((k) => k.split(",").map(Number))
  .sort((a, b) => a[0] - b[0] || b[1] - a[1]).map(cell).join(" ");

// After game changed: its shown position, and the board's size when that changed.
function sync() {
  cur = Game.position(game);
  forbidden = Game.forbiddenPoints(game, cur);
  if (view.size !== game.size) {
    view.setSize(game.size);
    view.cursor = centre(game.size);
  }
}

function recordFinished() {
  const result = Game.unrecordedResult(game, cur);
  if (!result) return;
  game = Game.markRecorded(game);
  history = addToHistory(history, historyEntry(game, result, new Date()));
  save(storage, KEYS.history, encodeHistory(history));
}

// Put a stone on the shown position (a new branch when not at the end of the line).
function playMove(x, y) {
  game = Game.play(game, x, y);
  sync();
  hint = null;
  if (settings.sound) playStone(colorOf(game.cursor - 1));
  recordFinished();
  saveGame();
}

function resultSentence() {
  if (cur.winner) return t(cur.winner === BLACK ? "blackWins" : "whiteWins");
  if (cur.draw) return t("isDraw");
  return "";
}

// ---- rendering ----------------------------------------------------------------------

function statusOf() {
  if (cur.winner) return [`${colorName(cur.winner)}-wins`, t("st_wins", { color: colorWord(cur.winner) })];
  if (cur.draw) return ["draw", t("st_draw")];
  if (engineError) return ["error", t("st_error")];
  if (analysing) return ["analysing", t("st_analysing")];
  const engineMoving = jobKind() === "move";
  const humanToMove = !engineMoving && sideToMove() === game.human;
  if (engine.state !== "ready") {
    // the human's move need not wait for the engine
    if (humanToMove) return ["your-turn", t("st_yourTurnLoading")];
    return ["loading", engine.restarts ? t("st_restarting") : t("st_loading")];
  }
  if (engineMoving) return ["thinking", t("st_thinking")];
  if (humanToMove) return ["your-turn", t("st_yourTurn")];
  if (!atEnd()) return ["review", t("st_review")];
  return ["thinking", t("st_thinking")];
}

const undoTarget = () => Game.undoTarget(game, analysing);
const redoTarget = () => Game.redoTarget(game, analysing);

function render() {
  const moves = shown();
  view.setPosition(moves, game.first);
  view.winningLine = cur.line;
  view.showNumbers = settings.numbers;
  view.showCoords = settings.coords;
  view.hint = hint && hint.key === posKey() ? hint.move : null;
  view.hintColor = sideToMove();
  view.forbidden = [...forbidden.keys()].map((k) => k.split(",").map(Number));
  drawOverlays();
  view.draw();
  const [code, text] = statusOf();
  canvas.dataset.moves = formatMoves(moves, game.size);
  canvas.dataset.status = code;
  canvas.dataset.engine = engine.state;
  canvas.dataset.hint = view.hint ? cell(view.hint) : "";
  canvas.dataset.rule = game.rule;
  canvas.dataset.forbidden = forbiddenText();
  canvas.dataset.size = String(game.size);
  document.body.dataset.status = code;
  statusEl.textContent = text.charAt(0).toUpperCase() + text.slice(1);
  statusEl.dataset.status = code;
  let line = t(game.human === game.first ? "youAreFirst" : "youAre", { color: colorLower(game.human) });
  const setup = [];
  if (game.size !== DEFAULT_SIZE) setup.push(`${game.size}×${game.size}`);
  if (game.rule !== "freestyle") setup.push(t("rule_" + game.rule));
  if (setup.length) line += " " + t("setupLine", { setup: setup.join(", ") });
  if (analysing) line = t("analysisLine");
  else if (cur.winner) line = cur.winner === game.human ? t("youWin") : t("engineWins");
  else if (cur.draw) line = t("nobodyWins");
  else if (code === "review") line = t("reviewLine");
  if (isOver() && !analysing) line += t("pressNew");
  if (forbidden.size) line += " " + t("forbiddenLegend");
  $("#you-are").textContent = line;

  const ready = engine.state === "ready" && !engineError;
  undoBtn.disabled = undoTarget() === null;
  redoBtn.disabled = redoTarget() === null;
  hintBtn.disabled = analysing || isOver() || !ready || runner.busy() || sideToMove() !== game.human;
  swapBtn.disabled = analysing || isOver();
  analyseBtn.setAttribute("aria-pressed", String(analysing));
  analyseBtn.textContent = t(analysing ? "stopAnalyse" : "analyse");
  moveNowBtn.hidden = !(jobKind() === "move" && runner.current().sliced);
  retryBtn.hidden = !engineError;
  sideSel.value = String(game.human);
  levelSel.value = game.level;
  $("#nav-first").disabled = $("#nav-prev").disabled = game.cursor === 0;
  $("#nav-next").disabled = $("#nav-last").disabled = atEnd();
  $("#nav-pos").textContent = t("navPos", { n: game.cursor, total: game.moves.length });
  renderMoveList();
  renderThink();
  updateCursorLabel();
}

function renderMoveList() {
  moveListEl.textContent = "";
  if (!game.moves.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("noMoves");
    moveListEl.append(li);
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
      b.textContent = cell(game.moves[j]);
      b.dataset.index = String(j + 1);
      if (j + 1 === game.cursor) { b.setAttribute("aria-current", "step"); current = b; }
      li.append(b);
    }
    moveListEl.append(li);
  }
  if (current) {
    const top = current.offsetTop - moveListEl.offsetTop;
    if (top < moveListEl.scrollTop || top > moveListEl.scrollTop + moveListEl.clientHeight - 24) {
      moveListEl.scrollTop = top - moveListEl.clientHeight / 2;
    }
  }
}

function kilo(n) {
  n = Number(n) || 0;
  return n >= 1e6 ? (n / 1e6).toFixed(2) + "M" : n >= 1000 ? (n / 1000).toFixed(1) + "k" : String(Math.round(n));
}

// The panel's score text and black's share of the evaluation bar (score.js colourScore).
function describeScore(info) {
  const sc = colourScore(info, info.stm);
  if (sc.kind === "wins") return { text: t("winsIn", { color: colorWord(sc.color), n: sc.n }), black: sc.black };
  if (sc.kind === "even") return { text: `${t("even")} 0.0`, black: sc.black };
  return { text: `${colorWord(sc.color)} +${sc.value}`, black: sc.black };
}

function currentInfo() {
  return lastInfo && lastInfo.keys.includes(posKey()) ? lastInfo : null;
}

function pvOverlay() {
  const info = currentInfo();
  if (!info || !(settings.showPv || pvHover)) return [];
  const offset = info.keys.indexOf(posKey());
  const pv = (info.pv || []).slice(offset);
  const first = sideToMove();
  return pv.slice(0, 12).map(([x, y], i) => ({ x, y, color: i % 2 === 0 ? first : 3 - first, label: i + 1 }));
}

// The lines and marks on the board: the line shown (a top move's while one is hovered or
// focused, else the best line when asked for) and, in analysis, the best moves.
function drawOverlays() {
  const { marks, overlay, line } = analysisView.draw(pvOverlay());
  view.marks = marks;
  view.overlay = overlay;
  canvas.dataset.overlay = line.map((o) => cell([o.x, o.y])).join(" ");
}

function renderThink() {
  const info = currentInfo();
  const bar = $("#eval-bar");
  if (!info) {
    for (const id of ["#think-score", "#think-depth", "#think-nps", "#think-source", "#think-pv"]) $(id).textContent = "–";
    $("#eval-fill").style.width = "50%";
    bar.setAttribute("aria-label", t("evalBar", { text: "–" }));
  } else {
    const sc = describeScore(info);
    $("#think-score").textContent = sc.text;
    $("#think-depth").textContent = info.depth ? String(info.depth) : "–";
    $("#think-nps").textContent = info.nps ? `${kilo(info.nps)} nodes/s` : "–";
    $("#think-source").textContent = info.source ? t("src_" + info.source) : (runner.busy() ? "…" : "–");
    $("#think-pv").textContent = (info.pv || []).map(cell).join(" ") || "–";
    $("#eval-fill").style.width = `${Math.round(sc.black * 1000) / 10}%`;
    bar.setAttribute("aria-label", t("evalBar", { text: sc.text }));
  }
  $("#think-last").textContent = lastEngine ? lastEngine.text : "–";
  $("#show-pv").checked = settings.showPv;
}

function announce(text) {
  announceEl.textContent = text;
}

function notice(text, kind = "info") {
  noticeEl.textContent = text || "";
  noticeEl.dataset.kind = kind;
}

// ---- engine -------------------------------------------------------------------------

const workerUrl = new URL("worker.js", location.href);
if (TEST_MODE) workerUrl.searchParams.set("test", "1");
const searchWorkerUrl = new URL(workerUrl);
searchWorkerUrl.searchParams.set("role", "search");
const threadsWanted = () => THREADS_OVERRIDE ?? settings.threads ?? defaultThreads();

// Parallel search (parallel-client.js): with threads >= 2, that many search workers.
function showWorkers({ threads, ready, total }) {
  canvas.dataset.workers = String(ready);
  canvas.dataset.threads = String(threads);
  $("#workers-info").textContent = total
    ? `Parallel search: ${ready} of ${total} search workers ready.`
    : "Search in one worker (1 thread).";
}

const engine = new ParallelEngineClient({
  workerUrl: workerUrl.href,
  searchWorkerUrl: searchWorkerUrl.href,
  threads: threadsWanted(),
  testMode: TEST_MODE,
  onWorkers: showWorkers,
  onState(state, detail) {
    if (state === "ready") {
      const ms = detail.pageLoadMs;
      engineInfoEl.textContent = `Engine ${detail.version} ready in ${(ms / 1000).toFixed(1)} s (Pyodide ${detail.pyodide}).`;
      canvas.dataset.loadMs = String(ms);
      console.info("engine ready", JSON.stringify({ pageLoadMs: ms, workerMs: detail.loadMs, phases: detail.phases }));
      if (runner.takeQuietRestart() === false && engine.restarts) notice(t("restarted"), "info");
      if (!offlineStarted) {
        offlineStarted = true;
        registerOffline({
          onReady() { canvas.dataset.offline = "ready"; },
          onUpdate() { notice(t("updated"), "info"); },
        });
      }
      window.setTimeout(resume, 0);
    } else if (state === "failed") {
      engineError = detail;
      notice(t("cannotStart", { err: detail }), "error");
    }
    render();
  },
});

// The engine's jobs (jobs.js): one at a time, each with a token; a cancelled job's answers
// are ignored.
const runner = createJobRunner({
  client: engine,
  deadlineFor,
  isTimeout: (err) => err instanceof EngineTimeout,
  onChange: render,
  onFailure(err, { retrying }) {
    if (retrying) {
      notice(t("tooLong"), "warn");
      // the client already started a fresh worker; its ready state resumes the work
    } else {
      engineError = String(err.message || err);
      notice(t("problem", { err: engineError }), "error");
    }
    render();
  },
});
const jobKind = () => (runner.current() ? runner.current().kind : null);

// multiPv > 1 (analysis): the engine also reports its best multiPv moves (top)
function thinkMessage(moves, timeMs, book = true, multiPv = 1) {
  const limits = book ? { timeMs } : { timeMs, book: false };
  if (multiPv > 1) limits.multiPv = multiPv;
  return { type: "think", size: game.size, rule: game.rule, moves, limits };
}

function deadlineFor(ms) {
  // Generous: the engine stops itself at about ms; this only catches a stuck worker.
  return DEADLINE_OVERRIDE ?? ms * 3 + 10000;
}

const sliceMs = (i) => SLICE_OVERRIDE ?? SLICES[Math.min(i, SLICES.length - 1)];

const cancelJob = () => runner.cancel();

function showInfo(info, stm, key, source) {
  lastInfo = { ...info, stm, keys: [key], source: source ?? info.source ?? null };
  renderThink();
  if (analysing || settings.showPv || pvHover) {
    drawOverlays();
    view.draw();
  }
}

// An analysis report (info or result): shown, in the panel and as marks on the board, when
// it replaces the one shown (analysis.js replacesTop: deeper, or a new slice as deep).
// Throws on a malformed top.
function analysisReport(reply, stm, key, want) {
  if (analysisView.offer(reply, { key, want, size: game.size })) showInfo(reply, stm, key);
}

function resume() {
  if (analysing) startAnalysis();
  else maybeEngineMove();
}

// An engine move is checked like the player's: off the board, taken or, under renju, on a
// point forbidden for black is reported (Error) and not played.
function checkEngineMove(x, y, reply) {
  const why = Game.illegalReason(game, x, y, cur);
  if (why === "forbidden") {
    throw new Error(t("engineForbidden", { move: cell([x, y]), shape: shapeText(Game.forbiddenAt(game, x, y, cur)) }));
  }
  if (why) throw new Error("the engine proposed an illegal move " + JSON.stringify(reply.move));
  if (reply.guard) console.info("renju guard:", reply.guard.message);
}

function maybeEngineMove(force = false) {
  if (runner.busy() || analysing || isOver() || engineError) return;
  if (sideToMove() === game.human || engine.state !== "ready") return;
  if (!force && !atEnd()) return;
  const key = posKey();
  const stm = sideToMove();
  const moves = shown();
  const per = LEVELS[game.level] === null ? null : (TIME_OVERRIDE ?? LEVELS[game.level]);
  const started = performance.now();
  hint = null;
  runner.start({
    kind: "move", key, sliced: per == null,
    // a timed level: one think; unlimited: slices until Move now or a solved position
    next(i, last) {
      if (per != null) return i === 0 ? { message: thinkMessage(moves, per), ms: per } : null;
      return last && isDecisive(last) ? null : { message: thinkMessage(moves, sliceMs(i)), ms: sliceMs(i) };
    },
    onInfo: (info) => showInfo(info, stm, key),
    onReply: (reply) => { if (per == null) showInfo(reply, stm, key); },
    onDone(reply) {
      const [x, y] = Array.isArray(reply.move) ? reply.move : [];
      checkEngineMove(x, y, reply);
      showInfo(reply, stm, key);
      playMove(x, y);
      lastInfo.keys.push(posKey());
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      lastEngine = { text: t("playedIn", { move: cell([x, y]), secs }) };
      announce(t("enginePlays", { move: cell([x, y]) }) + resultSentence());
      notice("");
      render();
    },
  });
}

function requestHint() {
  if (runner.busy() || analysing || isOver() || engineError || engine.state !== "ready") {
    announce(t("hintBusy"));
    return;
  }
  if (sideToMove() !== game.human) return;
  const key = posKey();
  const stm = sideToMove();
  const moves = shown();
  const ms = TIME_OVERRIDE ?? Math.min(LEVELS[game.level] ?? 2000, 2000);
  runner.start({
    kind: "hint", key,
    next: (i) => (i === 0 ? { message: thinkMessage(moves, ms), ms } : null),
    onInfo: (info) => showInfo(info, stm, key),
    onDone(reply) {
      checkEngineMove(...(Array.isArray(reply.move) ? reply.move : []), reply);
      showInfo(reply, stm, key);
      hint = { key, move: reply.move };
      announce(t("hintIs", { move: cell(reply.move) }));
      render();
    },
  });
}

function startAnalysis() {
  if (!analysing || runner.busy() || isOver() || engineError || engine.state !== "ready") return;
  const key = posKey();
  const stm = sideToMove();
  const moves = shown();
  const want = settings.analysisMoves; // the best moves asked for (multi-PV)
  analysisView.begin();
  runner.start({
    kind: "analyse", key, sliced: true,
    // slices of growing length, until stopped or solved (more time adds nothing then);
    // no opening book here: analysis shows what a search finds
    next(i, last) {
      if (last && isDecisive(last) && i - 1 >= SLICES.length - 1) return null;
      return { message: thinkMessage(moves, sliceMs(i), false, want), ms: sliceMs(i) };
    },
    onInfo(info) {
      try {
        analysisReport(info, stm, key, want);
      } catch (err) {
        console.warn("analysis info ignored:", err.message);
      }
    },
    onReply(reply) {
      analysisReport(reply, stm, key, want);
      analysisView.sliceEnded();
    },
  });
}

function setAnalysis(on) {
  if (on === analysing) return;
  cancelJob();
  analysing = on;
  hint = null;
  analysisView.reset();
  render();
  resume();
}

// ---- moving around the game -----------------------------------------------------------

function goTo(n, how) {
  n = Math.max(0, Math.min(game.moves.length, n));
  if (n === game.cursor) return;
  cancelJob();
  game = Game.goTo(game, n);
  sync();
  hint = null;
  saveGame();
  if (how) announce(how);
  else announce(n ? t("atMove", { n, move: cell(game.moves[n - 1]) }) : t("atStart"));
  render();
  resume();
}

function undo() {
  const n = undoTarget();
  if (n !== null) goTo(n, t("takenBack"));
}

function redo() {
  const n = redoTarget();
  if (n !== null) goTo(n, t("redone"));
}

function swapSides() {
  if (analysing || isOver()) return;
  cancelJob();
  game = Game.withHuman(game, 3 - game.human);
  saveGame();
  announce(t("swapped", { color: colorLower(game.human) }));
  render();
  maybeEngineMove(true);
}

function newGame(setup) {
  cancelJob();
  analysing = false;
  game = Game.newGame(setup);
  sync();
  saveGame();
  hint = null;
  lastInfo = null;
  lastEngine = null;
  analysisView.reset();
  notice("");
  announce(t("newGameAnn", { color: colorLower(game.human) }));
  render();
  maybeEngineMove();
}

// A game from a record ({moves, size, rule, first}: a move list, link, file or finished
// game): shown at its end, the player takes the side to move. Throws (and changes
// nothing) when the record is bad.
function loadRecord(record) {
  const next = Game.fromRecord(record, { human: game.human, level: game.level });
  cancelJob();
  game = next;
  sync();
  hint = null;
  lastInfo = null;
  analysisView.reset();
  saveGame();
  render();
  resume();
}

// ---- input --------------------------------------------------------------------------

function humanPlay(x, y) {
  if (isOver()) { announce(t("gameOver")); return false; }
  if (!analysing) {
    if (engineError || jobKind() === "move") { announce(t("waitEngine")); return false; }
    if (sideToMove() !== game.human) {
      announce(atEnd() ? t("waitEngine") : t("engineToMoveHere"));
      return false;
    }
  }
  if (cur.stones.has(x + "," + y)) {
    announce(t("taken", { move: cell([x, y]) }));
    return false;
  }
  if (forbidden.has(x + "," + y)) {
    announce(t("forbiddenMove", { move: cell([x, y]), shape: shapeText(forbidden.get(x + "," + y)) }));
    return false;
  }
  const color = sideToMove();
  cancelJob(); // a hint or analysis of the position that is about to change
  playMove(x, y);
  const said = analysing ? t("playsMove", { color: colorWord(color), move: cell([x, y]) })
    : t("youPlayMove", { move: cell([x, y]) });
  announce(said + resultSentence());
  render();
  resume();
  return true;
}

canvas.addEventListener("click", (ev) => {
  const c = view.cellAt(ev.clientX, ev.clientY);
  if (!c) return;
  view.cursor = c;
  humanPlay(...c);
});

canvas.addEventListener("pointermove", (ev) => {
  if (ev.pointerType !== "mouse") return;
  const c = view.cellAt(ev.clientX, ev.clientY);
  const mayPlay = !isOver() && (analysing || (!engineError && jobKind() !== "move" && sideToMove() === game.human));
  // on one of analysis's best moves: its line instead of the stone preview
  const onMark = analysisView.pointAt("board", c);
  const next = c && mayPlay && !onMark && !forbidden.has(c[0] + "," + c[1]) ? c : null;
  if (String(next) !== String(view.hover)) {
    view.hover = next;
    view.hoverColor = sideToMove();
    view.draw();
  }
});
canvas.addEventListener("pointerleave", () => {
  view.hover = null;
  analysisView.pointAt("board", null);
  view.draw();
});

view.cursor = centre(game.size);

function updateCursorLabel() {
  const [x, y] = view.cursor;
  const who = cur.stones.get(x + "," + y);
  const shape = forbidden.get(x + "," + y);
  const top = who === undefined ? analysisView.describe(view.cursor) : "";
  const what = who !== undefined ? `${colorName(who)} stone` : shape ? t("forbiddenCursor", { shape: shapeText(shape) })
    : "empty" + (top ? `, ${top}` : "");
  const n = game.size;
  canvas.setAttribute("aria-label", `Gomoku board, ${n} by ${n}. Cursor on ${cell(view.cursor)}, ${what}. ` +
    "Arrow keys move, Enter or Space places a stone.");
  return `${cell(view.cursor)}, ${what}`;
}

canvas.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return; // browsing keys: the document handler
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (steps[ev.key]) {
    ev.preventDefault();
    const [dx, dy] = steps[ev.key];
    const [x, y] = view.cursor;
    const last = game.size - 1;
    view.cursor = [Math.min(last, Math.max(0, x + dx)), Math.min(last, Math.max(0, y + dy))];
    view.showCursor = true;
    cursorEl.textContent = updateCursorLabel();
    analysisView.pointAt("cursor", view.cursor); // on a best move: its line
    view.draw();
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    view.showCursor = true;
    humanPlay(...view.cursor);
  } else if ((ev.key === "b" || ev.key === "B") && analysing) {
    ev.preventDefault();
    analysisView.read(); // the best moves, spoken
  }
});
canvas.addEventListener("focus", () => {
  // show the keyboard cursor only when focus came from the keyboard, not from a click
  view.showCursor = canvas.matches(":focus-visible");
  view.draw();
});
canvas.addEventListener("blur", () => {
  view.showCursor = false;
  analysisView.pointAt("cursor", null);
  view.draw();
});

// Browsing: arrows / Home / End anywhere but in form fields; on the board with Alt or Ctrl.
document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || document.querySelector("dialog[open]")) return;
  const tag = ev.target && ev.target.tagName;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  const onBoard = ev.target === canvas;
  if (onBoard && !(ev.altKey || ev.ctrlKey || ev.metaKey)) return;
  const to = { ArrowLeft: game.cursor - 1, ArrowRight: game.cursor + 1, Home: 0, End: game.moves.length }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  goTo(to);
});

newGameBtn.addEventListener("click", () => {
  const human = Number(sideSel.value) === WHITE ? WHITE : BLACK;
  newGame({ human, level: game.level, rule: game.rule, first: game.first, size: game.size });
});

sideSel.addEventListener("change", () => {
  if (game.moves.length === 0) newGameBtn.click();
  else notice(t("sideNext"), "info");
});

levelSel.addEventListener("change", () => {
  game = Game.withLevel(game, isLevel(levelSel.value) ? levelSel.value : DEFAULT_LEVEL);
  saveGame();
});

undoBtn.addEventListener("click", undo);
redoBtn.addEventListener("click", redo);
hintBtn.addEventListener("click", requestHint);
swapBtn.addEventListener("click", swapSides);
analyseBtn.addEventListener("click", () => setAnalysis(!analysing));
moveNowBtn.addEventListener("click", () => runner.moveNow());
$("#nav-first").addEventListener("click", () => goTo(0));
$("#nav-prev").addEventListener("click", () => goTo(game.cursor - 1));
$("#nav-next").addEventListener("click", () => goTo(game.cursor + 1));
$("#nav-last").addEventListener("click", () => goTo(game.moves.length));
moveListEl.addEventListener("click", (ev) => {
  const b = ev.target.closest("button.mv");
  if (b) goTo(Number(b.dataset.index));
});

retryBtn.addEventListener("click", () => {
  engineError = null;
  runner.resetRetries();
  notice("");
  engine.restart();
  render();
});

// ---- thinking panel ------------------------------------------------------------------

const thinkPanel = $("#think-panel");
function setPvHover(on) {
  if (pvHover === on) return;
  pvHover = on;
  render();
}
thinkPanel.addEventListener("mouseenter", () => setPvHover(true));
thinkPanel.addEventListener("mouseleave", () => setPvHover(thinkPanel.contains(document.activeElement)));
thinkPanel.addEventListener("focusin", () => setPvHover(true));
thinkPanel.addEventListener("focusout", () => setPvHover(false));
$("#show-pv").addEventListener("change", (ev) => {
  settings.showPv = ev.target.checked;
  saveSettings();
  render();
});

// ---- analysis: the best moves (analysis-view.js) -----------------------------------------

const analysisView = setupAnalysisView({
  canvas,
  settings,
  saveSettings,
  context: () => ({
    analysing, key: posKey(), size: game.size, stm: sideToMove(), colorWord,
    blocked: (x, y) => Game.illegalReason(game, x, y, cur),
  }),
  play: (x, y) => humanPlay(x, y),
  onChange() { drawOverlays(); view.draw(); },
  onCount() {
    if (!analysing) return render();
    cancelJob(); // the analysis starts again, asking for the new count
    render();
    resume();
  },
});

// ---- new game dialog -----------------------------------------------------------------

const ngDialog = $("#new-game-dialog");
$("#ng-size").replaceChildren(...SIZES.map((n) => new Option(`${n} × ${n}`, String(n))));
$("#setup").addEventListener("click", () => {
  ngDialog.querySelector(`input[name="ng-side"][value="${game.human}"]`).checked = true;
  ngDialog.querySelector(`input[name="ng-first"][value="${colorName(game.first)}"]`).checked = true;
  ngDialog.querySelector(`input[name="ng-rule"][value="${game.rule}"]`).checked = true;
  $("#ng-level").value = game.level;
  $("#ng-size").value = String(game.size);
  syncRenjuFirst();
  ngDialog.showModal();
});
// Under renju black moves first: the White first choice is off while renju is picked.
function syncRenjuFirst() {
  const renju = ngDialog.querySelector('input[name="ng-rule"]:checked').value === "renju";
  const whiteFirst = ngDialog.querySelector('input[name="ng-first"][value="white"]');
  if (renju && whiteFirst.checked) ngDialog.querySelector('input[name="ng-first"][value="black"]').checked = true;
  whiteFirst.disabled = renju;
  $("#ng-renju-note").hidden = !renju;
}
for (const radio of ngDialog.querySelectorAll('input[name="ng-rule"]')) radio.addEventListener("change", syncRenjuFirst);
$("#ng-cancel").addEventListener("click", () => ngDialog.close());
$("#ng-start").addEventListener("click", () => {
  const val = (name) => ngDialog.querySelector(`input[name="${name}"]:checked`).value;
  ngDialog.close();
  const level = isLevel($("#ng-level").value) ? $("#ng-level").value : DEFAULT_LEVEL;
  const size = Number($("#ng-size").value);
  const rule = isRule(val("ng-rule")) ? val("ng-rule") : "freestyle";
  newGame({
    human: val("ng-side") === "2" ? WHITE : BLACK,
    first: val("ng-first") === "white" && rule !== "renju" ? WHITE : BLACK,
    rule,
    size: isSize(size) ? size : DEFAULT_SIZE,
    level,
  });
});

// ---- records -------------------------------------------------------------------------

setupRecordsDialog({ getGame: () => game, getHistory: () => history, loadRecord, announce });

// A share link (#moves=h8,i9&rule=freestyle&size=15) opens that position.
function openFragment() {
  const wasAnalysing = analysing;
  try {
    const link = parseFragment(location.hash);
    if (!link) return false;
    analysing = false;
    loadRecord(link); // throws (changing nothing) on a record the game cannot take
  } catch (err) {
    analysing = wasAnalysing;
    notice(t("badLink", { err: err.message }), "warn");
    history_replace();
    return false;
  }
  notice(t("linkOpened"), "info");
  history_replace();
  return true;
}

function history_replace() {
  // drop the fragment: a reload then shows the game as it goes on (from localStorage)
  try { window.history.replaceState(null, "", location.pathname + location.search); } catch { /* ignore */ }
}
window.addEventListener("hashchange", openFragment);

// ---- display settings ------------------------------------------------------------------

function applySettings() {
  const root = document.documentElement;
  if (settings.theme === "auto") delete root.dataset.theme;
  else root.dataset.theme = settings.theme;
  setLanguage(pickLanguage(settings.lang));
  $("#opt-numbers").checked = settings.numbers;
  $("#opt-coords").checked = settings.coords;
  $("#opt-sound").checked = settings.sound;
  $("#opt-theme").value = settings.theme;
  $("#opt-lang").value = currentLanguage();
  $("#opt-threads").value = String(threadsWanted());
}

for (const [id, keyName] of [["#opt-numbers", "numbers"], ["#opt-coords", "coords"], ["#opt-sound", "sound"]]) {
  $(id).addEventListener("change", (ev) => {
    settings[keyName] = ev.target.checked;
    saveSettings();
    if (keyName === "sound" && settings.sound) playStone(BLACK);
    render();
  });
}
$("#opt-theme").addEventListener("change", (ev) => {
  settings.theme = ev.target.value;
  saveSettings();
  applySettings();
  render();
});
$("#opt-lang").addEventListener("change", (ev) => {
  settings.lang = ev.target.value;
  saveSettings();
  applySettings();
  render();
});

$("#opt-threads").addEventListener("change", (ev) => {
  const n = Number(ev.target.value);
  if (!validThreads(n)) return;
  settings.threads = n;
  saveSettings();
  engine.setThreads(THREADS_OVERRIDE ?? n);
  showWorkers(engine.workers());
});

// ---- layout -------------------------------------------------------------------------

const resizeObserver = new ResizeObserver(() => view.resize());
resizeObserver.observe(canvas);
window.addEventListener("resize", () => view.resize());

// ---- test hooks (only with ?test=1) -------------------------------------------------

if (TEST_MODE) {
  window.gomokuTest = {
    hang() { engine.postRaw({ type: "debug-hang" }); },
    send(data, id = null, deadlineMs = 30000) { return engine.rawRequest(data, id, deadlineMs); },
    state() {
      return {
        game: { ...structuredClone(game), line: cur.line, winner: cur.winner },
        engine: engine.state, restarts: engine.restarts, thinking: jobKind() === "move",
        job: jobKind(), analysing, info: lastInfo ? { ...lastInfo } : null,
      };
    },
  };
}

if (navigator.serviceWorker && navigator.serviceWorker.controller) canvas.dataset.offline = "ready";
applySettings();
sync();
render();
if (startupNotices.length) notice(startupNotices.map((k) => t(k)).join(" "), "warn");
openFragment();
view.resize();
engine.start();
