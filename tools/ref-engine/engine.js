'use strict';
/*
 * Reference Gomoku engine (freestyle: five or more in a row wins), written for this
 * project as a stand-in for the popular "alpha-beta + VCT" tutorial kind of JavaScript
 * engine. See README.md in this folder for the design.
 *
 * Conventions: the board is a padded 1-D array (PAD wall cells on every side), cell index
 * i = (y + PAD) * S + (x + PAD) with S = size + 2 * PAD. Colours are 1 and 2 (the brain
 * always plays colour 1); 0 is empty, 3 is the wall.
 */

const EMPTY = 0;
const WALL = 3;
const PAD = 4;

// Line shapes of one direction, seen from a cell as if the player put a stone there.
const S_NONE = 0; // no room for a five in this direction
const S_ONE = 1;
const S_BLOCK2 = 2;
const S_FLEX2 = 3;
const S_BLOCK3 = 4;
const S_FLEX3 = 5; // can become an open four ("live three")
const S_BLOCK4 = 6; // one way to make five
const S_FLEX4 = 7; // two ways to make five ("live four")
const S_FIVE = 8;
const SHAPE_NAMES = ['none', 'one', 'block2', 'flex2', 'block3', 'flex3', 'block4', 'flex4', 'five'];

// Cell classes: the four directions combined.
const C_NONE = 0;
const C_LOW = 1; // ones and blocked twos
const C_MID = 2; // open two or blocked three somewhere
const C_FLEX3 = 3; // makes one open three
const C_33 = 4; // makes two open threes
const C_BLOCK4 = 5; // makes a four (no open three with it)
const C_43 = 6; // makes a four and an open three
const C_FLEX4 = 7; // makes an open four or two fours: wins unless the opponent has a four
const C_FIVE = 8; // makes five
const CLASS_NAMES = ['none', 'low', 'mid', 'flex3', '3-3', 'block4', '4-3', 'flex4', 'five'];

const SHAPE_POINTS = [0, 2, 10, 60, 70, 600, 700, 20000, 2000000];
const BONUS_44 = 20000;
const BONUS_43 = 8000;
const BONUS_33 = 3000;
const EVAL_CAP = 3000; // a single cell adds at most this to a side's evaluation total

const WIN = 1000000000;
const WIN_THRESHOLD = WIN - 1000;

// ------------------------------------------------------------------------------------
// Pattern tables

/**
 * Shape of every 9-cell line (4 cells on each side of the centre, the centre holding the
 * player's stone). Each side cell is 0 empty, 1 own, 2 blocked (opponent or wall), and the
 * code is sum(v_j * 3^j) over j = 0..7 for the offsets -4..-1, +1..+4.
 * Definitions (runs always pass through the centre):
 *   five   - a run of five or more;
 *   flex4  - two or more empty cells complete a five; block4 - exactly one;
 *   flex3  - some empty cell makes a flex4; block3 - some empty cell makes a block4;
 *   flex2  - some empty cell makes a flex3; block2 - some empty cell makes a block3;
 *   one    - there is room for a five; none - there is not.
 */
