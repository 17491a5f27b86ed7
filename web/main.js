// The page: game state (kept here and in localStorage), UI, and the engine client.
//
// The game is one line of moves plus a cursor (how many of them are on the board). Undo,
// redo and browsing move the cursor; a move played before the end replaces the moves after
// it (a new branch). The engine answers one request at a time; every search ("job": the
// engine's move, a hint, an analysis) carries a token, and a job whose token is stale is
// ignored when its answer arrives.
import { BoardView, cellText } from "./board.js";
import { EngineClient, EngineTimeout } from "./engine-client.js";
import { ParallelEngineClient, defaultThreads, validThreads } from "./parallel-client.js";
import { RULES, replay } from "./rules.js";
import { formatMoves, parseFragment, parseMoves, parsePsq, toFragment, toPsq } from "./records.js";
import { currentLanguage, pickLanguage, setLanguage, t } from "./i18n.js";
import { playStone } from "./sound.js";
import { registerOffline } from "./offline.js";

const SIZE = 15;
const STORAGE_KEY = "gomoku.game.v1";
const SETTINGS_KEY = "gomoku.settings.v1";
const HISTORY_KEY = "gomoku.history.v1";
const HISTORY_MAX = 20;
// Think time per level in ms; "inf" thinks in slices until Move now is pressed.
const LEVELS = { t03: 300, t1: 1000, t3: 3000, t10: 10000, inf: null };
const OLD_LEVELS = { fast: "t03", normal: "t1", strong: "t3" };
const DEFAULT_LEVEL = "t1";
// A running search cannot be interrupted (no SharedArrayBuffer), so open-ended thinking
// (analysis, the unlimited level) is a series of think requests of growing length.
const SLICES = [500, 1000, 2000];
const BLACK = 1, WHITE = 2;

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

const view = new BoardView(canvas, SIZE);

// ---- stored data --------------------------------------------------------------------

const startupNotices = [];

function readStored(key) {
  // undefined: nothing stored; throws on unreadable JSON
  const text = localStorage.getItem(key);
  return text === null ? undefined : JSON.parse(text);
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch { /* storage full or disabled: the page still works */ }
}

function discard(key, noticeKey) {
  try { localStorage.removeItem(key); } catch { /* ignore */ }
  startupNotices.push(noticeKey);
}

const DEFAULT_SETTINGS = { theme: "auto", lang: null, sound: false, numbers: false, coords: true, showPv: false };

function loadSettings() {
  let s;
  try {
    s = readStored(SETTINGS_KEY);
  } catch {
    discard(SETTINGS_KEY, "corruptSettings");
    return { ...DEFAULT_SETTINGS };
  }
  if (s === undefined) return { ...DEFAULT_SETTINGS };
  if (!s || typeof s !== "object" || Array.isArray(s)) {
    discard(SETTINGS_KEY, "corruptSettings");
    return { ...DEFAULT_SETTINGS };
  }
  const out = { ...DEFAULT_SETTINGS };
  if (["auto", "light", "dark"].includes(s.theme)) out.theme = s.theme;
  if (s.lang === "en" || s.lang === "zh") out.lang = s.lang;
  for (const k of ["sound", "numbers", "coords", "showPv"]) if (typeof s[k] === "boolean") out[k] = s[k];
  if (validThreads(s.threads)) out.threads = s.threads; // else automatic: defaultThreads()
  return out;
}

function saveSettings() {
  store(SETTINGS_KEY, settings);
}

function loadHistory() {
  let h;
  try {
    h = readStored(HISTORY_KEY);
  } catch {
    discard(HISTORY_KEY, "corruptHistory");
    return [];
  }
  if (h === undefined) return [];
  const ok = Array.isArray(h) && h.every((e) => e && typeof e === "object" &&
    typeof e.date === "string" && RULES.includes(e.rule) && [BLACK, WHITE].includes(e.first) &&
    ["black", "white", "draw"].includes(e.result) && typeof e.moves === "string");
  if (!ok) {
    discard(HISTORY_KEY, "corruptHistory");
    return [];
  }
  return h.slice(-HISTORY_MAX);
}

