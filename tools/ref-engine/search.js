'use strict';
/*
 * Search of the reference engine: threat (VCF / VCT) search at the root for both sides,
 * then negamax alpha-beta with iterative deepening, a Zobrist-keyed transposition table,
 * score-ordered candidate moves (capped) and forced replies.
 */

const {
  WIN,
  WIN_THRESHOLD,
  C_FLEX3,
  C_BLOCK4,
  C_43,
  C_FLEX4,
  C_FIVE,
} = require('./engine.js');

const INF = 2 * WIN;
// Search parameters. `full` is this stand-in's own setting; `tutorial` uses the
// published parameters of the best-known tutorial engine of this kind
// (lihongxun945/gobang, js/config.js and js/negamax.js: search depth 6 reached by
// even depths 2, 4, 6; at most 16 candidate moves; "vcxDeep" 5 for its kill search).
// Everything else (tables, evaluation, the opponent-threat check) is the same.
const PROFILES = {
  full: {
    maxCandidates: 20, // candidate cap inside the tree
    maxRootCandidates: 24,
    maxDepth: 16, // iterative deepening stops here at the latest
    depthStep: 1,
    maxExtensions: 6, // forced blocks searched past the horizon
    vcfDepth: 12, // attacker moves
    vctDepth: 8, // attacker moves
    vctWidth: 12, // attacker threat moves tried per VCT node
  },
  tutorial: {
    maxCandidates: 16,
    maxRootCandidates: 16,
    maxDepth: 6,
    depthStep: 2,
    maxExtensions: 6,
    vcfDepth: 5,
    vctDepth: 5,
    vctWidth: 12,
  },
};
const TT_BITS = 20; // 2^20 slots, always-replace, in typed arrays (no GC pressure)
const EXACT = 0;
const LOWER = 1;
const UPPER = 2;

const now = () => performance.now();

/** Hash table of search results indexed by the low bits of the Zobrist key. */
class TranspositionTable {
  constructor(bits) {
    const n = 1 << bits;
    this.mask = n - 1;
    this.keys = new Float64Array(n).fill(-1);
    this.values = new Int32Array(n);
    this.depths = new Int8Array(n);
    this.flags = new Int8Array(n);
    this.moves = new Int16Array(n);
  }

  slot(key) {
    return (key % 4294967296) & this.mask; // key = hashHi * 2^33 + hashLo * 2 + side
  }

  clear() {
    this.keys.fill(-1);
  }
}

class Searcher {
  /** `tt`: a TranspositionTable to reuse (a new game clears it rather than allocating);
   * `profile`: a key of PROFILES. */
  constructor(board, tt = null, profile = 'full') {
    if (!PROFILES[profile]) throw new Error(`unknown profile '${profile}'`);
    this.p = PROFILES[profile];
    this.b = board;
    this.tt = tt || new TranspositionTable(TT_BITS);
    this.nodes = 0;
    this.deadline = Infinity;
    this.stopped = false;
    this.vcxNodes = 0;
    this.vcxDeadline = Infinity;
    this.vcxStopped = false;
    this.vcxCache = null;
    this.vcxMove = -1;
    this.log = null; // optional function(text) for progress messages
    this._packed = new Float64Array(board.SS);
  }

  key(me) {
    return this.b.key() * 2 + (me - 1);
  }

  // ----------------------------------------------------------------------------------
  // Candidate moves

  /** Moves for `me`, best first: forced replies when there is a win or a four to stop,
   * only defences and counter-fours against an open three (or a double-four threat),
   * else the `cap` best cells near stones by attack + defence score. */
  genMoves(me, cap, ttMove = -1) {
    const b = this.b;
    const op = 3 - me;
    if (b.count(me, C_FIVE)) return [b.firstCell(me, C_FIVE)];
    if (b.count(op, C_FIVE)) return b.cellsAtLeast(op, C_FIVE);
    if (b.count(me, C_FLEX4)) return [b.firstCell(me, C_FLEX4)];
    const defend = b.count(op, C_FLEX4) > 0;
    const SS = b.SS;
    const offMe = (me - 1) * SS;
    const offOp = (op - 1) * SS;
    const cells = b.cells;
    const near = b.near;
    const cls = b.cls;
    const score = b.score;
    // Sort keys packed as key * 4096 + cell (cell < 4096), sorted as numbers.
    const packed = this._packed;
    let n = 0;
    for (const i of b.onBoard) {
      if (cells[i] !== 0 || !near[i]) continue;
      if (defend && cls[offOp + i] < C_BLOCK4 && cls[offMe + i] < C_BLOCK4) continue;
      const sm = score[offMe + i];
      const so = score[offOp + i];
      const k = i === ttMove ? 1e9 : sm > so ? 2 * sm + so : 2 * so + sm;
      packed[n++] = k * 4096 + i;
    }
    const view = packed.subarray(0, n).sort();
    const m = defend ? n : Math.min(cap, n);
    const out = new Array(m);
    for (let j = 0; j < m; j++) out[j] = view[n - 1 - j] % 4096;
    return out;
  }

