#!/usr/bin/env node
'use strict';
/*
 * Gomocup (pbrain) protocol front end of the reference engine:
 *   node tools/ref-engine/pbrain.js [--profile full|tutorial]
 *
 * Commands: START n, RESTART, BEGIN, TURN x,y, BOARD ... DONE, TAKEBACK x,y,
 * INFO key value (timeout_turn, timeout_match, time_left, rule, ...), ABOUT, END.
 * Answers: OK, a move "x,y", ERROR <reason>, UNKNOWN <reason>; MESSAGE lines carry search
 * information. Freestyle rule only (five or more wins). The brain always plays colour 1
 * internally; the opponent is colour 2.
 */

const readline = require('readline');
const { Board } = require('./engine.js');
const { Searcher, TranspositionTable, TT_BITS, PROFILES } = require('./search.js');

function about(profile) {
  const name = profile === 'full' ? 'ref-js-abvct' : `ref-js-abvct-${profile}`;
  return `name="${name}", version="1.0", author="gomoku-engine project (reference opponent)", country="-"`;
}
const DEFAULT_TIMEOUT_TURN = 5000;
const MIN_SIZE = 5;
const MAX_SIZE = 32;

/** Think-time budget in ms from the Gomocup time settings. */
function budgetMs(t, stones, cells) {
  let turn = t.timeoutTurn;
  if (turn <= 0) return 30; // "as fast as possible"
  // Safety margin for the pipe, garbage collection and the scheduler of a busy machine.
  const margin = Math.min(300, 50 + Math.floor(turn * 0.1));
  let budget = turn - margin;
  if (t.timeoutMatch > 0 && t.timeLeft !== null && t.timeLeft < 2147483647) {
    const movesToGo = Math.max(8, Math.min(30, Math.floor((cells - stones) / 2)));
    budget = Math.min(budget, Math.floor(t.timeLeft / movesToGo) - 30);
  }
  return Math.max(15, budget);
}

class Brain {
  /** `profile`: search parameters, a key of search.js PROFILES. */
  constructor(write, profile = 'full') {
    if (!PROFILES[profile]) throw new Error(`unknown profile '${profile}'`);
    this.profile = profile;
    this.write = write;
    this.board = null;
    this.searcher = null;
    this.tt = null;
    this.size = 0;
    this.times = { timeoutTurn: DEFAULT_TIMEOUT_TURN, timeoutMatch: 0, timeLeft: null };
    this.boardLines = null;
    this.finished = false;
  }

  newGame(size) {
    this.size = size;
    this.board = new Board(size);
    // One 2^20-slot table for the whole session: cleared, not reallocated, per game.
    if (!this.tt) this.tt = new TranspositionTable(TT_BITS);
    else this.tt.clear();
    this.searcher = new Searcher(this.board, this.tt, this.profile);
  }

  parsePoint(text) {
    const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(text);
    if (!m) throw new Error(`malformed coordinates '${text}'`);
    const x = Number(m[1]);
    const y = Number(m[2]);
    if (x < 0 || y < 0 || x >= this.size || y >= this.size) throw new Error(`coordinates ${x},${y} are off the board`);
    return [x, y];
  }

  needGame(cmd) {
    if (!this.board) throw new Error(`${cmd} before START`);
  }

  think() {
    const b = this.board;
    if (b.stones >= this.size * this.size) throw new Error('the board is full');
    let move = -1;
    try {
      const budget = budgetMs(this.times, b.stones, this.size * this.size);
      const r = this.searcher.think(1, budget);
      move = r.move;
      const parts = [`source ${r.source}`, `time ${r.time}ms`, `budget ${budget}ms`];
      if (r.depth !== undefined) parts.push(`depth ${r.depth} score ${r.score} nodes ${r.nodes}`);
      this.write(`MESSAGE ${parts.join(' ')}`);
    } catch (err) {
      this.write(`MESSAGE internal error: ${String(err && err.message).replace(/\s+/g, ' ')}`);
    }
    if (move < 0 || b.cells[move] !== 0) move = this.fallback();
    b.play(move, 1);
    const [x, y] = b.xy(move);
    this.write(`${x},${y}`);
  }

