"""``python -m gomoku.pbrain`` (and the ``gomoku-pbrain`` script): the Gomocup brain
(gomoku.protocol.pbrain) on stdin/stdout, under the name Gomocup managers and other
interfaces run, with its command-line options."""

import sys

from gomoku.engine import Limits
from gomoku.protocol import pbrain, pbrain_text
from gomoku.protocol.pbrain import MAX_THREADS, Brain, LimitKeywords, run


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``gomoku-pbrain`` / ``python -m gomoku.pbrain``.

    Options: ``--no-book`` (never answer from the opening book), ``--no-threats`` (no
    VCF/VCT at the root; for measuring the search alone), ``--threads N`` (as INFO
    thread_num N: search on N processes).
    """
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(pbrain.__doc__)
        print(pbrain_text.__doc__)
        print(main.__doc__)
        return 0
    threads = 1
    if "--threads" in args:
        i = args.index("--threads")
        try:
            threads = min(max(int(args[i + 1]), 1), MAX_THREADS)
        except (IndexError, ValueError):
            print("--threads needs a number", file=sys.stderr)
            return 2
        args = args[:i] + args[i + 2 :]
    unknown = [a for a in args if a not in ("--no-book", "--no-threats")]
    if unknown:
        print(f"unknown option {unknown[0]} (see --help)", file=sys.stderr)
        return 2
    overrides = {}
    if "--no-book" in args:
        overrides["use_book"] = False
    if "--no-threats" in args:
        overrides["use_threats"] = False
    if not overrides and threads == 1:
        return run(sys.stdin, sys.stdout)

    def make_limits(kwargs: LimitKeywords) -> Limits:
        return Limits(**{**kwargs, **overrides})

    out = sys.stdout

    def write(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    brain = Brain(write, make_limits=make_limits)
    if threads > 1:
        brain.handle(f"INFO thread_num {threads}")  # as if the manager had sent it
    return run(sys.stdin, out, brain)


if __name__ == "__main__":
    raise SystemExit(main())
