"""Candidate moves in threat buckets, with forced replies and forward pruning.

Candidates are the empty cells within distance 2 of a stone that the board keeps. A
cell only at distance 2 is kept when it builds something for the mover (the far-attack
exception) or blocks a strong threat; quiet defence is played next to the stones.

Buckets, strongest first: make five > block five > make an open four > (opponent can
make a four or open four: only blocks and own fours) > four-three and double threats >
the rest. Inside a bucket, cells are ordered by a score fitted to the moves deeper
searches chose (order_weights.py): of the cell's pattern classes for both sides, and of
where it lies from the last two stones. Without a fitted file the hand-typed scores are
used, and with them the old finer buckets below the double threats (fours > open threes
and their blocks > twos > rest): the fitted score orders those better than buckets do.
"""

from __future__ import annotations

from gomoku.core.rules import Rule
from gomoku.game.board import NEAR1, Board, Layout
from gomoku.game.renju import forbidden, screen
from gomoku.patterns.order_weights import LAST_CATEGORIES, load_order
from gomoku.patterns.tables import (
    BLACK,
    COUNT_BITS,
    FIVE,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    SIDE_MASK,
    SIDE_SHIFT,
    T_DOUBLE_THREE,
    T_FIVE,
    T_FOUR,
    T_FOUR_THREE,
    T_NONE,
    T_OPEN_FOUR,
    T_OPEN_THREE,
    T_OPEN_TWO,
    T_THREE,
    THREE,
    WHITE,
    all_summaries,
    threat_class,
)
from gomoku.patterns.weights import SUMMARY_INDEX, THREAT_CLASSES

# Buckets (higher first)
B_WIN, B_BLOCK_FIVE, B_OPEN_FOUR, B_BLOCK_OPEN_FOUR = 9, 8, 7, 6
B_DOUBLE, B_FOUR, B_THREE, B_TWO, B_REST = 5, 4, 3, 2, 1

ATTACK_BUCKET = {
    T_FIVE: B_WIN,
    T_OPEN_FOUR: B_OPEN_FOUR,
    T_FOUR_THREE: B_DOUBLE,
    T_DOUBLE_THREE: B_DOUBLE,
    T_FOUR: B_FOUR,
    T_OPEN_THREE: B_THREE,
    T_THREE: B_TWO,
    T_OPEN_TWO: B_TWO,
}
DEFENCE_BUCKET = {
    T_FIVE: B_BLOCK_FIVE,
    T_OPEN_FOUR: B_BLOCK_OPEN_FOUR,
    T_FOUR_THREE: B_DOUBLE,
    T_DOUBLE_THREE: B_DOUBLE,
    T_OPEN_THREE: B_THREE,
    T_FOUR: B_THREE,
}

DEFAULT_MAX_MOVES = 20  # forward pruning: best N in quiet positions
BUCKET_SCALE = 1 << 20


# The shipped ordering (freestyle's for every rule: the caches below are shared).
ORDER = load_order(Rule.FREESTYLE)
FITTED = ORDER.source != "classic"
LOWEST_BUCKET = B_DOUBLE if FITTED else B_REST  # buckets below this one count as B_REST
LAST_TABLE = ORDER.last if ORDER.uses_last else None
FAR = LAST_CATEGORIES - 1  # the last stones category of a cell far from the stone


def _build_info() -> dict[int, tuple[int, int, int, bool]]:
    """summary -> (threat class, attack score, defence score, has a line four-or-better)."""
    info = {}
    for s in all_summaries():
        att, dfn = ORDER.own[SUMMARY_INDEX[s]], ORDER.opp[SUMMARY_INDEX[s]]
        line_four = bool((s >> (COUNT_BITS * FOUR)) & 7 or (s >> (COUNT_BITS * OPEN_FOUR)) & 7)
        info[s] = (threat_class(s), att, dfn, line_four)
    return info


INFO = _build_info()


def cell_threats(board: Board, p: int) -> tuple[int, int]:
    """(mover's threat class, opponent's threat class) at empty cell p."""
    s = board.summary[p]
    black, white = INFO[s & SIDE_MASK][0], INFO[(s >> SIDE_SHIFT) & SIDE_MASK][0]
    return (black, white) if board.side == 1 else (white, black)


_FIVE_SHIFT = (0, COUNT_BITS * FIVE, SIDE_SHIFT + COUNT_BITS * FIVE)  # by side: five counter


