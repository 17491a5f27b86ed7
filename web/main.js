// The page: game state (kept here and in localStorage), UI, and the engine client.
import { BoardView, cellText } from "./board.js";
import { EngineClient, EngineTimeout } from "./engine-client.js";

const SIZE = 15;
const RULE = "freestyle";
const STORAGE_KEY = "gomoku.game.v1";
const LEVELS = { fast: 500, normal: 1500, strong: 4000 };
const BLACK = 1, WHITE = 2;

const params = new URLSearchParams(location.search);
const TEST_MODE = params.get("test") === "1";

function intParam(name, lo, hi) {
  const v = Number.parseInt(params.get(name) ?? "", 10);
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : null;
}
// ?time=ms overrides the level's think time; ?deadline=ms the hard per-move deadline.
const TIME_OVERRIDE = intParam("time", 20, 60000);
const DEADLINE_OVERRIDE = intParam("deadline", 500, 600000);

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
const retryBtn = $("#retry");
const sideSel = $("#side");
const levelSel = $("#level");

const view = new BoardView(canvas, SIZE);

// ---- game state -------------------------------------------------------------------

let game = loadGame() || freshGame(BLACK, "normal");
let thinking = null; // {token} while a think request is out
let thinkToken = 0;
let retries = 0;
let engineError = null;

function freshGame(human, level) {
  return { size: SIZE, rule: RULE, human, level, moves: [], winner: 0, line: [], draw: false };
}

function loadGame() {
  try {
    const g = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    if (!g || g.size !== SIZE || !Array.isArray(g.moves)) return null;
    const seen = new Set();
    for (const m of g.moves) {
      if (!Array.isArray(m) || m.length !== 2 || !m.every((v) => Number.isInteger(v) && v >= 0 && v < SIZE)) return null;
      if (seen.has(m.join())) return null;
      seen.add(m.join());
    }
    const fresh = freshGame(g.human === WHITE ? WHITE : BLACK, LEVELS[g.level] ? g.level : "normal");
    fresh.moves = g.moves;
    replayResult(fresh);
    return fresh;
  } catch {
    return null;
  }
}

function saveGame() {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({
      size: game.size, rule: game.rule, human: game.human, level: game.level, moves: game.moves,
    }));
  } catch { /* storage full or disabled: the game still works */ }
}

const sideToMove = (g) => (g.moves.length % 2 === 0 ? BLACK : WHITE);
const isOver = (g) => g.winner !== 0 || g.draw;
const colorName = (c) => (c === BLACK ? "black" : "white");

// Five or more in a row through (x, y) for the stone colour there (freestyle).
function fiveThrough(stones, x, y, color) {
  for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    const line = [[x, y]];
    for (const sgn of [1, -1]) {
      let cx = x + sgn * dx, cy = y + sgn * dy;
      while (cx >= 0 && cy >= 0 && cx < SIZE && cy < SIZE && stones.get(cx + "," + cy) === color) {
        line.push([cx, cy]);
        cx += sgn * dx; cy += sgn * dy;
      }
    }
    if (line.length >= 5) return line.sort((a, b) => (a[0] - b[0]) || (a[1] - b[1]));
  }
  return null;
}

function stoneMap(moves) {
  const m = new Map();
  moves.forEach(([x, y], i) => m.set(x + "," + y, i % 2 === 0 ? BLACK : WHITE));
  return m;
}

function replayResult(g) {
  g.winner = 0; g.line = []; g.draw = false;
  const stones = new Map();
  g.moves.forEach(([x, y], i) => {
    const color = i % 2 === 0 ? BLACK : WHITE;
    stones.set(x + "," + y, color);
    if (!g.winner) {
      const line = fiveThrough(stones, x, y, color);
      if (line) { g.winner = color; g.line = line; g.moves = g.moves.slice(0, i + 1); }
    }
  });
  if (!g.winner && g.moves.length === SIZE * SIZE) g.draw = true;
}

function addMove(x, y) {
  game.moves.push([x, y]);
  const stones = stoneMap(game.moves);
  const line = fiveThrough(stones, x, y, stones.get(x + "," + y));
  if (line) { game.winner = stones.get(x + "," + y); game.line = line; }
  else if (game.moves.length === SIZE * SIZE) game.draw = true;
  saveGame();
}

// ---- rendering --------------------------------------------------------------------

function statusOf() {
  if (game.winner) return [`${colorName(game.winner)}-wins`, `${colorName(game.winner)} wins`];
  if (game.draw) return ["draw", "draw — the board is full"];
  if (engineError) return ["error", "engine error"];
  const humanToMove = !thinking && sideToMove(game) === game.human;
  if (engine.state !== "ready") {
    // the first move need not wait for the engine
    if (humanToMove && !engine.restarts) return ["your-turn", "your turn (engine loading...)"];
    return ["loading", engine.restarts ? "restarting engine..." : "loading engine..."];
  }
  if (thinking) return ["thinking", "thinking..."];
  if (humanToMove) return ["your-turn", "your turn"];
  return ["thinking", "thinking..."];
}

