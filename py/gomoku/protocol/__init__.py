"""Layer 6, the engine spoken to from outside: the Gomocup brain protocol on
stdin/stdout (``pbrain``; ``python -m gomoku.pbrain``) and the web worker's JSON
messages (``webapi``; web/engine/worker.js passes every message to ``webapi.handle_json``).

Imports the layers below; nothing imports it but the entry points.
"""