def _forcing_mask(side: int) -> int:
    """The full summary bits that give a cell F_FORCING_OK for ``side`` to move: a count of
    its fours, open fours or fives, or two or more of its open threes (so its threat class
    is T_FOUR or better, T_DOUBLE_THREE included), or the opponent's four or open four on
    a line (INFO's line four). Tested equal to the flag."""

    def field(pattern: int) -> int:
        return 7 << (COUNT_BITS * pattern)

    own = field(FOUR) | field(OPEN_FOUR) | field(FIVE) | (6 << (COUNT_BITS * OPEN_THREE))
    opp = field(FOUR) | field(OPEN_FOUR)
    return own | (opp << SIDE_SHIFT) if side == BLACK else (own << SIDE_SHIFT) | opp


_FORCING_MASK = (0, _forcing_mask(BLACK), _forcing_mask(WHITE))  # by the side to move


def _far_mask(side: int) -> int:
    """The full summary bits that give a cell F_FAR_OK for ``side`` to move: its threat
    class T_OPEN_TWO or better (a count of any of its patterns from OPEN_TWO up), or the
    opponent's T_FOUR or better (as in _forcing_mask). Tested equal to the flag."""

    def field(pattern: int) -> int:
        return 7 << (COUNT_BITS * pattern)

    own = sum(field(c) for c in (OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE))
    opp = field(FOUR) | field(OPEN_FOUR) | field(FIVE) | (6 << (COUNT_BITS * OPEN_THREE))
    return own | (opp << SIDE_SHIFT) if side == BLACK else (own << SIDE_SHIFT) | opp


_FAR_MASK = (0, _far_mask(BLACK), _far_mask(WHITE))  # by the side to move

# Per full cell summary (both sides), cached: ordering key and flags for either mover.
F_WIN, F_BLOCK_FIVE, F_OPEN_FOUR, F_THREAT, F_FAR_OK, F_FORCING_OK = 1, 2, 4, 8, 16, 32
_SPECIAL = F_WIN | F_BLOCK_FIVE | F_OPEN_FOUR | F_THREAT
_CELL: dict[int, tuple[int, int, int, int]] = {}
CELL_CACHE_LIMIT = 100_000
CELL_BITS = 10  # cell indices are < 1024 (a padded 20x20 board has 900 cells)


def _mover_entry(own: tuple, opp: tuple) -> tuple[int, int]:
    oc, pc = own[0], opp[0]
    if pc == T_FIVE and oc != T_FIVE:
        bucket = B_BLOCK_FIVE
    else:
        bucket = max(ATTACK_BUCKET.get(oc, B_REST), DEFENCE_BUCKET.get(pc, B_REST))
        if bucket < LOWEST_BUCKET:
            bucket = B_REST
    flags = 0
    if oc == T_FIVE:
        flags |= F_WIN
    if pc == T_FIVE:
        flags |= F_BLOCK_FIVE
    if oc == T_OPEN_FOUR:
        flags |= F_OPEN_FOUR
    if pc >= T_OPEN_FOUR:
        flags |= F_THREAT
    if oc >= T_OPEN_TWO or pc >= T_FOUR:
        flags |= F_FAR_OK
    if oc >= T_FOUR or opp[3]:
        flags |= F_FORCING_OK
    score = own[1] + opp[2] + ORDER.pair[oc * THREAT_CLASSES + pc]
    return bucket * BUCKET_SCALE + score, flags


def _cell_entry(s: int) -> tuple[int, int, int, int]:
    b, w = INFO[s & SIDE_MASK], INFO[(s >> SIDE_SHIFT) & SIDE_MASK]
    e = _mover_entry(b, w) + _mover_entry(w, b)
    if len(_CELL) >= CELL_CACHE_LIMIT:
        _CELL.clear()
    _CELL[s] = e
    return e


def cell_key(s: int) -> tuple[int, int, int, int]:
    """(ordering key, flags) for black to move, then for white, of a full cell summary."""
    return _CELL.get(s) or _cell_entry(s)


class _MoverCells(dict):
    """Full cell summary -> (ordering key shifted left by CELL_BITS, flags) for one side to
    move (cell_key's half for it), filled on first use: generate's look-up, one subscript
    with no offset arithmetic."""

    def __init__(self, o: int) -> None:
        super().__init__()
        self.o = o  # 0: black to move, 2: white

    def __missing__(self, s: int) -> tuple[int, int]:
        e = cell_key(s)
        v = (e[self.o] << CELL_BITS, e[self.o + 1])
        if len(self) >= CELL_CACHE_LIMIT:
            self.clear()
        self[s] = v
        return v


_MOVER_CELLS = (None, _MoverCells(0), _MoverCells(2))  # by the side to move