  // ----------------------------------------------------------------------------------
  // Evaluation (side to move `me`; no five threat for `me` and no double four against it)

  evaluate(me) {
    const b = this.b;
    const op = 3 - me;
    let v = b.evalTotal[me] - b.evalTotal[op];
    const opFours = b.countAtLeast(op, C_BLOCK4);
    if (opFours === 0) {
      // The opponent cannot answer with a four: our 4-3 or 3-3 move is (nearly) decisive.
      if (b.count(me, C_43)) v += 20000;
      else if (b.count(me, 4 /* C_33 */) && !b.count(op, C_FLEX4)) v += 6000;
    }
    return v;
  }

  // ----------------------------------------------------------------------------------
  // Negamax alpha-beta

  search(depth, alpha, beta, ply, me, ext) {
    const b = this.b;
    const op = 3 - me;
    this.nodes++;
    if ((this.nodes & 1023) === 0 && now() > this.deadline) this.stopped = true;
    if (this.stopped) return 0;
    if (b.count(me, C_FIVE)) return WIN - ply - 1;
    const opFives = b.count(op, C_FIVE);
    if (opFives >= 2) return -(WIN - ply - 2);
    if (!opFives && b.count(me, C_FLEX4)) return WIN - ply - 3;
    if (b.stones >= b.size * b.size) return 0;
    if (depth <= 0) {
      if (opFives && ext < this.p.maxExtensions) {
        depth = 1;
        ext++;
      } else {
        return this.evaluate(me);
      }
    }
    const key = this.key(me);
    const tt = this.tt;
    const slot = tt.slot(key);
    let ttMove = -1;
    if (tt.keys[slot] === key) {
      ttMove = tt.moves[slot];
      if (tt.depths[slot] >= depth) {
        let v = tt.values[slot];
        if (v > WIN_THRESHOLD) v -= ply;
        else if (v < -WIN_THRESHOLD) v += ply;
        const f = tt.flags[slot];
        if (f === EXACT) return v;
        if (f === LOWER && v >= beta) return v;
        if (f === UPPER && v <= alpha) return v;
      }
    }
    const moves = this.genMoves(me, this.p.maxCandidates, ttMove);
    if (moves.length === 0) return this.evaluate(me);
    const alpha0 = alpha;
    let best = -INF;
    let bestMove = moves[0];
    for (const m of moves) {
      b.play(m, me);
      const v = -this.search(depth - 1, -beta, -alpha, ply + 1, op, ext);
      b.undo();
      if (this.stopped) return 0;
      if (v > best) {
        best = v;
        bestMove = m;
        if (v > alpha) {
          alpha = v;
          if (alpha >= beta) break;
        }
      }
    }
    let stored = best;
    if (stored > WIN_THRESHOLD) stored += ply;
    else if (stored < -WIN_THRESHOLD) stored -= ply;
    tt.keys[slot] = key;
    tt.values[slot] = stored;
    tt.depths[slot] = depth;
    tt.flags[slot] = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
    tt.moves[slot] = bestMove;
    return best;
  }

  // ----------------------------------------------------------------------------------
  // Threat search: VCF (fours only) and VCT (fours and open threes)

  _vcxTick() {
    this.vcxNodes++;
    if ((this.vcxNodes & 255) === 0 && now() > this.vcxDeadline) this.vcxStopped = true;
    return this.vcxStopped;
  }

