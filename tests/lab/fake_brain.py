"""A stand-in for Rapfi in the lab's tests: a Gomocup brain (a Python script) that reads
START, INFO rule, BOARD ... DONE and END, and answers each BOARD with the MESSAGE lines
and the move that a test's ``answer(stones, rule)`` gives (stones: (x, y) in the order
sent; rule: the last INFO rule's code, 0 before any)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

_SCRIPT = r'''
import sys

ANSWER

stones, board, rule = [], False, 0
for line in sys.stdin:
    line = line.strip()
    if line.startswith("START"):
        print("OK", flush=True)
    elif line.startswith("INFO rule"):
        rule = int(line.split()[2])
    elif line == "BOARD":
        board, stones = True, []
    elif board and line != "DONE":
        x, y, _ = line.split(",")
        stones.append((int(x), int(y)))
    elif line == "DONE":
        board = False
        messages, (x, y) = answer(stones, rule)
        for text in messages:
            print("MESSAGE " + text, flush=True)
        print(f"{x},{y}", flush=True)
    elif line == "END":
        break
'''


def fake_brain(folder: Path, answer: str) -> str:
    """Write the brain into ``folder`` with ``answer``, the source of a function
    ``answer(stones, rule) -> (messages, (x, y))``; returns the command that runs it."""
    script = folder / "brain.py"
    script.write_text(_SCRIPT.replace("ANSWER", textwrap.dedent(answer).strip()))
    return f"{sys.executable} {script}"