def generate(board: Board, max_moves: int | None = DEFAULT_MAX_MOVES) -> list[int]:
    """Ordered candidate cells for the side to move (see module doc).

    Forced situations return only the relevant cells: a winning cell; the cells that
    block the opponent's five; a move making an open four; when the opponent threatens
    an open four, only our fours and the cells that stop it. ``max_moves`` prunes the
    ordered list of a quiet position (None keeps all). An empty board gives the centre.

    Under renju black's forbidden points are never generated; an empty list with
    candidates on the board then means black has no move that is not lost (its only
    block of a five is forbidden).
    """
    history = board.history
    if not history:
        c = board.size // 2
        return [board.layout.index(c, c)]
    banned = black_forbidden(board) if board.rule is Rule.RENJU and board.side == BLACK else ()
    # the last stones part of the key, already shifted: last[mine[q] + theirs[q]]
    mine_rows, theirs_rows = last_category_rows(board.layout)
    theirs = theirs_rows[history[-1]]
    mine = mine_rows[history[-2]] if len(history) >= 2 else mine_rows[0]  # cell 0: a wall
    last = _LAST_SHIFTED
    summary = board.summary
    near = board.near
    side = board.side
    cache = _MOVER_CELLS[side]
    if board.fives(3 - side) and not board.fives(side):
        # The opponent makes five next move and we cannot first (the most common forced
        # node): the answer is its five cells (F_BLOCK_FIVE), in cell order, so the
        # other candidates need no score and nothing needs sorting. A cell makes five
        # only next to a stone, so all five cells are candidates; they are usually on
        # the lines through the opponent's last stone, so those are looked at first.
        five = _FIVE_SHIFT[3 - side]
        near_last = board.layout.line_neighbours[history[-1]] & board.candidates
        fives = [q for q in near_last if (summary[q] >> five) & 7]
        if len(fives) < board.fives(3 - side):  # not all of them there
            fives = [q for q in board.candidates if (summary[q] >> five) & 7]
        floor = (B_BLOCK_FIVE * BUCKET_SCALE) << CELL_BITS
        blocks = [
            q
            for q in fives
            if q not in banned and cache[summary[q]][0] + last[mine[q] + theirs[q]] >= floor
        ]
        if not blocks:
            return []  # renju: every block of the opponent's five is forbidden to black
        blocks.sort()
        return blocks
    mask = (1 << CELL_BITS) - 1
    if not banned and not board.fives(side) and not board.open_fours(side):
        # We have no five nor open four to make (and the opponent no five, above), so the
        # threat counts say which case of the general loop below applies, and each is
        # built without its tests. (Under renju black's banned cells could hide them.)
        if board.open_fours(3 - side):
            # The opponent threatens an open four (or double four): the F_THREAT answer,
            # without scoring the other cells. Every such cell of the opponent's lies
            # within distance 2 of a stone, so it is a candidate, and a forcing cell
            # always passes the distance-2 filter.
            forcing = []
            forcing_mask = _FORCING_MASK[side]
            for q in board.candidates:
                s = summary[q]
                if s & forcing_mask:  # F_FORCING_OK, read off the summary
                    forcing.append((cache[s][0] + last[mine[q] + theirs[q]]) | q)
            forcing.sort(reverse=True)
            return [k & mask for k in forcing]
        # Quiet: no cell is special (_SPECIAL), only the distance-2 filter applies.
        scored = []
        far_mask = _FAR_MASK[side]
        for q in board.candidates:
            s = summary[q]
            if near[q] >= NEAR1 or s & far_mask:  # F_FAR_OK, read off the summary
                scored.append((cache[s][0] + last[mine[q] + theirs[q]]) | q)
        scored.sort(reverse=True)
        if max_moves is not None:
            del scored[max_moves:]
        return [k & mask for k in scored]
    special = 0
    scored = []
    for q in board.candidates:
        if banned and q in banned:
            continue
        e = cache[summary[q]]
        flags = e[1]
        if flags & _SPECIAL:
            if flags & F_WIN:
                return [q]
            special |= flags
        elif near[q] < NEAR1 and not flags & F_FAR_OK:
            continue  # distance 2 and neither attack nor a real block
        scored.append((e[0] + last[mine[q] + theirs[q]]) | q)
    if banned and not special & F_BLOCK_FIVE and board.fives(3 - board.side):
        return []  # renju: every block of the opponent's five is forbidden to black
    if special & F_BLOCK_FIVE:
        return sorted(k & mask for k in scored if k >> CELL_BITS >= B_BLOCK_FIVE * BUCKET_SCALE)
    if special & F_OPEN_FOUR:
        scored.sort(reverse=True)
        for k in scored:
            q = k & mask
            if cache[summary[q]][1] & F_OPEN_FOUR:
                return [q]
    if special & F_THREAT:
        # Only our fours and the cells where the opponent would make a four or better
        # (filtered before sorting: the same order, fewer to sort).
        forcing = [k for k in scored if cache[summary[k & mask]][1] & F_FORCING_OK]
        forcing.sort(reverse=True)
        return [k & mask for k in forcing]
    scored.sort(reverse=True)
    if max_moves is not None and len(scored) > max_moves:
        del scored[max_moves:]
    return [k & mask for k in scored]


