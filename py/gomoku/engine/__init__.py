"""Layer 4, the engine as its users see it: ``Engine`` (a game plus ``think``), its
``Limits`` and results (``facade``); the play ``Session`` the protocols talk to (a game
with its rules' checks, the levels, a think that always answers a legal move:
``session``); the time manager's translations of a protocol's clock into Limits
(gomoku.search.timeman); the opening book's lookup (``book``), the renju guard
(``renju_guard``), the levels (``levels``), the coach (``coach``).

``from gomoku.engine import Engine, Limits, Session`` is the public entry point
(docs/ENGINE_API.md). The names are loaded on first use, so that importing
``gomoku.engine.book`` (which the facade itself imports lazily) does not load the search.
Imports only the layers below.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker and a reader see; at run time, __getattr__ below
    from gomoku.engine.facade import (
        ENGINE_NAME,
        ENGINE_VERSION,
        Engine,
        Limits,
        SearchInfo,
        SearchResult,
        TopMove,
    )
    from gomoku.engine.levels import Level, LevelError
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
    from gomoku.search.timeman import gomocup_limits, node_limited, page_limits

# name -> the module that defines it
_WHERE = {
    "ENGINE_NAME": "gomoku.engine.facade",
    "ENGINE_VERSION": "gomoku.engine.facade",
    "Engine": "gomoku.engine.facade",
    "Limits": "gomoku.engine.facade",
    "SearchInfo": "gomoku.engine.facade",
    "SearchResult": "gomoku.engine.facade",
    "TopMove": "gomoku.engine.facade",
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
    "gomocup_limits": "gomoku.search.timeman",
    "node_limited": "gomoku.search.timeman",
    "page_limits": "gomoku.search.timeman",
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
    "gomocup_limits",
    "new_engine",
    "node_level",
    "node_limited",
    "page_limits",
]  # the names of _WHERE


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'gomoku.engine' has no attribute {name!r}")