function freshGame(human, level, rule = "freestyle", first = BLACK) {
  return { size: SIZE, rule, first, human, level, moves: [], cursor: 0, recorded: false };
}

function loadGame() {
  let g;
  try {
    g = readStored(STORAGE_KEY);
  } catch {
    discard(STORAGE_KEY, "corruptGame");
    return null;
  }
  if (g === undefined || g === null) return null;
  try {
    if (typeof g !== "object" || g.size !== SIZE || !Array.isArray(g.moves)) throw new Error("shape");
    const rule = g.rule === undefined ? "freestyle" : g.rule;
    if (!RULES.includes(rule)) throw new Error("rule");
    const first = g.first === undefined ? BLACK : g.first;
    if (first !== BLACK && first !== WHITE) throw new Error("first");
    replay(g.moves, SIZE, rule); // throws on any bad move
    const level = LEVELS[g.level] !== undefined ? g.level : (OLD_LEVELS[g.level] || DEFAULT_LEVEL);
    const fresh = freshGame(g.human === WHITE ? WHITE : BLACK, level, rule, first);
    fresh.moves = g.moves.map(([x, y]) => [x, y]);
    fresh.cursor = Number.isInteger(g.cursor) && g.cursor >= 0 && g.cursor <= g.moves.length ? g.cursor : g.moves.length;
    fresh.recorded = g.recorded === true;
    return fresh;
  } catch {
    discard(STORAGE_KEY, "corruptGame");
    return null;
  }
}

function saveGame() {
  store(STORAGE_KEY, {
    size: game.size, rule: game.rule, first: game.first, human: game.human, level: game.level,
    moves: game.moves, cursor: game.cursor, recorded: game.recorded,
  });
}

const settings = loadSettings();
let history = loadHistory();
let game = loadGame() || freshGame(BLACK, DEFAULT_LEVEL);
let cur = null; // the shown position: {winner (colour or 0), line, draw, stones}
let job = null; // {token, kind: "move" | "hint" | "analyse", key, endsAt} while the engine works
let jobToken = 0;
let analysing = false;
let moveNowFlag = false;
let quietRestart = false;
let retries = 0;
let engineError = null;
let hint = null; // {key, move}
let lastInfo = null; // {keys, offset, stm, depth, score, score_text, nps, pv, source}
let lastEngine = null; // {text}
let pvHover = false;
let offlineStarted = false;

// ---- game state ---------------------------------------------------------------------

const colorOf = (i) => (i % 2 === 0 ? game.first : 3 - game.first);
const shown = () => game.moves.slice(0, game.cursor);
const sideToMove = () => colorOf(game.cursor);
const isOver = () => cur.winner !== 0 || cur.draw;
const atEnd = () => game.cursor === game.moves.length;
const colorName = (c) => (c === BLACK ? "black" : "white");
const colorWord = (c) => t(c === BLACK ? "black" : "white");
const colorLower = (c) => t(c === BLACK ? "blackL" : "whiteL");
const posKey = () => `${game.first}/${game.rule}/` + shown().map((m) => m.join(".")).join(" ");
const cell = ([x, y]) => cellText(x, y, SIZE);

function sync() {
  const r = replay(shown(), SIZE, game.rule);
  cur = {
    winner: r.winner < 0 ? 0 : colorOf(r.winner),
    line: r.line,
    draw: r.draw,
    stones: r.stones,
  };
}

function recordFinished() {
  if (game.recorded || !isOver() || !atEnd()) return;
  game.recorded = true;
  history.push({
    date: new Date().toISOString(), rule: game.rule, first: game.first, human: game.human,
    result: cur.winner ? colorName(cur.winner) : "draw", moves: formatMoves(game.moves, SIZE),
  });
  history = history.slice(-HISTORY_MAX);
  store(HISTORY_KEY, history);
}