function buildShapeTable() {
  const table = new Uint8Array(6561);
  const memo = new Int8Array(6561).fill(-1);
  const L = new Int8Array(9);
  const encode = () => {
    let code = 0;
    let m = 1;
    for (let j = 0; j < 8; j++) {
      code += L[j < 4 ? j : j + 1] * m;
      m *= 3;
    }
    return code;
  };
  const fiveAt = () => {
    let n = 1;
    for (let i = 3; i >= 0 && L[i] === 1; i--) n++;
    for (let i = 5; i < 9 && L[i] === 1; i++) n++;
    return n >= 5;
  };
  const classify = () => {
    const code = encode();
    if (memo[code] >= 0) return memo[code];
    let shape;
    if (fiveAt()) {
      shape = S_FIVE;
    } else {
      let fivePoints = 0;
      for (let e = 0; e < 9; e++) {
        if (e === 4 || L[e] !== 0) continue;
        L[e] = 1;
        if (fiveAt()) fivePoints++;
        L[e] = 0;
      }
      if (fivePoints >= 2) shape = S_FLEX4;
      else if (fivePoints === 1) shape = S_BLOCK4;
      else {
        shape = S_NONE;
        for (let e = 0; e < 9; e++) {
          if (e === 4 || L[e] !== 0) continue;
          L[e] = 1;
          const s = classify();
          L[e] = 0;
          let down = S_NONE;
          if (s === S_FLEX4) down = S_FLEX3;
          else if (s === S_BLOCK4) down = S_BLOCK3;
          else if (s === S_FLEX3) down = S_FLEX2;
          else if (s === S_BLOCK3) down = S_BLOCK2;
          else if (s !== S_NONE) down = S_ONE;
          if (down > shape) shape = down;
        }
        if (shape === S_NONE) {
          for (let start = 0; start <= 4; start++) {
            let free = true;
            for (let i = start; i < start + 5; i++) if (L[i] === 2) free = false;
            if (free) shape = S_ONE;
          }
        }
      }
    }
    memo[code] = shape;
    return shape;
  };
  for (let code = 0; code < 6561; code++) {
    let c = code;
    for (let j = 0; j < 8; j++) {
      L[j < 4 ? j : j + 1] = c % 3;
      c = Math.floor(c / 3);
    }
    L[4] = 1;
    table[code] = classify();
  }
  return table;
}

/** Score and class of a cell for every combination of its four direction shapes. */
function buildComboTables() {
  const score = new Int32Array(6561);
  const cls = new Uint8Array(6561);
  for (let code = 0; code < 6561; code++) {
    const n = new Int32Array(9);
    let c = code;
    let sum = 0;
    for (let d = 0; d < 4; d++) {
      const s = c % 9;
      c = Math.floor(c / 9);
      n[s]++;
      sum += SHAPE_POINTS[s];
    }
    let k;
    if (n[S_FIVE]) k = C_FIVE;
    else if (n[S_FLEX4] || n[S_BLOCK4] >= 2) k = C_FLEX4;
    else if (n[S_BLOCK4] && n[S_FLEX3]) k = C_43;
    else if (n[S_BLOCK4]) k = C_BLOCK4;
    else if (n[S_FLEX3] >= 2) k = C_33;
    else if (n[S_FLEX3]) k = C_FLEX3;
    else if (n[S_FLEX2] || n[S_BLOCK3]) k = C_MID;
    else if (n[S_BLOCK2] || n[S_ONE]) k = C_LOW;
    else k = C_NONE;
    if (n[S_BLOCK4] >= 2) sum += BONUS_44;
    else if (n[S_BLOCK4] && n[S_FLEX3]) sum += BONUS_43;
    else if (n[S_FLEX3] >= 2) sum += BONUS_33;
    score[code] = sum;
    cls[code] = k;
  }
  return { score, cls };
}

const SHAPE_TABLE = buildShapeTable();
const COMBO = buildComboTables();

// Deterministic 32-bit generator for the Zobrist keys.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

// ------------------------------------------------------------------------------------
// Board with incrementally updated cell scores

