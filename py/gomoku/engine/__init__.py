"""Layer 4, the engine as its users see it: ``Engine`` (a game plus ``think``,
``facade``), its ``Limits`` (``limits``) and results (``results``); the play ``Session``
the protocols talk to (a game with its rules' checks, the levels, a think that always
answers a legal move: ``session``; the time controls go into ``Limits`` as received, and
gomoku.search.timeman.move_times makes them the move's optimum and maximum); the opening
book's lookup (``book``), the renju guard (``renju_guard``), the levels (``levels``), the
coach (``coach``).

``from gomoku.engine import Engine, Limits, Session`` is the public entry point
(docs/ENGINE_API.md). The names are loaded on first use, so that importing
``gomoku.engine.book`` (which the facade itself imports lazily) does not load the search.
Imports only the layers below.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker and a reader see; at run time, __getattr__ below
    from gomoku.engine.facade import ENGINE_NAME, ENGINE_VERSION, Engine
    from gomoku.engine.levels import Level, LevelError
    from gomoku.engine.limits import Limits
    from gomoku.engine.results import SearchInfo, SearchResult, TopMove
    from gomoku.engine.session import (
        MAX_MULTIPV,
        ForbiddenMoveError,
        Played,
        Session,
        checked_board,
        fallback_move,
        new_engine,
        node_level,
    )

# name -> the module that defines it
_WHERE = {
    "ENGINE_NAME": "gomoku.engine.facade",
    "ENGINE_VERSION": "gomoku.engine.facade",
    "Engine": "gomoku.engine.facade",
    "Limits": "gomoku.engine.limits",
    "SearchInfo": "gomoku.engine.results",
    "SearchResult": "gomoku.engine.results",
    "TopMove": "gomoku.engine.results",
    "Level": "gomoku.engine.levels",
    "LevelError": "gomoku.engine.levels",
    "MAX_MULTIPV": "gomoku.engine.session",
    "ForbiddenMoveError": "gomoku.engine.session",
    "Played": "gomoku.engine.session",
    "Session": "gomoku.engine.session",
    "checked_board": "gomoku.engine.session",
    "fallback_move": "gomoku.engine.session",
    "new_engine": "gomoku.engine.session",
    "node_level": "gomoku.engine.session",
}
__all__ = [
    "ENGINE_NAME",
    "ENGINE_VERSION",
    "Engine",
    "ForbiddenMoveError",
    "Level",
    "LevelError",
    "Limits",
    "MAX_MULTIPV",
    "Played",
    "SearchInfo",
    "SearchResult",
    "Session",
    "TopMove",
    "checked_board",
    "fallback_move",
    "new_engine",
    "node_level",
]  # the names of _WHERE


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'gomoku.engine' has no attribute {name!r}")