// Put a stone on the shown position (a new branch when not at the end of the line).
function playMove(x, y) {
  const next = game.moves[game.cursor];
  if (next && next[0] === x && next[1] === y) {
    game.cursor += 1; // the same as the recorded next move: keep the rest of the line
  } else {
    game.moves = game.moves.slice(0, game.cursor);
    game.moves.push([x, y]);
    game.cursor = game.moves.length;
    game.recorded = false;
  }
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
  const engineMoving = job && job.kind === "move";
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

function undoTarget() {
  if (analysing) return game.cursor > 0 ? game.cursor - 1 : null;
  for (let n = game.cursor - 1; n >= 0; n--) if (colorOf(n) === game.human) return n;
  return null;
}

function redoTarget() {
  if (atEnd()) return null;
  if (analysing) return game.cursor + 1;
  for (let n = game.cursor + 1; n < game.moves.length; n++) if (colorOf(n) === game.human) return n;
  return game.moves.length;
}

function render() {
  const moves = shown();
  view.setPosition(moves, game.first);
  view.winningLine = cur.line;
  view.showNumbers = settings.numbers;
  view.showCoords = settings.coords;
  view.hint = hint && hint.key === posKey() ? hint.move : null;
  view.hintColor = sideToMove();
  view.overlay = pvOverlay();
  view.draw();
  const [code, text] = statusOf();
  canvas.dataset.moves = formatMoves(moves, SIZE);
  canvas.dataset.status = code;
  canvas.dataset.engine = engine.state;
  canvas.dataset.hint = view.hint ? cell(view.hint) : "";
  canvas.dataset.overlay = view.overlay.map((o) => cell([o.x, o.y])).join(" ");
  canvas.dataset.rule = game.rule;
  document.body.dataset.status = code;
  statusEl.textContent = text.charAt(0).toUpperCase() + text.slice(1);
  statusEl.dataset.status = code;
  let line = t(game.human === game.first ? "youAreFirst" : "youAre", { color: colorLower(game.human) });
  if (game.rule !== "freestyle") line += ` (${t("rule_" + game.rule)})`;
  if (analysing) line = t("analysisLine");
  else if (cur.winner) line = cur.winner === game.human ? t("youWin") : t("engineWins");
  else if (cur.draw) line = t("nobodyWins");
  else if (code === "review") line = t("reviewLine");
  if (isOver() && !analysing) line += t("pressNew");
  $("#you-are").textContent = line;

  const ready = engine.state === "ready" && !engineError;
  undoBtn.disabled = undoTarget() === null;
  redoBtn.disabled = redoTarget() === null;
  hintBtn.disabled = analysing || isOver() || !ready || !!job || sideToMove() !== game.human;
  swapBtn.disabled = analysing || isOver();
  analyseBtn.setAttribute("aria-pressed", String(analysing));
  analyseBtn.textContent = t(analysing ? "stopAnalyse" : "analyse");
  moveNowBtn.hidden = !(job && job.kind === "move" && job.sliced);
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

// Score text from the searched side's view ("+1.2", "win in 7", "loss in 4") -> colours.
function describeScore(info) {
  const stm = info.stm;
  const txt = String(info.score_text ?? "");
  let m = /^win in (\d+)$/.exec(txt);
  if (m) return { text: t("winsIn", { color: colorWord(stm), n: m[1] }), black: stm === BLACK ? 1 : 0 };
  m = /^loss in (\d+)$/.exec(txt);
  if (m) return { text: t("winsIn", { color: colorWord(3 - stm), n: m[1] }), black: stm === BLACK ? 0 : 1 };
  const s = Number(info.score) || 0;
  const b = stm === BLACK ? s : -s;
  if (Math.abs(b) < 5) return { text: `${t("even")} 0.0`, black: 0.5 };
  return { text: `${colorWord(b > 0 ? BLACK : WHITE)} +${(Math.abs(b) / 100).toFixed(1)}`, black: 1 / (1 + Math.exp(-b / 400)) };
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
    $("#think-source").textContent = info.source ? t("src_" + info.source) : (job ? "…" : "–");
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
      if (engine.restarts && !quietRestart) notice(t("restarted"), "info");
      quietRestart = false;
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

class Cancelled extends Error {}

// One request at a time: a new one waits until the worker has answered the previous one
// (a cancelled search still runs to its end), and is dropped if it is no longer wanted.
let engineQueue = Promise.resolve();
function ask(message, token, opts) {
  const run = engineQueue.then(() => {
    if (token !== jobToken) throw new Cancelled();
    return engine.request(message, opts);
  });
  engineQueue = run.then(() => {}, () => {});
  return run;
}

function thinkMessage(moves, timeMs, book = true) {
  const limits = book ? { timeMs } : { timeMs, book: false };
  return { type: "think", size: SIZE, rule: game.rule, moves, limits };
}

function deadlineFor(ms) {
  // Generous: the engine stops itself at about ms; this only catches a stuck worker.
  return DEADLINE_OVERRIDE ?? ms * 3 + 10000;
}

const sliceMs = (i) => SLICE_OVERRIDE ?? SLICES[Math.min(i, SLICES.length - 1)];
const decisive = (r) => /^(win|loss) in/.test(String(r.score_text ?? ""));

// Forget the running job. A search with more than a few seconds left is cut short by
// replacing the worker; a shorter one runs out while the next request waits.
function cancelJob() {
  if (!job) return;
  const left = job.endsAt - performance.now();
  jobToken += 1;
  job = null;
  moveNowFlag = false;
  if (left > 4000 && engine.state === "ready") {
    quietRestart = true;
    engine.restart();
  }
}

function showInfo(info, stm, key, source) {
  lastInfo = { ...info, stm, keys: [key], source: source ?? info.source ?? null };
  renderThink();
  if (settings.showPv || pvHover) {
    view.overlay = pvOverlay();
    canvas.dataset.overlay = view.overlay.map((o) => cell([o.x, o.y])).join(" ");
    view.draw();
  }
}

function resume() {
  if (analysing) startAnalysis();
  else maybeEngineMove();
}

function engineFailed(err, token) {
  if (token !== jobToken || err instanceof Cancelled) return;
  job = null;
  if (err instanceof EngineTimeout && retries < 2) {
    retries += 1;
    notice(t("tooLong"), "warn");
    // the client already started a fresh worker; its ready state resumes the work
  } else {
    engineError = String(err.message || err);
    notice(t("problem", { err: engineError }), "error");
  }
  render();
}

async function maybeEngineMove(force = false) {
  if (job || analysing || isOver() || engineError) return;
  if (sideToMove() === game.human || engine.state !== "ready") return;
  if (!force && !atEnd()) return;
  const token = ++jobToken;
  const key = posKey();
  const stm = sideToMove();
  const moves = shown();
  const per = LEVELS[game.level] === null ? null : (TIME_OVERRIDE ?? LEVELS[game.level]);
  job = { token, kind: "move", key, endsAt: performance.now() + (per ?? sliceMs(0)), sliced: per == null };
  hint = null;
  render();
  const started = performance.now();
  const onInfo = (info) => { if (token === jobToken) showInfo(info, stm, key); };
  try {
    let reply;
    if (per != null) {
      reply = await ask(thinkMessage(moves, per), token, { deadlineMs: deadlineFor(per), onInfo });
    } else {
      for (let i = 0; ; i++) {
        const ms = sliceMs(i);
        if (job && job.token === token) job.endsAt = performance.now() + ms;
        reply = await ask(thinkMessage(moves, ms), token, { deadlineMs: deadlineFor(ms), onInfo });
        if (token !== jobToken) return;
        if (reply.type !== "result") break;
        showInfo(reply, stm, key);
        if (moveNowFlag || decisive(reply)) break;
      }
    }
    if (token !== jobToken) return; // cancelled meanwhile
    job = null;
    moveNowFlag = false;
    if (reply.type !== "result") throw new Error(reply.message || "unexpected reply " + reply.type);
    const [x, y] = reply.move;
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= SIZE || y >= SIZE ||
        cur.stones.has(x + "," + y)) {
      throw new Error("the engine proposed an illegal move " + JSON.stringify(reply.move));
    }
    retries = 0;
    showInfo(reply, stm, key);
    playMove(x, y);
    lastInfo.keys.push(posKey());
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    lastEngine = { text: t("playedIn", { move: cell([x, y]), secs }) };
    announce(t("enginePlays", { move: cell([x, y]) }) + resultSentence());
    notice("");
  } catch (err) {
    engineFailed(err, token);
    return;
  }
  render();
}

async function requestHint() {
  if (job || analysing || isOver() || engineError || engine.state !== "ready") {
    announce(t("hintBusy"));
    return;
  }
  if (sideToMove() !== game.human) return;
  const token = ++jobToken;
  const key = posKey();
  const stm = sideToMove();
  const ms = TIME_OVERRIDE ?? Math.min(LEVELS[game.level] ?? 2000, 2000);
  job = { token, kind: "hint", key, endsAt: performance.now() + ms };
  render();
  try {
    const reply = await ask(thinkMessage(shown(), ms), token, {
      deadlineMs: deadlineFor(ms),
      onInfo: (info) => { if (token === jobToken) showInfo(info, stm, key); },
    });
    if (token !== jobToken) return;
    job = null;
    if (reply.type !== "result") throw new Error(reply.message || "unexpected reply " + reply.type);
    showInfo(reply, stm, key);
    hint = { key, move: reply.move };
    announce(t("hintIs", { move: cell(reply.move) }));
  } catch (err) {
    engineFailed(err, token);
    return;
  }
  render();
}

async function startAnalysis() {
  if (!analysing || job || isOver() || engineError || engine.state !== "ready") return;
  const token = ++jobToken;
  const key = posKey();
  const stm = sideToMove();
  const moves = shown();
  job = { token, kind: "analyse", key, endsAt: performance.now() + sliceMs(0) };
  render();
  try {
    for (let i = 0; token === jobToken; i++) {
      const ms = sliceMs(i);
      job.endsAt = performance.now() + ms;
      // no opening book here: analysis shows what a search finds
      const reply = await ask(thinkMessage(moves, ms, false), token, {
        deadlineMs: deadlineFor(ms),
        onInfo: (info) => { if (token === jobToken) showInfo(info, stm, key); },
      });
      if (token !== jobToken) return;
      if (reply.type !== "result") throw new Error(reply.message || "unexpected reply " + reply.type);
      retries = 0;
      showInfo(reply, stm, key);
      if (decisive(reply) && i >= SLICES.length - 1) break; // solved: more time adds nothing
    }
  } catch (err) {
    engineFailed(err, token);
    return;
  }
  if (token === jobToken) {
    job = null;
    render();
  }
}

function setAnalysis(on) {
  if (on === analysing) return;
  cancelJob();
  analysing = on;
  hint = null;
  render();
  resume();
}

// ---- moving around the game -----------------------------------------------------------

function goTo(n, how) {
  n = Math.max(0, Math.min(game.moves.length, n));
  if (n === game.cursor) return;
  cancelJob();
  game.cursor = n;
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
  game.human = 3 - game.human;
  saveGame();
  announce(t("swapped", { color: colorLower(game.human) }));
  render();
  maybeEngineMove(true);
}

function newGame({ human, level, rule, first }) {
  cancelJob();
  analysing = false;
  game = freshGame(human, level, rule, first);
  sync();
  saveGame();
  hint = null;
  lastInfo = null;
  lastEngine = null;
  notice("");
  announce(t("newGameAnn", { color: colorLower(game.human) }));
  render();
  maybeEngineMove();
}

// A game from a record or link: shown at its end, the player takes the side to move.
function loadRecord(moves, { rule = game.rule, first = game.first } = {}) {
  cancelJob();
  const human = game.human;
  const level = game.level;
  game = freshGame(human, level, rule, first);
  game.moves = moves;
  game.cursor = moves.length;
  game.recorded = true;
  sync();
  if (!isOver()) game.human = sideToMove();
  hint = null;
  lastInfo = null;
  saveGame();
  render();
  resume();
}

// ---- input --------------------------------------------------------------------------

function humanPlay(x, y) {
  if (isOver()) { announce(t("gameOver")); return false; }
  if (!analysing) {
    if (engineError || (job && job.kind === "move")) { announce(t("waitEngine")); return false; }
    if (sideToMove() !== game.human) {
      announce(atEnd() ? t("waitEngine") : t("engineToMoveHere"));
      return false;
    }
  }
  if (cur.stones.has(x + "," + y)) {
    announce(t("taken", { move: cell([x, y]) }));
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
  const mayPlay = !isOver() && (analysing || (!engineError && !(job && job.kind === "move") && sideToMove() === game.human));
  const next = c && mayPlay ? c : null;
  if (String(next) !== String(view.hover)) {
    view.hover = next;
    view.hoverColor = sideToMove();
    view.draw();
  }
});
canvas.addEventListener("pointerleave", () => { view.hover = null; view.draw(); });

view.cursor = [(SIZE - 1) / 2, (SIZE - 1) / 2];

function updateCursorLabel() {
  const [x, y] = view.cursor;
  const who = cur.stones.get(x + "," + y);
  const what = who === undefined ? "empty" : `${colorName(colorOf(who))} stone`;
  canvas.setAttribute("aria-label", `Gomoku board, 15 by 15. Cursor on ${cellText(x, y, SIZE)}, ${what}. ` +
    "Arrow keys move, Enter or Space places a stone.");
  return `${cellText(x, y, SIZE)}, ${what}`;
}

canvas.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return; // browsing keys: the document handler
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (steps[ev.key]) {
    ev.preventDefault();
    const [dx, dy] = steps[ev.key];
    const [x, y] = view.cursor;
    view.cursor = [Math.min(SIZE - 1, Math.max(0, x + dx)), Math.min(SIZE - 1, Math.max(0, y + dy))];
    view.showCursor = true;
    cursorEl.textContent = updateCursorLabel();
    view.draw();
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    view.showCursor = true;
    humanPlay(...view.cursor);
  }
});
canvas.addEventListener("focus", () => {
  // show the keyboard cursor only when focus came from the keyboard, not from a click
  view.showCursor = canvas.matches(":focus-visible");
  view.draw();
});
canvas.addEventListener("blur", () => { view.showCursor = false; view.draw(); });

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
  newGame({ human: Number(sideSel.value) === WHITE ? WHITE : BLACK, level: game.level, rule: game.rule, first: game.first });
});

