"""Layer 4, the engine as its users see it: ``Engine`` (a game plus ``think``), its
``Limits`` and results (``facade``), the opening book's lookup (``book``), the renju
guard that checks the engine's own moves (``renju_guard``).

``from gomoku.engine import Engine, Limits`` is the public entry point
(docs/ENGINE_API.md). The names are loaded on first use, so that importing
``gomoku.engine.book`` (which the facade itself imports lazily) does not load the search.
Imports only the layers below.
"""

from typing import Any

__all__ = [
    "ENGINE_NAME",
    "ENGINE_VERSION",
    "Engine",
    "Limits",
    "SearchInfo",
    "SearchResult",
    "TopMove",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from gomoku.engine import facade

        return getattr(facade, name)
    raise AttributeError(f"module 'gomoku.engine' has no attribute {name!r}")
