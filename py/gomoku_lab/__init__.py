"""The lab: tools that measure and build the engine, never shipped to the browser.

Match runner (``match``) with its referee, engine processes, revisions, colour-swapped
pairs, statistics and SPRT; self-play and the evaluation tuner; the opening book's
builder and the opening suites; the renju reference (slow, obvious) and its benchmark;
the parallel search's simulator. Each runs as ``python -m gomoku_lab.<module>`` from a
checkout (``PYTHONPATH=py``). The lab imports ``gomoku``; ``gomoku`` never imports the lab
(tests/repo/test_layers.py).
"""
