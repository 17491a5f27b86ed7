"""``python -m gomoku.pbrain``: the Gomocup brain, under the name Gomocup managers, the
lab's match runner and other interfaces run (gomoku.protocol.pbrain.main; its options:
``--help``)."""

from gomoku.protocol.pbrain import main

if __name__ == "__main__":
    raise SystemExit(main())
