"""A Gomoku (five in a row) engine: generated pattern tables, alpha-beta search, VCF/VCT.

Layers as folders, each importing only the ones before it (tests/repo/test_layers.py checks;
README.md, "The engine", has the map): core (rules, points, symmetries, keys, errors) ->
patterns -> game (the position, its evaluation, renju) -> search (move generation,
alpha-beta, threats, transposition table, time manager) -> engine (the facade
Engine.think, the play session, book, guard, levels, coach) -> parallel, review, puzzles
-> bench -> protocol (pbrain for Gomocup, webapi for the page, each translating to the
play session). The lab (gomoku_lab: matches, tuning, the book's builder) imports this
package; nothing here imports the lab.
"""

__version__ = "0.1.0"