class Board {
  constructor(size) {
    this.size = size;
    const S = size + 2 * PAD;
    this.S = S;
    this.SS = S * S;
    this.dirs = [1, S, S + 1, S - 1];
    this.cells = new Uint8Array(this.SS).fill(WALL);
    this.onBoard = [];
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const i = this.idx(x, y);
        this.cells[i] = EMPTY;
        this.onBoard.push(i);
      }
    }
    // shapes[((p - 1) * 4 + d) * SS + i]; score/cls[(p - 1) * SS + i] (0 on occupied cells)
    this.shapes = new Uint8Array(8 * this.SS);
    this.score = new Int32Array(2 * this.SS);
    this.cls = new Uint8Array(2 * this.SS);
    this.near = new Uint8Array(this.SS); // stones within Chebyshev distance 2
    this.classCount = new Int32Array(3 * 9); // [p * 9 + class] over empty cells
    this.evalTotal = [0, 0, 0];
    this.stones = 0;
    this.history = [];
    const rnd = mulberry32(0x9e3779b9 ^ size);
    this.zLo = new Int32Array(3 * this.SS);
    this.zHi = new Int32Array(3 * this.SS);
    for (let i = 0; i < 3 * this.SS; i++) {
      this.zLo[i] = rnd() | 0;
      this.zHi[i] = rnd() & 0xfffff; // 20 bits: key() * 2 + side stays below 2^53
    }
    this.hashLo = 0;
    this.hashHi = 0;
    // codes[((p - 1) * 4 + d) * SS + i]: base-3 code of the 8 neighbours of i in
    // direction d as seen by player p (index into SHAPE_TABLE), kept up to date by play/undo.
    this.codes = new Int32Array(8 * this.SS);
    // Digit weight of a stone at offset o (= -4..4, o != 0) from a cell: POW[o + 4].
    this.pow = [1, 3, 9, 27, 0, 81, 243, 729, 2187];
    for (const i of this.onBoard) {
      for (let d = 0; d < 4; d++) {
        for (let p = 1; p <= 2; p++) {
          const k = ((p - 1) * 4 + d) * this.SS + i;
          this.codes[k] = this.lineCode(i, p, d);
          this.shapes[k] = SHAPE_TABLE[this.codes[k]];
        }
      }
      this.refreshCell(i, 1);
      this.refreshCell(i, 2);
    }
  }

  idx(x, y) {
    return (y + PAD) * this.S + (x + PAD);
  }

  xy(i) {
    return [(i % this.S) - PAD, Math.floor(i / this.S) - PAD];
  }

  /** 53-bit position key (fits a JS number exactly). */
  key() {
    return this.hashHi * 4294967296 + (this.hashLo >>> 0);
  }

  lineCode(i, p, d) {
    const step = this.dirs[d];
    const cells = this.cells;
    let code = 0;
    let m = 1;
    for (let k = -4; k <= 4; k++) {
      if (k === 0) continue;
      const v = cells[i + k * step];
      if (v !== EMPTY) code += (v === p ? 1 : 2) * m;
      m *= 3;
    }
    return code;
  }

  lineShape(i, p, d) {
    return SHAPE_TABLE[this.lineCode(i, p, d)];
  }

  /** Recombine the four direction shapes of empty cell i for player p (keeps the
   * per-class counts and the evaluation total of p up to date). */
  refreshCell(i, p) {
    const SS = this.SS;
    const base = (p - 1) * 4 * SS + i;
    const sh = this.shapes;
    const code = sh[base] + 9 * sh[base + SS] + 81 * sh[base + 2 * SS] + 729 * sh[base + 3 * SS];
    const j = (p - 1) * SS + i;
    const oldScore = this.score[j];
    const newScore = COMBO.score[code];
    const newCls = COMBO.cls[code];
    this.evalTotal[p] += Math.min(newScore, EVAL_CAP) - Math.min(oldScore, EVAL_CAP);
    this.classCount[p * 9 + this.cls[j]]--;
    this.classCount[p * 9 + newCls]++;
    this.score[j] = newScore;
    this.cls[j] = newCls;
  }

  _clearCell(i) {
    for (let p = 1; p <= 2; p++) {
      const j = (p - 1) * this.SS + i;
      this.evalTotal[p] -= Math.min(this.score[j], EVAL_CAP);
      this.classCount[p * 9 + this.cls[j]]--;
      this.classCount[p * 9 + C_NONE]++;
      this.score[j] = 0;
      this.cls[j] = C_NONE;
    }
  }

  /** Stone of colour p put on (sign 1) or taken off (sign -1) cell c: update the line
   * codes and shapes of the cells within 4 steps in each direction, and recombine the
   * empty ones whose shapes changed. */
  _updateLines(c, p, sign) {
    const cells = this.cells;
    const SS = this.SS;
    const codes = this.codes;
    const shapes = this.shapes;
    const pow = this.pow;
    const v1 = p === 1 ? sign : 2 * sign; // digit change for player 1 (own=1, other=2)
    const v2 = p === 2 ? sign : 2 * sign;
    for (let d = 0; d < 4; d++) {
      const step = this.dirs[d];
      const b1 = d * SS;
      const b2 = (4 + d) * SS;
      for (let k = -4; k <= 4; k++) {
        if (k === 0) continue;
        const e = c + k * step;
        if (cells[e] === WALL) continue;
        const w = pow[4 - k]; // c sits at offset -k from e
        const k1 = b1 + e;
        const k2 = b2 + e;
        const c1 = (codes[k1] += v1 * w);
        const c2 = (codes[k2] += v2 * w);
        const s1 = SHAPE_TABLE[c1];
        const s2 = SHAPE_TABLE[c2];
        const ch1 = s1 !== shapes[k1];
        const ch2 = s2 !== shapes[k2];
        shapes[k1] = s1;
        shapes[k2] = s2;
        if (cells[e] === EMPTY) {
          if (ch1) this.refreshCell(e, 1);
          if (ch2) this.refreshCell(e, 2);
        }
      }
    }
  }

  _near(c, delta) {
    const S = this.S;
    for (let dy = -2; dy <= 2; dy++) {
      const row = c + dy * S;
      for (let dx = -2; dx <= 2; dx++) this.near[row + dx] += delta;
    }
  }

  play(c, p) {
    this._clearCell(c);
    this.cells[c] = p;
    this.hashLo ^= this.zLo[p * this.SS + c];
    this.hashHi ^= this.zHi[p * this.SS + c];
    this.stones++;
    this.history.push(c);
    this._near(c, 1);
    this._updateLines(c, p, 1);
  }

  undo() {
    const c = this.history.pop();
    const p = this.cells[c];
    this.cells[c] = EMPTY;
    this.hashLo ^= this.zLo[p * this.SS + c];
    this.hashHi ^= this.zHi[p * this.SS + c];
    this.stones--;
    this._near(c, -1);
    this._updateLines(c, p, -1);
    // The cell's own shapes were kept up to date while it was occupied.
    this.refreshCell(c, 1);
    this.refreshCell(c, 2);
    return c;
  }

  count(p, k) {
    return this.classCount[p * 9 + k];
  }

  /** Number of empty cells where p reaches class >= k. */
  countAtLeast(p, k) {
    let n = 0;
    for (let j = k; j <= C_FIVE; j++) n += this.classCount[p * 9 + j];
    return n;
  }

  /** Empty cells near stones where player p has class >= k. */
  cellsAtLeast(p, k) {
    const out = [];
    const off = (p - 1) * this.SS;
    for (const i of this.onBoard) {
      if (this.cells[i] === EMPTY && this.near[i] && this.cls[off + i] >= k) out.push(i);
    }
    return out;
  }

  firstCell(p, k) {
    const off = (p - 1) * this.SS;
    for (const i of this.onBoard) {
      if (this.cells[i] === EMPTY && this.near[i] && this.cls[off + i] === k) return i;
    }
    return -1;
  }

  clsOf(p, i) {
    return this.cls[(p - 1) * this.SS + i];
  }

  scoreOf(p, i) {
    return this.score[(p - 1) * this.SS + i];
  }

  /** True if the stone at c is part of a five (or longer). */
  isFiveAt(c) {
    const p = this.cells[c];
    if (p !== 1 && p !== 2) return false;
    for (const step of this.dirs) {
      let n = 1;
      for (let e = c + step; this.cells[e] === p; e += step) n++;
      for (let e = c - step; this.cells[e] === p; e -= step) n++;
      if (n >= 5) return true;
    }
    return false;
  }
}

module.exports = {
  Board,
  EMPTY,
  WALL,
  PAD,
  WIN,
  WIN_THRESHOLD,
  SHAPE_TABLE,
  COMBO,
  SHAPE_NAMES,
  CLASS_NAMES,
  S_NONE,
  S_ONE,
  S_BLOCK2,
  S_FLEX2,
  S_BLOCK3,
  S_FLEX3,
  S_BLOCK4,
  S_FLEX4,
  S_FIVE,
  C_NONE,
  C_LOW,
  C_MID,
  C_FLEX3,
  C_33,
  C_BLOCK4,
  C_43,
  C_FLEX4,
  C_FIVE,
};