sideSel.addEventListener("change", () => {
  if (game.moves.length === 0) newGameBtn.click();
  else notice(t("sideNext"), "info");
});

levelSel.addEventListener("change", () => {
  game.level = LEVELS[levelSel.value] !== undefined ? levelSel.value : DEFAULT_LEVEL;
  saveGame();
});

undoBtn.addEventListener("click", undo);
redoBtn.addEventListener("click", redo);
hintBtn.addEventListener("click", requestHint);
swapBtn.addEventListener("click", swapSides);
analyseBtn.addEventListener("click", () => setAnalysis(!analysing));
moveNowBtn.addEventListener("click", () => { moveNowFlag = true; });
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
  retries = 0;
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

// ---- new game dialog -----------------------------------------------------------------

const ngDialog = $("#new-game-dialog");
$("#setup").addEventListener("click", () => {
  ngDialog.querySelector(`input[name="ng-side"][value="${game.human}"]`).checked = true;
  ngDialog.querySelector(`input[name="ng-first"][value="${colorName(game.first)}"]`).checked = true;
  ngDialog.querySelector(`input[name="ng-rule"][value="${game.rule}"]`).checked = true;
  $("#ng-level").value = game.level;
  ngDialog.showModal();
});
$("#ng-cancel").addEventListener("click", () => ngDialog.close());
$("#ng-start").addEventListener("click", () => {
  const val = (name) => ngDialog.querySelector(`input[name="${name}"]:checked`).value;
  ngDialog.close();
  const level = LEVELS[$("#ng-level").value] !== undefined ? $("#ng-level").value : DEFAULT_LEVEL;
  newGame({
    human: val("ng-side") === "2" ? WHITE : BLACK,
    first: val("ng-first") === "white" ? WHITE : BLACK,
    rule: RULES.includes(val("ng-rule")) ? val("ng-rule") : "freestyle",
    level,
  });
});