  /** Attacker `a` to move: can it force a five with threats? */
  attackerNode(a, depth, fours, ply) {
    const b = this.b;
    const d = 3 - a;
    if (this._vcxTick()) return false;
    if (b.count(a, C_FIVE)) {
      if (ply === 0) this.vcxMove = b.firstCell(a, C_FIVE);
      return true;
    }
    const dFives = b.count(d, C_FIVE);
    if (dFives >= 2) return false;
    if (dFives === 1) {
      if (depth <= 0) return false;
      const block = b.firstCell(d, C_FIVE);
      b.play(block, a);
      const r = this.defenderNode(a, depth - 1, fours, ply + 1);
      b.undo();
      if (r && ply === 0) this.vcxMove = block;
      return r;
    }
    if (b.count(a, C_FLEX4)) {
      if (ply === 0) this.vcxMove = b.firstCell(a, C_FLEX4);
      return true;
    }
    if (depth <= 0) return false;
    const key = b.key();
    const cached = this.vcxCache.get(key);
    if (cached !== undefined) {
      if (cached > 0 && cached <= depth && ply > 0) return true; // won with `cached` moves
      if (cached < 0 && -cached >= depth) return false; // failed with this much depth
    }
    const SS = b.SS;
    const off = (a - 1) * SS;
    const minCls = fours ? C_BLOCK4 : C_FLEX3;
    const cand = [];
    for (const i of b.onBoard) {
      if (b.cells[i] === 0 && b.near[i] && b.cls[off + i] >= minCls) cand.push(i);
    }
    cand.sort((x, y) => {
      const cx = b.cls[off + x] >= C_BLOCK4 ? 1 : 0;
      const cy = b.cls[off + y] >= C_BLOCK4 ? 1 : 0;
      return cy - cx || b.score[off + y] - b.score[off + x];
    });
    const width = fours ? cand.length : Math.min(cand.length, this.p.vctWidth);
    for (let j = 0; j < width; j++) {
      const m = cand[j];
      b.play(m, a);
      const r = this.defenderNode(a, depth - 1, fours, ply + 1);
      b.undo();
      if (this.vcxStopped) return false;
      if (r) {
        if (ply === 0) this.vcxMove = m;
        this.vcxCache.set(key, depth);
        return true;
      }
    }
    this.vcxCache.set(key, -depth);
    return false;
  }

  /** Defender to move against attacker `a`'s threat: true if every defence loses. */
  defenderNode(a, depth, fours, ply) {
    const b = this.b;
    const d = 3 - a;
    if (this._vcxTick()) return false;
    if (b.count(d, C_FIVE)) return false;
    const aFives = b.count(a, C_FIVE);
    if (aFives >= 2) return true;
    let replies;
    if (aFives === 1) {
      replies = [b.firstCell(a, C_FIVE)];
    } else if (fours) {
      return false;
    } else if (b.count(a, C_FLEX4)) {
      // Open three (or a double-four point): block at the attacker's four-making
      // cells, or counter with a four of our own.
      replies = this._defences(a, C_BLOCK4);
    } else if (b.count(a, C_43)) {
      // A 4-3 point: also consider spoiling the three.
      replies = this._defences(a, C_FLEX3);
    } else {
      return false; // the attacker let the threat go
    }
    for (const r of replies) {
      b.play(r, d);
      const res = this.attackerNode(a, depth, fours, ply + 1);
      b.undo();
      if (!res || this.vcxStopped) return false;
    }
    return true;
  }

  _defences(a, minCls) {
    const b = this.b;
    const SS = b.SS;
    const offA = (a - 1) * SS;
    const offD = (2 - a) * SS;
    const out = [];
    for (const i of b.onBoard) {
      if (b.cells[i] !== 0 || !b.near[i]) continue;
      if (b.cls[offA + i] >= minCls || b.cls[offD + i] >= C_BLOCK4) out.push(i);
    }
    return out;
  }

  /** Threat search for attacker `a` (to move). Returns the first move of a forced win,
   * or -1 (none found within depth / time). */
  vcx(a, fours, depth, deadline) {
    this.vcxDeadline = deadline;
    this.vcxStopped = false;
    this.vcxMove = -1;
    this.vcxCache = new Map();
    const ok = this.attackerNode(a, depth, fours, 0);
    return ok && !this.vcxStopped ? this.vcxMove : -1;
  }