  /** Any legal move: the empty cell nearest the last move (or the centre). */
  fallback() {
    const b = this.board;
    const last = b.history.length ? b.xy(b.history[b.history.length - 1]) : [this.size >> 1, this.size >> 1];
    let best = -1;
    let bestD = Infinity;
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        const i = b.idx(x, y);
        const d = Math.max(Math.abs(x - last[0]), Math.abs(y - last[1]));
        if (b.cells[i] === 0 && d < bestD) {
          best = i;
          bestD = d;
        }
      }
    }
    return best;
  }

  info(arg) {
    const m = /^(\S+)\s*(.*)$/.exec(arg);
    if (!m) return;
    const key = m[1].toLowerCase();
    const value = m[2].trim();
    const num = /^[+-]?\d+$/.test(value) ? Number(value) : null;
    if (key === 'timeout_turn' && num !== null) this.times.timeoutTurn = num;
    else if (key === 'timeout_match' && num !== null) this.times.timeoutMatch = num;
    else if (key === 'time_left' && num !== null) this.times.timeLeft = num;
    else if (key === 'rule' && num !== null && (num & ~2) !== 0) {
      this.write('MESSAGE only the freestyle rule is supported (five or more wins); playing freestyle');
    }
  }

  boardLine(line) {
    const text = line.trim();
    if (!text) return;
    if (text.toUpperCase() === 'DONE') {
      const stones = this.boardLines;
      this.boardLines = null;
      this.newGame(this.size);
      for (const [x, y, f] of stones) {
        if (f === 3) continue; // continuous-game stones are not supported
        const i = this.board.idx(x, y);
        if (this.board.cells[i] !== 0) throw new Error(`BOARD gives cell ${x},${y} twice`);
        this.board.play(i, f === 1 ? 1 : 2);
      }
      this.think();
      return;
    }
    const parts = text.split(',');
    if (parts.length !== 3) throw new Error(`malformed BOARD line '${text}'`);
    const [x, y] = this.parsePoint(`${parts[0]},${parts[1]}`);
    const f = Number(parts[2]);
    if (![1, 2, 3].includes(f)) throw new Error(`bad BOARD field '${parts[2].trim()}'`);
    this.boardLines.push([x, y, f]);
  }

  handle(line) {
    try {
      this.dispatch(line);
    } catch (err) {
      this.write(`ERROR ${String(err && err.message).replace(/\s+/g, ' ')}`);
    }
    return !this.finished;
  }

  dispatch(line) {
    if (this.boardLines !== null) {
      this.boardLine(line);
      return;
    }
    const text = line.trim();
    if (!text) return;
    const sp = text.search(/\s/);
    const cmd = (sp < 0 ? text : text.slice(0, sp)).toUpperCase();
    const arg = sp < 0 ? '' : text.slice(sp + 1).trim();
    switch (cmd) {
      case 'START': {
        const n = /^\d+$/.test(arg) ? Number(arg) : NaN;
        if (!(n >= MIN_SIZE && n <= MAX_SIZE)) throw new Error(`unsupported board size '${arg}'`);
        this.newGame(n);
        this.write('OK');
        return;
      }
      case 'RESTART':
        this.needGame(cmd);
        this.newGame(this.size);
        this.write('OK');
        return;
      case 'BEGIN':
        this.needGame(cmd);
        if (this.board.stones) throw new Error('BEGIN on a board that is not empty');
        this.think();
        return;
      case 'TURN': {
        this.needGame(cmd);
        const [x, y] = this.parsePoint(arg);
        const i = this.board.idx(x, y);
        if (this.board.cells[i] !== 0) throw new Error(`cell ${x},${y} is occupied`);
        this.board.play(i, 2);
        this.think();
        return;
      }
      case 'BOARD':
        this.needGame(cmd);
        this.boardLines = [];
        return;
      case 'TAKEBACK': {
        this.needGame(cmd);
        const [x, y] = this.parsePoint(arg);
        const i = this.board.idx(x, y);
        const b = this.board;
        if (b.cells[i] === 0) throw new Error(`cell ${x},${y} is empty`);
        if (b.history[b.history.length - 1] === i) {
          b.undo();
        } else {
          // Not the last move: rebuild the position without that stone.
          const stones = b.history.map((c) => [c, b.cells[c]]).filter(([c]) => c !== i);
          this.newGame(this.size);
          for (const [c, p] of stones) this.board.play(c, p);
        }
        this.write('OK');
        return;
      }
      case 'INFO':
        this.info(arg);
        return;
      case 'ABOUT':
        this.write(about(this.profile));
        return;
      case 'END':
        this.finished = true;
        return;
      default:
        this.write(`UNKNOWN command '${cmd}'`);
    }
  }
}

function main() {
  const write = (s) => process.stdout.write(s + '\n');
  const at = process.argv.indexOf('--profile');
  const profile = at > 0 ? process.argv[at + 1] : 'full';
  if (!PROFILES[profile]) {
    process.stderr.write(`unknown --profile '${profile}' (one of: ${Object.keys(PROFILES).join(', ')})\n`);
    process.exit(2);
  }
  const brain = new Brain(write, profile);
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on('line', (line) => {
    if (!brain.handle(line)) {
      rl.close();
      process.exit(0);
    }
  });
  rl.on('close', () => process.exit(0));
}

if (require.main === module) main();

module.exports = { Brain, budgetMs };