// ---- records -------------------------------------------------------------------------

const recDialog = $("#records-dialog");
const recMsg = $("#record-msg");

function shareLink() {
  const url = new URL(location.href);
  url.search = "";
  url.hash = toFragment({ moves: shown(), size: SIZE, rule: game.rule, first: colorName(game.first) });
  return url.href;
}

function fillRecords() {
  $("#record-text").value = formatMoves(game.moves, SIZE);
  $("#share-link").value = shareLink();
  recMsg.textContent = "";
  const list = $("#history-list");
  list.textContent = "";
  if (!history.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("noHistory");
    list.append(li);
  }
  history.slice().reverse().forEach((h) => {
    const li = document.createElement("li");
    const n = h.moves.split(" ").filter(Boolean).length;
    const label = document.createElement("span");
    label.textContent = `${h.date.slice(0, 16).replace("T", " ")} · ${t("res_" + h.result)} · ${n} · ${t("rule_" + h.rule)}`;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t("load");
    b.addEventListener("click", () => {
      try {
        loadRecord(parseMoves(h.moves, SIZE, h.rule), { rule: h.rule, first: h.first });
        recDialog.close();
      } catch (err) {
        recMsg.textContent = t("importBad", { err: err.message });
      }
    });
    li.append(label, b);
    list.append(li);
  });
}