  // ----------------------------------------------------------------------------------
  // Root

  /** Choose a move for `me` within `budgetMs` milliseconds. Returns {move, ...info}. */
  think(me, budgetMs) {
    const b = this.b;
    const op = 3 - me;
    const t0 = now();
    const at = (f) => t0 + f * budgetMs;
    const done = (move, source, extra = {}) => ({
      move,
      source,
      time: Math.round(now() - t0),
      ...extra,
    });
    this.nodes = 0;
    this.vcxNodes = 0;
    if (b.stones === 0) {
      const c = Math.floor(b.size / 2);
      return done(b.idx(c, c), 'opening');
    }
    if (b.count(me, C_FIVE)) return done(b.firstCell(me, C_FIVE), 'five');
    if (b.count(op, C_FIVE)) return done(b.firstCell(op, C_FIVE), 'block four');
    if (b.count(me, C_FLEX4)) {
      const cells = b.cellsAtLeast(me, C_FLEX4);
      cells.sort((x, y) => b.scoreOf(me, y) - b.scoreOf(me, x));
      return done(cells[0], 'open four');
    }
    let m = this.vcx(me, true, this.p.vcfDepth, at(0.1));
    if (m >= 0) return done(m, 'vcf');
    m = this.vcx(me, false, this.p.vctDepth, at(0.3));
    if (m >= 0) return done(m, 'vct');
    // Does the opponent threaten a forced win if we let it move now?
    let threat = this.vcx(op, true, this.p.vcfDepth, at(0.35)) >= 0;
    if (!threat) threat = this.vcx(op, false, this.p.vctDepth, at(0.42)) >= 0;

    const moves = this.genMoves(me, this.p.maxRootCandidates);
    if (moves.length === 1) return done(moves[0], 'forced');
    const scores = new Map();
    let best = moves[0];
    let bestScore = -INF;
    let depthDone = 0;
    this.deadline = at(threat ? 0.75 : 0.88);
    this.stopped = false;
    for (let depth = 2; depth <= this.p.maxDepth; depth += this.p.depthStep) {
      let alpha = -INF;
      let iterBest = -1;
      for (const mv of moves) {
        b.play(mv, me);
        const v = -this.search(depth - 1, -INF, -alpha, 1, op, 0);
        b.undo();
        if (this.stopped) break;
        scores.set(mv, v);
        if (v > alpha) {
          alpha = v;
          iterBest = mv;
        }
      }
      // A stopped iteration still counts: the moves are searched best-first, so the best
      // completed one is at least as good as the previous iteration's choice.
      if (iterBest >= 0) {
        best = iterBest;
        bestScore = alpha;
      }
      if (this.stopped) break;
      depthDone = depth;
      moves.sort((x, y) => (scores.get(y) ?? -INF) - (scores.get(x) ?? -INF));
      if (this.log) {
        const [x, y] = b.xy(best);
        this.log(`depth ${depth} score ${bestScore} best ${x},${y} nodes ${this.nodes} time ${Math.round(now() - t0)}ms`);
      }
      if (Math.abs(bestScore) > WIN_THRESHOLD) break;
      if (now() - t0 > 0.45 * budgetMs) break; // the next depth would not finish
    }
    let source = 'alphabeta';
    if (threat) {
      // Keep the first move (in search order) after which the opponent has no VCF/VCT.
      const order = [best, ...moves.filter((x) => x !== best)];
      const stopAt = at(0.97);
      for (const mv of order) {
        if (now() > stopAt) break;
        b.play(mv, me);
        const left = stopAt - now();
        let lost = this.vcx(op, true, this.p.vcfDepth, now() + left / 3) >= 0;
        if (!lost) lost = this.vcx(op, false, this.p.vctDepth, now() + left / 3) >= 0;
        b.undo();
        if (!lost) {
          if (mv !== best) source = 'alphabeta+defence';
          best = mv;
          break;
        }
      }
    }
    return done(best, source, { depth: depthDone, score: bestScore, nodes: this.nodes + this.vcxNodes });
  }
}

module.exports = { Searcher, TranspositionTable, TT_BITS, PROFILES };
