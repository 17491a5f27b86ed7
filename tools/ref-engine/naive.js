#!/usr/bin/env node
'use strict';
/*
 * A naive Gomocup brain for sanity checks of the reference engine: it makes five when it
 * can, blocks the opponent's five when it must, and otherwise plays a random empty cell
 * next to a stone (seeded by --seed N, default 1).
 *   node tools/ref-engine/naive.js [--seed N]
 */

const readline = require('readline');
const { Board, C_FIVE } = require('./engine.js');

const seedArg = process.argv.indexOf('--seed');
let seed = seedArg > 0 ? Number(process.argv[seedArg + 1]) >>> 0 : 1;
const rand = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 4294967296;
};

let board = null;
let boardLines = null;
const out = (s) => process.stdout.write(s + '\n');

function move() {
  const b = board;
  let m = b.firstCell(1, C_FIVE);
  if (m < 0) m = b.firstCell(2, C_FIVE);
  if (m < 0) {
    const cand = b.onBoard.filter((i) => b.cells[i] === 0 && (b.stones === 0 || b.near[i]));
    const adjacent = cand.filter((i) => b.dirs.some((s) => b.cells[i + s] === 1 || b.cells[i + s] === 2 || b.cells[i - s] === 1 || b.cells[i - s] === 2));
    const pool = adjacent.length ? adjacent : cand;
    m = pool[Math.floor(rand() * pool.length)];
  }
  b.play(m, 1);
  const [x, y] = b.xy(m);
  out(`${x},${y}`);
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  const text = line.trim();
  if (boardLines) {
    if (text.toUpperCase() === 'DONE') {
      board = new Board(board.size);
      for (const [x, y, f] of boardLines) board.play(board.idx(x, y), f === 1 ? 1 : 2);
      boardLines = null;
      move();
    } else if (text) {
      const [x, y, f] = text.split(',').map(Number);
      boardLines.push([x, y, f]);
    }
    return;
  }
  const [cmd, arg = ''] = text.split(/\s+/, 2);
  switch ((cmd || '').toUpperCase()) {
    case 'START':
      board = new Board(Number(arg));
      out('OK');
      break;
    case 'RESTART':
      board = new Board(board.size);
      out('OK');
      break;
    case 'BEGIN':
      move();
      break;
    case 'TURN': {
      const [x, y] = arg.split(',').map(Number);
      board.play(board.idx(x, y), 2);
      move();
      break;
    }
    case 'BOARD':
      boardLines = [];
      break;
    case 'ABOUT':
      out('name="naive-js", version="1.0", author="gomoku-engine project", country="-"');
      break;
    case 'END':
      process.exit(0);
      break;
    case 'INFO':
    case '':
      break;
    default:
      out(`UNKNOWN ${cmd}`);
  }
});
rl.on('close', () => process.exit(0));
