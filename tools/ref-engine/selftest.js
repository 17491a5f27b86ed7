#!/usr/bin/env node
'use strict';
/*
 * Self-checks of the reference engine's board and threat search:
 *   node tools/ref-engine/selftest.js     (prints "selftest ok", exit status 0 on success)
 * 1. line shapes of hand-made lines;
 * 2. incremental play/undo state equals a board rebuilt from the same stones;
 * 3. VCF: finds a forced win by fours, and every line it claims is checked by replaying
 *    the defender's only replies.
 */

const E = require('./engine.js');
const { Searcher } = require('./search.js');

let failures = 0;
function check(cond, what) {
  if (!cond) {
    failures++;
    console.log('FAIL ' + what);
  }
}

/** Shape for player 1 at the '*' of a line like "..XX*X.." (X own, O opponent/wall). */
function shapeOf(line) {
  const b = new E.Board(15);
  const y = 7;
  const star = line.indexOf('*');
  const x0 = 7 - star;
  for (let k = 0; k < line.length; k++) {
    const ch = line[k];
    if (ch === 'X') b.play(b.idx(x0 + k, y), 1);
    else if (ch === 'O') b.play(b.idx(x0 + k, y), 2);
  }
  return E.SHAPE_NAMES[b.shapes[0 * b.SS + b.idx(7, y)]];
}

const cases = [
  ['.XX*XX.', 'five'],
  ['OXXX*XO', 'five'],
  ['..XX*X...', 'flex4'],
  ['O.XX*X.O', 'flex4'],
  ['OXXX*.O', 'block4'],
  ['.X.X*X.', 'block4'],
  ['...X*X...', 'flex3'],
  ['..X.*X...', 'flex3'],
  ['OXX*....', 'block3'],
  ['O.X*X.O', 'block3'],
  ['...*X....', 'flex2'],
  ['O*X.....', 'block2'],
  ['O..*..O', 'one'],
  ['O.*..O', 'none'],
  ['....*....', 'one'],
];
for (const [line, want] of cases) {
  const got = shapeOf(line);
  check(got === want, `shape ${line}: got ${got}, want ${want}`);
}

// Incremental state vs rebuild.
let seed = 12345;
const rand = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
};
function sameState(a, b) {
  for (const f of ['codes', 'shapes', 'near', 'classCount']) {
    for (let i = 0; i < a[f].length; i++) if (a[f][i] !== b[f][i]) return f;
  }
  for (const f of ['score', 'cls']) {
    for (let i = 0; i < a[f].length; i++) {
      if (a.cells[i % a.SS] === E.EMPTY && a[f][i] !== b[f][i]) return f;
    }
  }
  if (a.evalTotal.join() !== b.evalTotal.join()) return 'evalTotal';
  if (a.hashLo !== b.hashLo || a.hashHi !== b.hashHi) return 'hash';
  return null;
}
for (let game = 0; game < 100; game++) {
  const n = 15;
  const b = new E.Board(n);
  for (let step = 0; step < 90; step++) {
    if (b.history.length && rand(4) === 0) b.undo();
    else {
      let i;
      do i = b.idx(rand(n), rand(n));
      while (b.cells[i] !== E.EMPTY);
      b.play(i, 1 + rand(2));
    }
  }
  const f = new E.Board(n);
  for (const c of b.history) f.play(c, b.cells[c]);
  const bad = sameState(b, f);
  check(bad === null, `incremental state differs from a rebuild (game ${game}: ${bad})`);
  for (const i of b.onBoard) {
    for (let d = 0; d < 4; d++) {
      for (let p = 1; p <= 2; p++) {
        if (b.shapes[((p - 1) * 4 + d) * b.SS + i] !== b.lineShape(i, p, d)) {
          check(false, `shape of cell ${i} dir ${d} differs from a direct scan`);
        }
      }
    }
  }
}

// VCF: X has a chain of fours ending in a double four.
{
  const b = new E.Board(15);
  const s = new Searcher(b);
  const put = (p, list) => list.forEach(([x, y]) => b.play(b.idx(x, y), p));
  // Two blocked threes crossing at (7,7): playing it makes a double four.
  put(1, [[4, 7], [5, 7], [6, 7], [7, 4], [7, 5], [7, 6]]);
  put(2, [[3, 7], [7, 3], [12, 12], [12, 11], [11, 12], [0, 14]]);
  const m = s.vcx(1, true, 12, performance.now() + 2000);
  check(m === b.idx(7, 7), `VCF double four: got ${m >= 0 ? b.xy(m) : m}`);
  // The defender (O) has no VCF here.
  check(s.vcx(2, true, 12, performance.now() + 2000) === -1, 'no VCF for O');
}

// Claimed VCFs on random positions: replay them (defender replies are forced).
function replayVcf(b, s, a, depth) {
  // Returns true if attacker a, to move, wins by the moves the search reports.
  for (let k = 0; k < 40; k++) {
    if (b.count(a, E.C_FIVE)) return true;
    const m = s.vcx(a, true, depth, performance.now() + 1000);
    if (m < 0) return false;
    b.play(m, a);
    if (b.count(a, E.C_FIVE) >= 2 && !b.count(3 - a, E.C_FIVE)) return true;
    if (b.count(3 - a, E.C_FIVE)) return false; // a four of the defender was left open
    const block = b.firstCell(a, E.C_FIVE);
    if (block < 0) return false; // not a four
    b.play(block, 3 - a);
  }
  return false;
}
let claimed = 0;
for (let t = 0; t < 300 && claimed < 20; t++) {
  const b = new E.Board(15);
  const s = new Searcher(b);
  for (let k = 0; k < 24; k++) {
    let i;
    do i = b.idx(3 + rand(9), 3 + rand(9));
    while (b.cells[i] !== E.EMPTY);
    b.play(i, 1 + (k % 2));
  }
  if (b.count(1, E.C_FIVE) || b.count(2, E.C_FIVE)) continue;
  if (s.vcx(1, true, 12, performance.now() + 1000) < 0) continue;
  claimed++;
  check(replayVcf(b, s, 1, 12), `claimed VCF does not replay (position ${t})`);
}
check(claimed > 0, 'no VCF found in random positions');

if (failures) {
  console.log(`selftest: ${failures} failure(s)`);
  process.exit(1);
}
console.log(`selftest ok (${cases.length} shapes, 100 play/undo games, ${claimed} VCFs replayed)`);
