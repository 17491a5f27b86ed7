"""The Gomocup (Piskvork) protocol's text: commands parsed, answers formatted. Pure
functions, no engine; gomoku.protocol.pbrain (the brain) uses them.

Supported commands (case-insensitive command words, one per line):

- ``START n``        new game on an n x n board (15..20); answers ``OK`` or ``ERROR ...``.
- ``RESTART``        new game, same size; answers ``OK``.
- ``BEGIN``          we play the first move; answers ``x,y``.
- ``TURN x,y``       the opponent played (x, y); answers our move ``x,y``.
- ``BOARD`` ... ``DONE``  sets the whole position: lines ``x,y,f`` with f = 1 own stone,
                     2 opponent stone, 3 continuous-game stone (ignored with a MESSAGE).
                     The move order is rebuilt by alternating the two colours in the given
                     order: equal counts -> we are black, one opponent stone more -> we are
                     white, anything else is an error. Answers our move.
- ``TAKEBACK x,y``   undoes the last move if it is (x, y); answers ``OK``.
- ``SWAP2BOARD`` ... ``DONE``  the swap2 opening (Gomocup's extension): the stones so far
                     in move order, one ``x,y`` per line (``x,y,f`` is read too, as Rapfi
                     sends it; f is ignored). No stone: we open, answering three stones
                     ``x,y x,y x,y`` (black, white, black). Three: we choose, answering
                     ``SWAP`` (we take black), one move ``x,y`` (we take white and this is
                     the 4th move) or two ``x,y x,y`` (the 4th and 5th stones: the other
                     player chooses). Five: we choose, answering ``SWAP`` (we take black)
                     or ``x,y`` (we take white: the 6th move). A ``MESSAGE swap2 ...`` line
                     before the answer gives the chance the choice was made on
                     (gomoku.engine.opening_play). Any other count, a stone given twice or
                     off the board, or a rule without swap2 (renju) is an ``ERROR``. Its
                     searches get half the node limit each (max_node), or share
                     timeout_turn.
- ``INFO key value`` timeout_turn, timeout_match, time_left (ms), max_memory, game_type,
                     rule (bit field: 1 = exactly five; 2 = continuous (ignored); 4 = renju,
                     whatever the other bits; 8 = caro is not supported: we fall back to
                     "exactly five", or renju when bit 4 is set, with a MESSAGE),
                     thread_num, max_node (below), multipv (1..8:
                     after each search depth, one ``MESSAGE multipv K move h8 score +0.4
                     pv ...`` per best root move, for analysis), level (a level of
                     gomoku.engine.levels; 0 or a timed level: the full engine), seed
                     (the game's seed for a level's choices), folder, evaluate. No
                     answer; unknown keys ignored.
- ``ABOUT``          answers ``name="...", version="...", author="...", country="..."``.
- ``END``            exits.

Differences from the letter of the spec: unknown commands get ``ERROR`` (not ``UNKNOWN``);
TAKEBACK only undoes the last move; there is no pondering and no interruption of a search
(the time budget alone bounds it).

Anything malformed or illegal (unknown command, bad coordinates, occupied cell, a move
command before START, ...) is answered by one line ``ERROR <reason>`` and the brain keeps
running. Under renju that includes a black stone on a forbidden point, in TURN or in a
BOARD position (checked in the order given), e.g. ``ERROR 7,7 is forbidden for black
(double three)``; the position is left as it was. Our own moves are checked too: should
the engine choose a forbidden point for black, the strongest allowed candidate is played
instead, with a ``MESSAGE renju: the engine chose ...`` line (gomoku.engine.renju_guard);
should the search fail, the session's fallback move is played after a ``MESSAGE internal
error ...`` line. While searching, ``MESSAGE`` lines report depth, score, nodes, nps and the
principal variation in "h8" notation, and one more ``MESSAGE`` just before the move gives
the result: the total nodes of the move (threat stages included) and its ``source``
(book, forced, threat, search). A ``DEBUG`` line before each search gives the budget
(soft target and hard cap, or the node limit and the cap). Every line written is flushed.

Node limits (``INFO max_node N``, the key Rapfi accepts; N <= 0 removes the limit): each
move is searched with ``nodes=N`` in the engine's Limits (the threat stages get N // 4
each, the alpha-beta search the rest) and no soft time target, so the move and the node
count depend only on the position and the game so far, never on the machine's load: the
opening book picks among close replies with the fixed seed ``NODE_LIMIT_SEED``. The time
controls still apply, as a safety cap only (the hard cap computed from timeout_turn and
the clock): send a generous timeout_turn (``python -m gomoku_lab.match --nodes`` does), or a
slow machine may reach the cap and cut the search short. This holds with one search
thread; with thread_num >= 2 the parallel search is not deterministic (which worker's
result is played, and how deep the workers get, depends on timing).

Command-line options of ``python -m gomoku.pbrain`` (``command_line_options``):
``--no-book`` (never answer from the opening book), ``--no-threats`` (no VCF/VCT at the
root; for measuring the search alone), ``--threads N`` (as INFO thread_num N: search on
N processes), ``--help``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING

from gomoku import __version__
from gomoku.core.errors import GomokuError
from gomoku.core.geometry import Point, to_text
from gomoku.core.rules import Rule
from gomoku.search.score import Score

if TYPE_CHECKING:  # types only: the text needs no engine
    from gomoku.engine import SearchInfo, SearchResult, TopMove

BRAIN_NAME = "gomoku-py"
BRAIN_AUTHOR = "gomoku-engine project"
BRAIN_COUNTRY = "-"

# INFO rule bits (Gomocup).
RULE_EXACT_FIVE = 1
RULE_CONTINUOUS = 2
RULE_RENJU = 4
RULE_CARO = 8

_INT_RE = re.compile(r"^[+-]?\d+$")


class ProtocolError(GomokuError):
    """A malformed command or argument; the message becomes ``ERROR <message>``."""


@dataclass
class BrainOptions:
    """The brain's command-line options: ``overrides``, Limits keywords every move's
    limits take (``--no-book``: use_book False; ``--no-threats``: use_threats False);
    ``threads`` (``--threads N``); ``help`` (``-h``, ``--help``)."""

    overrides: dict[str, bool] = dataclass_field(default_factory=dict)
    threads: int = 1
    help: bool = False


def command_line_options(args: list[str]) -> BrainOptions:
    """The options of ``python -m gomoku.pbrain``; ProtocolError for an unknown option or
    a --threads without a number."""
    options = BrainOptions()
    rest = iter(args)
    for arg in rest:
        if arg in ("-h", "--help"):
            options.help = True
        elif arg == "--no-book":
            options.overrides["use_book"] = False
        elif arg == "--no-threats":
            options.overrides["use_threats"] = False
        elif arg == "--threads":
            number = next(rest, "")
            if not _INT_RE.match(number):
                raise ProtocolError("--threads needs a number")
            options.threads = int(number)
        else:
            raise ProtocolError(f"unknown option {arg} (see --help)")
    return options


def parse_command(line: str) -> tuple[str, str]:
    """Split a protocol line into (COMMAND in upper case, rest of the line stripped).

    Surrounding whitespace and a trailing CR are ignored; an empty line gives ("", "").
    """
    text = line.strip()
    if not text:
        return "", ""
    parts = text.split(None, 1)
    return parts[0].upper(), parts[1].strip() if len(parts) > 1 else ""


def parse_int(text: str, what: str = "value") -> int:
    """Parse a decimal integer (optional sign); ProtocolError if malformed."""
    t = text.strip()
    if not _INT_RE.match(t):
        raise ProtocolError(f"malformed {what} {text!r} (expected an integer)")
    return int(t)


def parse_point(text: str, size: int) -> Point:
    """Parse "x,y" (0-based, spaces allowed around the numbers) on a size x size board.

    Raises ProtocolError when malformed or off the board.
    """
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError(f"malformed coordinates {text!r} (expected x,y)")
    x = parse_int(parts[0], "coordinate")
    y = parse_int(parts[1], "coordinate")
    if not (0 <= x < size and 0 <= y < size):
        raise ProtocolError(f"coordinates {x},{y} are off the {size}x{size} board")
    return x, y


def parse_board_line(text: str, size: int) -> tuple[int, int, int]:
    """Parse a BOARD line "x,y,f" (f in 1, 2, 3) -> (x, y, f); ProtocolError otherwise."""
    parts = text.strip().split(",")
    if len(parts) != 3:
        raise ProtocolError(f"malformed BOARD line {text.strip()!r} (expected x,y,field)")
    x, y = parse_point(f"{parts[0]},{parts[1]}", size)
    field = parse_int(parts[2], "BOARD field")
    if field not in (1, 2, 3):
        raise ProtocolError(f"BOARD field must be 1, 2 or 3, got {field}")
    return x, y, field


def parse_swap2_line(text: str, size: int) -> Point:
    """A SWAP2BOARD line: "x,y" as the protocol's examples write it, or "x,y,f" (the
    field ignored) -> (x, y); ProtocolError otherwise."""
    parts = text.strip().split(",")
    if len(parts) not in (2, 3):
        raise ProtocolError(f"malformed SWAP2BOARD line {text.strip()!r} (expected x,y)")
    if len(parts) == 3:
        parse_int(parts[2], "SWAP2BOARD field")
    return parse_point(f"{parts[0]},{parts[1]}", size)


def format_stones(points: Iterable[Point]) -> str:
    """Stones as SWAP2BOARD answers them: "x,y x,y ..."."""
    return " ".join(format_move(p) for p in points)


def order_board_stones(stones: Iterable[tuple[int, int, int]]) -> tuple[list[Point], int]:
    """Rebuild a move order from BOARD stones -> (moves black first, our colour 1|2).

    Own (field 1) and opponent (field 2) stones are interleaved in the order given; field 3
    stones are skipped. Equal counts: we are black (and to move); one opponent stone more:
    we are white. Any other count, or a cell given twice, raises ProtocolError.
    """
    own: list[Point] = []
    opp: list[Point] = []
    seen: set[Point] = set()
    for x, y, field in stones:
        if (x, y) in seen:
            raise ProtocolError(f"BOARD gives cell {x},{y} twice")
        seen.add((x, y))
        if field == 1:
            own.append((x, y))
        elif field == 2:
            opp.append((x, y))
    if len(own) == len(opp):
        first, second, colour = own, opp, 1
    elif len(opp) == len(own) + 1:
        first, second, colour = opp, own, 2
    else:
        raise ProtocolError(
            f"BOARD has {len(own)} own and {len(opp)} opponent stones: cannot tell whose turn"
        )
    moves: list[Point] = []
    for i, p in enumerate(first):
        moves.append(p)
        if i < len(second):
            moves.append(second[i])
    return moves, colour


def rule_from_info(bits: int) -> tuple[Rule, str | None]:
    """Map the INFO rule bit field to our Rule -> (rule, warning or None).

    Bit 4 (renju) -> RENJU, whatever the other bits (renju implies black's exact five).
    Otherwise bit 1 (exactly five) -> STANDARD, else FREESTYLE. Caro (8) is not
    supported: it falls back to STANDARD (overlines do not win), or RENJU with bit 4,
    with a warning. Bit 2 (continuous game) is accepted and ignored.
    """
    if bits < 0:
        raise ProtocolError(f"INFO rule must be >= 0, got {bits}")
    if bits & RULE_RENJU:
        rule = Rule.RENJU
    else:
        rule = Rule.STANDARD if bits & RULE_EXACT_FIVE else Rule.FREESTYLE
    if bits & RULE_CARO:
        fallback = rule if rule is Rule.RENJU else Rule.STANDARD
        return fallback, f"rule caro is not supported; playing {fallback.label}"
    return rule, None


def format_move(point: Point) -> str:
    """(x, y) -> "x,y"."""
    return f"{point[0]},{point[1]}"


def format_about(
    name: str = BRAIN_NAME,
    version: str = __version__,
    author: str = BRAIN_AUTHOR,
    country: str = BRAIN_COUNTRY,
) -> str:
    """The ABOUT answer: ``name="...", version="...", author="...", country="..."``."""
    fields = {"name": name, "version": version, "author": author, "country": country}
    return ", ".join(f'{k}="{v.replace(chr(34), chr(39))}"' for k, v in fields.items())


def format_pv(pv: Iterable[Point], size: int) -> str:
    """A principal variation as "h8 i9 ..." text (invalid points are skipped)."""
    out = []
    for p in pv:
        try:
            out.append(to_text(int(p[0]), int(p[1]), size))
        except (GomokuError, TypeError, ValueError, IndexError):
            continue
    return " ".join(out)


def format_search_info(info: SearchInfo | SearchResult, size: int) -> str:
    """A search's progress (SearchInfo) or result (SearchResult: its source too) -> one
    MESSAGE line."""
    score = getattr(info, "score", None)
    parts = [
        f"depth {getattr(info, 'depth', '?')}",
        f"score {'?' if score is None else Score.of(score).text()}",
        f"nodes {getattr(info, 'nodes', '?')}",
        f"nps {int(getattr(info, 'nps', 0) or 0)}",
        f"time {int(getattr(info, 'time_ms', 0) or 0)}ms",
    ]
    source = getattr(info, "source", None)
    if source:
        parts.append(f"source {source}")
    pv = format_pv(getattr(info, "pv", None) or [], size)
    if pv:
        parts.append(f"pv {pv}")
    return "MESSAGE " + " ".join(parts)


def format_top_move(rank: int, line: TopMove, size: int) -> str:
    """One root move of a multi-PV search as a MESSAGE line:
    ``MESSAGE multipv 2 move i9 score +0.4 pv i9 h10 ...``."""
    x, y = line.move
    return (
        f"MESSAGE multipv {rank} move {to_text(int(x), int(y), size)} "
        f"score {Score.of(line.score).text()} pv {format_pv(line.pv, size)}"
    )
