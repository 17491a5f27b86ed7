"""``python -m gomoku.pbrain``: the Gomocup brain (gomoku.protocol.pbrain), under the name
Gomocup managers and other interfaces run."""

from gomoku.protocol.pbrain import main

if __name__ == "__main__":
    raise SystemExit(main())