function render() {
  view.setPosition(game.moves);
  view.winningLine = game.line;
  view.draw();
  const [code, text] = statusOf();
  canvas.dataset.moves = game.moves.map(([x, y]) => cellText(x, y, SIZE)).join(" ");
  canvas.dataset.status = code;
  canvas.dataset.engine = engine.state;
  document.body.dataset.status = code;
  statusEl.textContent = text.charAt(0).toUpperCase() + text.slice(1);
  statusEl.dataset.status = code;
  const you = colorName(game.human);
  let line = `You play ${you}${game.human === BLACK ? " and move first" : ""}.`;
  if (game.winner) line = game.winner === game.human ? "You win — well played!" : "The engine wins this one.";
  else if (game.draw) line = "Nobody wins this one.";
  if (isOver(game)) line += " Press New game to play again.";
  $("#you-are").textContent = line;
  undoBtn.disabled = !!thinking || game.moves.length === 0 || engine.state !== "ready";
  retryBtn.hidden = !engineError;
  sideSel.value = String(game.human);
  levelSel.value = game.level;
  renderMoveList();
  updateCursorLabel();
}

function renderMoveList() {
  const items = [];
  for (let i = 0; i < game.moves.length; i += 2) {
    const b = cellText(...game.moves[i], SIZE);
    const w = game.moves[i + 1] ? cellText(...game.moves[i + 1], SIZE) : "";
    items.push(`<li><span class="n">${i / 2 + 1}.</span><span>${b}</span><span>${w}</span></li>`);
  }
  moveListEl.innerHTML = items.join("");
  moveListEl.scrollTop = moveListEl.scrollHeight;
}

function announce(text) {
  announceEl.textContent = text;
}

function notice(text, kind = "info") {
  noticeEl.textContent = text || "";
  noticeEl.dataset.kind = kind;
}

// ---- engine -----------------------------------------------------------------------

const workerUrl = new URL("worker.js", location.href);
if (TEST_MODE) workerUrl.searchParams.set("test", "1");

const engine = new EngineClient({
  workerUrl: workerUrl.href,
  onState(state, detail) {
    if (state === "ready") {
      const ms = detail.pageLoadMs;
      engineInfoEl.textContent = `Engine ${detail.version} ready in ${(ms / 1000).toFixed(1)} s (Pyodide ${detail.pyodide}).`;
      canvas.dataset.loadMs = String(ms);
      console.info("engine ready", JSON.stringify({ pageLoadMs: ms, workerMs: detail.loadMs, phases: detail.phases }));
      if (engine.restarts) notice("The engine was restarted. Play on.", "info");
      window.setTimeout(maybeEngineMove, 0);
    } else if (state === "failed") {
      engineError = detail;
      notice(`The engine could not be started: ${detail}. Reload the page to try again.`, "error");
    }
    render();
  },
});

function kilo(n) {
  n = Number(n) || 0;
  return n >= 1000 ? (n / 1000).toFixed(1) + "k" : String(Math.round(n));
}

function thinkMs() {
  return TIME_OVERRIDE ?? LEVELS[game.level] ?? LEVELS.normal;
}

function deadlineMs() {
  // Generous: the engine stops itself at about thinkMs; this only catches a stuck worker.
  return DEADLINE_OVERRIDE ?? thinkMs() * 3 + 10000;
}

async function maybeEngineMove() {
  if (thinking || isOver(game) || engineError) return;
  if (sideToMove(game) === game.human || engine.state !== "ready") return;
  const token = ++thinkToken;
  thinking = { token };
  render();
  const started = performance.now();
  try {
    const reply = await engine.request(
      { type: "think", size: SIZE, rule: RULE, moves: game.moves, limits: { timeMs: thinkMs() } },
      {
        deadlineMs: deadlineMs(),
        onInfo(info) {
          if (token !== thinkToken) return;
          engineInfoEl.textContent = `Thinking: depth ${info.depth} · ${info.score_text ?? info.score} · ` +
            `${kilo(info.nps)} nodes/s`;
        },
      },
    );
    if (token !== thinkToken) return; // a new game started meanwhile
    thinking = null;
    if (reply.type !== "result") throw new Error(reply.message || "unexpected reply " + reply.type);
    const [x, y] = reply.move;
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= SIZE || y >= SIZE ||
        stoneMap(game.moves).has(x + "," + y)) {
      throw new Error("the engine proposed an illegal move " + JSON.stringify(reply.move));
    }
    retries = 0;
    addMove(x, y);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    engineInfoEl.textContent = `${cellText(x, y, SIZE)} · depth ${reply.depth} · ` +
      `${reply.score_text ?? reply.score} · ${kilo(reply.nps)} nodes/s · ${secs} s`;
    announce(`Engine plays ${cellText(x, y, SIZE)}.` + resultSentence());
    notice("");
  } catch (err) {
    if (token !== thinkToken) return;
    thinking = null;
    if (err instanceof EngineTimeout && retries < 2) {
      retries += 1;
      notice("The engine took too long and was restarted. It will move as soon as it is back.", "warn");
      // the client already started a fresh worker; its ready state triggers maybeEngineMove
    } else {
      engineError = String(err.message || err);
      notice(`Engine problem: ${engineError}. Press Retry engine to continue.`, "error");
    }
  }
  render();
}