# Black one-side summaries that may be forbidden (renju.screen says not "no").
_SUSPECT = frozenset(s for s in all_summaries() if screen(s) is not None)


def black_forbidden(board: Board) -> set[int]:
    """Black's forbidden points among the candidates of a renju board: only the cells
    whose summary the screen cannot clear get the exact check (renju.forbidden)."""
    summary = board.summary
    return {
        q
        for q in board.candidates
        if (summary[q] & SIDE_MASK) in _SUSPECT and forbidden(board, q) is not None
    }


def ranked(board: Board) -> list[tuple[int, int]]:
    """(ordering key, cell) for every candidate ``generate`` considers, strongest first,
    without its forcing and pruning: the same keys and the same distance rule."""
    o = 0 if board.side == 1 else 2
    out = []
    for q in board.candidates:
        e = cell_key(board.summary[q])
        if not e[o + 1] & (_SPECIAL | F_FAR_OK) and board.near[q] < NEAR1:
            continue
        out.append((e[o] + last_bonus(board, q), q))
    out.sort(reverse=True)
    return out


def last_category(board: Board, q: int, back: int) -> int:
    """Where cell q lies from the stone played ``back`` plies ago (order_weights.py's
    categories: 0 next to it, 1 at distance 2, 2 on its lines within 4, 3 elsewhere or
    no such stone)."""
    if len(board.history) < back:
        return FAR
    return last_category_maps(board.layout)[board.history[-back]].get(q, FAR)


def last_bonus(board: Board, q: int) -> int:
    """The last stones table's part of cell q's ordering key (0 without the table)."""
    if LAST_TABLE is None or not board.history:
        return 0
    return LAST_TABLE[last_category(board, q, 2) * LAST_CATEGORIES + last_category(board, q, 1)]


# The last stones table shifted like the keys (zeros without a table: the classic keys).
_LAST_SHIFTED = tuple(v << CELL_BITS for v in LAST_TABLE or [0] * LAST_CATEGORIES**2)
_LAST_ROWS: dict[int, tuple[list, list]] = {}


def last_category_rows(layout: Layout) -> tuple[list, list]:
    """generate's form of last_category_maps: per cell p, a list over all cells q of q's
    category from p times LAST_CATEGORIES (row p of ``mine``: p is the mover's last stone)
    and of the category itself (``theirs``). Rows are built when a stone is first played
    on their cell (a list index is cheaper than the maps' dict.get with a default)."""
    rows = _LAST_ROWS.get(id(layout))
    if rows is None:
        rows = _LAST_ROWS[id(layout)] = (_LazyRows(layout, LAST_CATEGORIES), _LazyRows(layout, 1))
    return rows


class _LazyRows(list):
    """Per cell p (built on first use): [category of q from p * scale for every cell q]."""

    def __init__(self, layout: Layout, scale: int) -> None:
        super().__init__([None] * layout.cells)
        self.maps = last_category_maps(layout)
        self.scale = scale

    def __getitem__(self, p: int) -> list[int]:
        row = super().__getitem__(p)
        if row is None:
            row = [FAR * self.scale] * len(self)
            for q, c in self.maps[p].items():
                row[q] = c * self.scale
            self[p] = row
        return row


# by id(layout): layouts are cached for the process (board.layout), so an id is never
# reused, and hashing a Layout would hash its tables on every call
_LAST_MAPS: dict[int, tuple[dict[int, int], ...]] = {}


def last_category_maps(layout: Layout) -> tuple[dict[int, int], ...]:
    """Per cell p of a layout: {q: category} for the cells near p (categories 0-2; the
    cells not in the map are FAR)."""
    maps = _LAST_MAPS.get(id(layout))
    if maps is None:
        out = []
        for p in range(layout.cells):  # off-board cells have no neighbours: empty maps
            m = dict.fromkeys(layout.line_neighbours[p], 2)
            for q, inc in layout.near_updates[p]:
                m[q] = 0 if inc >= NEAR1 else 1
            out.append(m)
        maps = _LAST_MAPS[id(layout)] = tuple(out)
    return maps


__all__ = ["generate", "ranked", "cell_threats", "INFO", "T_NONE"]
