"""Transposition table: Zobrist key -> (depth, bound, score, best move), bounded size.

A fixed number of slots indexed by the low bits of the key; a new entry replaces the
old one when it is deeper or from a newer search. Win/loss scores are stored relative
to the node (distance from the node, not from the root) and converted back on probe.
"""

from __future__ import annotations

from gomoku.game.evaluation import WIN_THRESHOLD

EXACT, LOWER, UPPER = 0, 1, 2


def score_to_tt(score: int, ply: int) -> int:
    if score >= WIN_THRESHOLD:
        return score + ply
    if score <= -WIN_THRESHOLD:
        return score - ply
    return score


def score_from_tt(score: int, ply: int) -> int:
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


class TranspositionTable:
    """Slots of (key, depth, bound, score, move, generation) tuples."""

    def __init__(self, bits: int = 18) -> None:
        self.bits = bits
        self.mask = (1 << bits) - 1
        self.slots: list[tuple | None] = [None] * (1 << bits)
        self.generation = 0

    @classmethod
    def for_memory(cls, megabytes: float) -> TranspositionTable:
        """A table of about ``megabytes`` (an entry costs roughly 150 bytes in CPython)."""
        entries = max(1 << 10, int(megabytes * 1_000_000 / 150))
        return cls(entries.bit_length() - 1)

    def new_search(self) -> None:
        self.generation += 1

    def clear(self) -> None:
        self.slots = [None] * (1 << self.bits)

    def probe(self, key: int) -> tuple | None:
        """(depth, bound, score, move) stored for key, or None. Score is node-relative."""
        e = self.slots[key & self.mask]
        if e is not None and e[0] == key:
            return e[1], e[2], e[3], e[4]
        return None

    def probe_current(self, key: int) -> tuple | None:
        """(depth, bound, score) stored for key by the current search (generation), or None.
        Such an entry was stored by the search's _negamax (alphabeta: the root's own
        entry is never met below the root)."""
        e = self.slots[key & self.mask]
        if e is not None and e[0] == key and e[5] == self.generation:
            return e[1], e[2], e[3]
        return None

    def store(self, key: int, depth: int, bound: int, score: int, move: int) -> None:
        i = key & self.mask
        e = self.slots[i]
        if e is None or e[0] == key or e[1] <= depth or e[5] != self.generation:
            if move < 0 and e is not None and e[0] == key:
                move = e[4]  # keep the old best move when this result has none
            self.slots[i] = (key, depth, bound, score, move, self.generation)


class LayeredTable(TranspositionTable):
    """A table of its own over a parent it only reads: a probe that misses here looks in
    the parent, a store never touches it. The multi-PV search of the other root moves
    uses one over the main search's table, so that it profits from what the main search
    found without changing anything the main search will read."""

    def __init__(self, parent: TranspositionTable, bits: int = 16) -> None:
        super().__init__(bits)
        self.parent = parent

    def probe(self, key: int) -> tuple | None:
        e = self.slots[key & self.mask]
        if e is not None and e[0] == key:
            return e[1], e[2], e[3], e[4]
        return self.parent.probe(key)

    def probe_current(self, key: int) -> tuple | None:
        e = self.slots[key & self.mask]
        if e is not None and e[0] == key:  # stored by this table's searcher's _negamax
            return e[1], e[2], e[3]
        return self.parent.probe_current(key)