function resultSentence() {
  if (game.winner) return ` ${colorName(game.winner) === "black" ? "Black" : "White"} wins.`;
  if (game.draw) return " The game is a draw.";
  return "";
}

// ---- input ------------------------------------------------------------------------

function humanPlay(x, y) {
  if (isOver(game)) { announce("The game is over. Start a new game."); return false; }
  if (thinking || sideToMove(game) !== game.human || engineError) {
    announce("Wait for the engine.");
    return false;
  }
  if (stoneMap(game.moves).has(x + "," + y)) {
    announce(`${cellText(x, y, SIZE)} is taken.`);
    return false;
  }
  addMove(x, y);
  announce(`You play ${cellText(x, y, SIZE)}.` + resultSentence());
  render();
  maybeEngineMove();
  return true;
}

canvas.addEventListener("click", (ev) => {
  const cell = view.cellAt(ev.clientX, ev.clientY);
  if (!cell) return;
  view.cursor = cell;
  humanPlay(...cell);
});

canvas.addEventListener("pointermove", (ev) => {
  if (ev.pointerType !== "mouse") return;
  const cell = view.cellAt(ev.clientX, ev.clientY);
  const playable = cell && !isOver(game) && !thinking && !engineError && sideToMove(game) === game.human;
  const next = playable ? cell : null;
  if (String(next) !== String(view.hover)) {
    view.hover = next;
    view.hoverColor = game.human;
    view.draw();
  }
});
canvas.addEventListener("pointerleave", () => { view.hover = null; view.draw(); });

view.cursor = [(SIZE - 1) / 2, (SIZE - 1) / 2];

function updateCursorLabel() {
  const [x, y] = view.cursor;
  const color = stoneMap(game.moves).get(x + "," + y);
  const what = color ? `${colorName(color)} stone` : "empty";
  canvas.setAttribute("aria-label", `Gomoku board, 15 by 15. Cursor on ${cellText(x, y, SIZE)}, ${what}. ` +
    "Arrow keys move, Enter or Space places a stone.");
  return `${cellText(x, y, SIZE)}, ${what}`;
}

canvas.addEventListener("keydown", (ev) => {
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[ev.key]) {
    ev.preventDefault();
    const [dx, dy] = moves[ev.key];
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

newGameBtn.addEventListener("click", () => {
  const level = game.level;
  game = freshGame(Number(sideSel.value) === WHITE ? WHITE : BLACK, level);
  thinkToken += 1; // forget any search still running
  thinking = null;
  saveGame();
  notice("");
  announce(`New game. You play ${colorName(game.human)}.`);
  engineInfoEl.textContent = "";
  render();
  maybeEngineMove();
});

sideSel.addEventListener("change", () => {
  if (game.moves.length === 0) newGameBtn.click();
  else notice("The new side applies from the next game (press New game).", "info");
});

levelSel.addEventListener("change", () => {
  game.level = LEVELS[levelSel.value] ? levelSel.value : "normal";
  saveGame();
});

undoBtn.addEventListener("click", () => {
  if (thinking || game.moves.length === 0) return;
  // Take back the engine's reply (if any) and the human's last move.
  const humanParity = game.human === BLACK ? 0 : 1;
  let n = game.moves.length;
  if (n > 0 && (n - 1) % 2 !== humanParity) n -= 1;
  if (n > 0) n -= 1;
  game.moves = game.moves.slice(0, n);
  replayResult(game);
  saveGame();
  announce("Move taken back.");
  render();
  maybeEngineMove();
});

retryBtn.addEventListener("click", () => {
  engineError = null;
  retries = 0;
  notice("");
  engine.restart();
  render();
});

// ---- layout -----------------------------------------------------------------------

const resizeObserver = new ResizeObserver(() => view.resize());
resizeObserver.observe(canvas);
window.addEventListener("resize", () => view.resize());

// ---- test hooks (only with ?test=1) -------------------------------------------------

if (TEST_MODE) {
  window.gomokuTest = {
    hang() { engine.postRaw({ type: "debug-hang" }); },
    send(data, id = null, deadlineMs = 30000) { return engine.rawRequest(data, id, deadlineMs); },
    state() {
      return { game: structuredClone(game), engine: engine.state, restarts: engine.restarts, thinking: !!thinking };
    },
  };
}

render();
view.resize();
engine.start();
