"""Gomocup engines run as child processes, talking the protocol line by line over pipes.

Used by the match runner (match.py, referee.py). An engine is a command line (split like a
shell would, without a shell) and optionally extra environment variables (revisions.py
runs an older commit of this repository with its own PYTHONPATH).
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import subprocess
import threading
import time
from pathlib import Path

ABOUT_TIMEOUT_S = 5.0
_NAME_RE = re.compile(r'name\s*=\s*"([^"]*)"', re.IGNORECASE)
_QUIET_PREFIXES = ("MESSAGE", "DEBUG")


class EngineError(Exception):
    """The engine process failed: crashed, timed out or could not be started."""


class EngineCrash(EngineError):
    pass


class EngineTimeout(EngineError):
    pass


class EngineProcess:
    """One Gomocup engine run as a child process, talking line by line over pipes.

    A reader thread moves stdout lines into a queue so reads can time out. MESSAGE and
    DEBUG lines are skipped by :meth:`read_answer` (the last MESSAGE is kept).
    """

    def __init__(
        self,
        command: str,
        label: str,
        verbose: bool = False,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        """``command``: the command line; ``env``: variables set for the process on top
        of this process's environment (None: inherit it unchanged); ``cwd``: its working
        directory (None: this process's)."""
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError(f"empty engine command for {label}")
        self.command = command
        self.label = label
        self.verbose = verbose
        self.env = env
        self.cwd = cwd
        self.name: str | None = None
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.last_message = ""
        self.fresh = True  # no game started since the process was launched
        self.closed = False  # close(): killed for good, start() refuses

    @property
    def alive(self) -> bool:
        proc = self.proc
        return proc is not None and proc.poll() is None

    def start(self) -> None:
        """Launch the process (EngineCrash if it cannot be started or was closed)."""
        self.kill()
        if self.closed:
            raise EngineCrash(f"{self.label}: closed (the match was interrupted)")
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None if self.verbose else subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                env=None if self.env is None else {**os.environ, **self.env},
                cwd=self.cwd,
            )
        except OSError as exc:
            self.proc = None
            raise EngineCrash(f"cannot start {self.command!r}: {exc}") from None
        self.lines = queue.Queue()
        self.fresh = True
        threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True).start()

    @staticmethod
    def _reader(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(None)

    def send(self, *commands: str) -> None:
        """Write command lines and flush (EngineCrash if the pipe is closed)."""
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise EngineCrash("not running")
        try:
            proc.stdin.write("".join(c + "\n" for c in commands))
            proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineCrash("crashed (pipe closed)") from None

    def drain(self) -> None:
        """Discard pending output (EngineCrash if the process has exited)."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                raise EngineCrash("crashed (exited)")

    def read_answer(
        self, timeout_s: float, messages: list[str] | None = None, skip: tuple[str, ...] = ()
    ) -> str:
        """The next line that is not MESSAGE/DEBUG (nor starts with a word of ``skip``,
        upper case), within timeout_s seconds; the MESSAGE lines' texts read on the way
        are appended to ``messages`` when given.

        Raises EngineTimeout or EngineCrash (end of output).
        """
        deadline = time.perf_counter() + timeout_s
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise EngineTimeout(f"no answer within {timeout_s * 1000:.0f} ms")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                proc = self.proc
                code = proc.wait(timeout=5) if proc else None
                raise EngineCrash(f"crashed (exit code {code})")
            word = line.split(None, 1)[0].upper() if line.strip() else ""
            if word in _QUIET_PREFIXES or word in skip:
                if word == "MESSAGE":
                    self.last_message = line[len("MESSAGE") :].strip()
                    if messages is not None:
                        messages.append(self.last_message)
                continue
            if not word:
                continue
            return line

    def request_ok(self, command: str, timeout_s: float) -> None:
        """Send a command that must be answered OK (EngineError otherwise)."""
        self.send(command)
        answer = self.read_answer(timeout_s)
        if answer.strip().upper() != "OK":
            raise EngineError(f"{command.split()[0]} answered {answer.strip()[:80]!r}")

    def about(self) -> str:
        """The engine's name from ABOUT (falls back to the command's program name)."""
        fallback = Path(self.argv[0]).name if len(self.argv) == 1 else " ".join(self.argv[-2:])
        try:
            self.send("ABOUT")
            m = _NAME_RE.search(self.read_answer(ABOUT_TIMEOUT_S))
        except EngineError:
            return fallback
        return m.group(1) if m and m.group(1) else fallback

    def kill(self) -> None:
        """Kill the process if running. Safe to call from another thread while the
        owner uses the engine (the match runner does so when interrupted): the owner's
        next read or write then fails with EngineCrash."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream:
                    stream.close()
            except (OSError, ValueError):
                pass

    def close(self) -> None:
        """Kill the process and refuse to start it again: an interrupted match closes its
        engines from the main thread, and a game thread that was about to (re)start one
        then fails instead of launching a process nobody would kill."""
        self.closed = True
        self.kill()

    def stop(self) -> None:
        """Send END, give the engine a moment to exit, then kill it."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                self.send("END")
                proc.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()
