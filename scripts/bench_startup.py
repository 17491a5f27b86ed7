#!/usr/bin/env python3
"""What a visitor downloads and waits for: the engine wheel's size and file count, and the
page's start to a ready engine, stage by stage, on a first visit and on a return visit.

    python scripts/bench_startup.py [--rounds 5] [--reloads 3] [--throttle R] SITE [SITE ...]

A SITE is a built dist/ folder, optionally with a query string for the page after a '?':
``dist`` (the build as it is), ``dist?snapshot=0`` (the same build started without its
snapshot), ``/tmp/main-dist`` (another build, e.g. main's, for a before/after).

Each round opens every site in a fresh browser context (empty HTTP cache, no service
worker: a first visit), waits until the service worker has the site in its cache, then
reloads the page --reloads times (a return visit: HTTP cache and service worker warm).
The rounds alternate the sites' order, so that a change of machine load hits them alike.
Times are from the navigation's start (the page's performance.timeOrigin) to the end of
each stage, read from the engine worker's ready message (its absolute stage marks; the
snapshot's download overlaps pyodide.asm.wasm's, so their order varies):

    page         the page's HTML and scripts, up to the engine worker's first line
    info         pyodide.js and build-info.json
    snapshot     the snapshot fetched, unpacked and checked (snapshot start only)
    wasm fetch   pyodide.asm.wasm downloaded (resource timing)
    wasm         pyodide.asm.wasm compiled and instantiated
    interpreter  the interpreter started (or restored from the snapshot), stdlib mounted
    packages     numpy and our wheel installed
    import       gomoku.protocol.webapi imported
    warm-up      the engine's tables built (the first call); then "ready"

Two ways to slow the browser down as a phone is slower:

--throttle R   Chromium's own CPU throttling (the DevTools protocol's
               Emulation.setCPUThrottlingRate, R times slower), set on every page before
               it loads. It slows the page's main thread; the engine worker's thread much
               less (measured: the page's stage 4x, the worker's stages 1-1.5x at R = 4).
--cpu-share S  every Chromium process this script started runs for a share S of each
               100 ms and is stopped (SIGSTOP / SIGCONT) for the rest: as a CPU limit of S
               of a core per process (a cgroup's quota would do the same for the group).

Every column is a median over the starts; "ready" is the end of the warm-up, when the
worker posts "ready"; "page load" is the page's own figure (engine worker created to
ready). A build from before these marks (before the start-up snapshot) reports its coarser
phases (interpreter = wasm + interpreter start), and its "ready" is when the page saw the
board's data-engine="ready" (a frame late at most). Needs
Chromium at /usr/bin/chromium; builds nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import threading
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from headless import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

import build  # noqa: E402

STAGES = ["page", "info", "snapshot", "wasm fetch", "wasm", "interpreter", "packages", "import",
          "warm-up"]
MARK_OF = {"page": "script", "info": "info", "snapshot": "snapshot", "wasm fetch": "wasmFetched",
           "wasm": "wasm", "interpreter": "interpreter", "packages": "packages", "import": "import",
           "warm-up": "warmup"}
OLD_PHASES = {"pyodide": "interpreter", "packages": "packages", "import": "import",
              "warmup": "warm-up"}


def wheel_figures(dist: Path) -> dict:
    """The engine wheel of a built site: bytes, files, and Python modules by top package."""
    info = json.loads((dist / "build-info.json").read_text())
    wheel = dist / info["wheel"]
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if ".dist-info/" not in n]
    tops = sorted({n.split("/")[0] for n in names})
    return {
        "wheel": wheel.name,
        "bytes": wheel.stat().st_size,
        "files": len(names),
        "python_files": sum(n.endswith(".py") for n in names),
        "packages": tops,
    }


def stages_of(ready: dict, nav_origin: float, seen_ready_at: float) -> dict[str, float]:
    """When each stage ended, in ms from the navigation's start, from a ready message. A
    build without stage marks (before the start-up snapshot) has its coarser phases in ms from the
    worker's own start: placed by the worker's start, seen_ready_at - loadMs."""
    out: dict[str, float] = {}
    marks = ready.get("marks")
    if marks:
        for stage in STAGES:
            at = marks.get(MARK_OF[stage])
            if at is not None:
                out[stage] = at - nav_origin
        out["ready"] = marks["warmup"] - nav_origin
    else:
        worker_start = seen_ready_at - ready["workerMs"]
        for key, stage in OLD_PHASES.items():
            at = ready.get("phases", {}).get(key)
            if at is not None:
                out[stage] = worker_start + at
        out["ready"] = seen_ready_at
    return out


class CpuShare:
    """Lets the Chromium processes started by this script (descendants of this process
    named chrom*) run for ``share`` of every ``period`` seconds and stops them for the rest,
    until stopped; they are always left running."""

    def __init__(self, share: float, period: float = 0.1) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"--cpu-share must be in (0, 1], got {share}")
        self.share, self.period = share, period
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def browser_pids() -> list[int]:
        children: dict[int, list[int]] = {}
        names: dict[int, str] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            children.setdefault(ppid, []).append(int(entry))
            names[int(entry)] = name
        out, todo = [], [os.getpid()]
        while todo:
            for pid in children.get(todo.pop(), []):
                todo.append(pid)
                if names.get(pid, "").startswith("chrom"):
                    out.append(pid)
        return out

    @staticmethod
    def _signal(pids: list[int], sig: int) -> None:
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def _run(self) -> None:
        pids: list[int] = []
        try:
            while not self.done.is_set():
                pids = self.browser_pids()
                self._signal(pids, signal.SIGCONT)
                time.sleep(self.period * self.share)
                if self.share < 1 and not self.done.is_set():
                    self._signal(pids, signal.SIGSTOP)
                    time.sleep(self.period * (1 - self.share))
        finally:
            self._signal(pids, signal.SIGCONT)

    def __enter__(self) -> CpuShare:
        if self.share < 1:
            self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()


def throttle(page, rate: float) -> None:
    """Chromium's CPU throttling for this page's renderer (1: none)."""
    if rate != 1:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})


def one_start(page, url: str | None, console: list[str]) -> dict[str, float]:
    console.clear()
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.engine === 'ready'", timeout=180_000
    )
    seen_ready_at = page.evaluate("() => performance.now()")  # a frame late at most
    ready = page.evaluate("() => window.gomokuTest.state().ready")
    if ready is None:  # a build without stage marks: its console line has the coarse phases
        line = next(c for c in console if c.startswith("engine ready "))
        ready = json.loads(line[len("engine ready "):])
    nav_origin = page.evaluate("() => performance.timeOrigin")
    got = stages_of(ready, nav_origin, seen_ready_at)
    got["page load"] = float(page.get_attribute("#board", "data-load-ms"))
    got["path"] = ready.get("start", "fresh")
    return got


def run(
    sites: list[tuple[Path, str]], rounds: int, reloads: int, rate: float = 1, share: float = 1
) -> dict:
    from playwright.sync_api import sync_playwright

    servers = {d: build.make_server(d, 0) for d in {d for d, _ in sites}}
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    results: dict[tuple[Path, str], dict[str, list]] = {
        s: {"first": [], "return": []} for s in sites
    }
    with sync_playwright() as p, CpuShare(share):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for i in range(rounds):
            for site in sites if i % 2 == 0 else sites[::-1]:
                dist, query = site
                port = servers[dist].server_address[1]
                url = f"http://127.0.0.1:{port}/?test=1" + (f"&{query}" if query else "")
                ctx = browser.new_context()  # empty HTTP cache, no service worker
                page = ctx.new_page()
                throttle(page, rate)
                console: list[str] = []
                page.on("console", lambda msg, console=console: console.append(msg.text))
                results[site]["first"].append(one_start(page, url, console))
                page.wait_for_function(
                    "() => document.querySelector('#board').dataset.offline === 'ready'",
                    timeout=180_000,
                )
                for _ in range(reloads):
                    results[site]["return"].append(one_start(page, None, console))
                ctx.close()
                print(f"round {i + 1}: {dist}?{query} done", file=sys.stderr, flush=True)
        browser.close()
    return results


def table(results: dict, visit: str) -> list[str]:
    cols = STAGES + ["ready", "page load"]
    lines = [
        f"| {visit} visit | n | path | " + " | ".join(cols) + " |",
        "|---|---|---|" + "---|" * len(cols),
    ]
    for (dist, query), runs in results.items():
        starts = runs[visit]
        paths = sorted({s["path"] for s in starts})
        cells = []
        for c in cols:
            vals = [s[c] for s in starts if c in s and s[c] == s[c]]
            cells.append(f"{statistics.median(vals):.0f}" if vals else "-")
        name = f"{dist.name if dist.name != 'dist' else dist}" + (f"?{query}" if query else "")
        lines.append(f"| {name} | {len(starts)} | {'/'.join(paths)} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sites", nargs="*", default=[str(ROOT / "dist")])
    ap.add_argument("--rounds", type=int, default=5, help="first visits per site")
    ap.add_argument("--reloads", type=int, default=3, help="return visits after each first visit")
    ap.add_argument("--json", type=Path, help="also write every start's stages here")
    ap.add_argument("--throttle", type=float, default=1,
                    help="Chromium's CPU throttling rate (e.g. 4: four times slower)")
    ap.add_argument("--cpu-share", type=float, default=1,
                    help="run the browser's processes this share of the time (e.g. 0.5)")
    args = ap.parse_args(argv)
    sites = []
    for s in args.sites:
        path, _, query = s.partition("?")
        sites.append((Path(path).resolve(), query))
    results = run(sites, args.rounds, args.reloads, args.throttle, args.cpu_share)
    if args.throttle != 1:
        print(f"CPU throttled {args.throttle:g}x (Emulation.setCPUThrottlingRate)")
    if args.cpu_share != 1:
        print(f"browser processes run {args.cpu_share:.0%} of the time (SIGSTOP / SIGCONT)")
    for dist in dict.fromkeys(d for d, _ in sites):
        w = wheel_figures(dist)
        print(f"{dist}: wheel {w['bytes'] / 1000:.0f} KB, {w['files']} files"
              f" ({w['python_files']} .py, packages {', '.join(w['packages'])})")
    print("\nmedians, ms from the navigation's start to the end of each stage\n")
    for visit in ("first", "return"):
        print("\n".join(table(results, visit)) + "\n")
    print("the warm-up stage alone (import to ready), median of the starts, ms:")
    for (dist, query), runs in results.items():
        lengths = [
            f"{visit} visit {statistics.median(s['ready'] - s['import'] for s in runs[visit]):.0f}"
            for visit in ("first", "return")
            if all("import" in s for s in runs[visit])
        ]
        print(f"  {dist.name}{'?' + query if query else ''}: " + ", ".join(lengths))
    base = sites[0]
    for visit in ("first", "return"):
        b = statistics.median(s["ready"] for s in results[base][visit])
        for site in sites[1:]:
            m = statistics.median(s["ready"] for s in results[site][visit])
            print(f"{visit} visit, ready: {site[0].name}?{site[1]} / {base[0].name}?{base[1]}"
                  f" = {m / b:.2f}")
    if args.json:
        args.json.write_text(json.dumps({f"{d}?{q}": r for (d, q), r in results.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