async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    recMsg.textContent = t("copied");
  } catch {
    input.focus();
    input.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    recMsg.textContent = ok ? t("copied") : t("copyFailed");
  }
}

function importMoves(parse) {
  try {
    const moves = parse();
    loadRecord(moves);
    fillRecords();
    recMsg.textContent = t("imported", { n: moves.length });
    announce(t("imported", { n: moves.length }));
  } catch (err) {
    recMsg.textContent = t("importBad", { err: err.message });
  }
}

$("#records").addEventListener("click", () => {
  fillRecords();
  recDialog.showModal();
});
$("#records-close").addEventListener("click", () => recDialog.close());
$("#record-load").addEventListener("click", () => importMoves(() => parseMoves($("#record-text").value, SIZE, game.rule)));
$("#record-copy").addEventListener("click", () => copyText($("#record-text").value, $("#record-text")));
$("#share-copy").addEventListener("click", () => copyText($("#share-link").value, $("#share-link")));
$("#psq-export").addEventListener("click", () => {
  const blob = new Blob([toPsq(game.moves, SIZE)], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `gomoku-${new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "")}.psq`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
});
$("#psq-import").addEventListener("click", () => $("#psq-file").click());
$("#psq-file").addEventListener("change", async (ev) => {
  const file = ev.target.files && ev.target.files[0];
  ev.target.value = "";
  if (!file) return;
  if (file.size > 200000) { recMsg.textContent = t("importBad", { err: "the file is too large" }); return; }
  const text = await file.text();
  importMoves(() => parsePsq(text, SIZE, game.rule));
});

// A share link (#moves=h8,i9&rule=freestyle&size=15) opens that position.
function openFragment() {
  let link;
  try {
    link = parseFragment(location.hash, SIZE);
  } catch (err) {
    notice(t("badLink", { err: err.message }), "warn");
    history_replace();
    return false;
  }
  if (!link) return false;
  analysing = false;
  loadRecord(link.moves, { rule: link.rule, first: link.first === "white" ? WHITE : BLACK });
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
        engine: engine.state, restarts: engine.restarts, thinking: !!(job && job.kind === "move"),
        job: job ? job.kind : null, analysing, info: lastInfo ? { ...lastInfo } : null,
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
