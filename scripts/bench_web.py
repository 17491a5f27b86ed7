#!/usr/bin/env python3
"""Benchmark the web build: cold start to ready, and engine speed in Pyodide vs CPython.

    python scripts/bench_web.py [--nodes 15000] [--starts 3] [--multipv-depth 6]
                                [--multipv-lines 3,5] [--multipv-only]

Builds dist/ first (--no-build: use it as it is) and needs Chromium at /usr/bin/chromium.
Both sides run the very same code: CPython imports gomoku from the wheel in dist/. The
same think messages go through gomoku.protocol.webapi in both places: in CPython directly, in the
browser through the page's worker (test hook, ?test=1). Each search is bounded by a node
count only and starts with an empty transposition table, so both sides do the same work
(the per-position node counts and moves show it); nodes/s is the engine's own count over
its own time. Three rounds each; the first also pays for warming up (WebAssembly tiers
up); the best round of each side gives the ratio (the machine may be busy with other work).
Then gomoku.bench's own measurements (`core` and `search` on its BENCH_POSITIONS, `threats`
on its THREAT_POSITIONS, through the worker's bench message), whose fixed-depth node
signature and threat node count must agree on both sides, `interp` (gomoku.bench_interp:
the interpreter primitives of the hot loops, each as Pyodide's time over CPython's), and
`multipv` (bench_multipv:
the time of a multi-PV search of K best moves over a plain search to the same depth, on
BENCH_POSITIONS, for each K of --multipv-lines): that ratio is measured within one run on
each side, so it holds up on a busy machine. --multipv-only runs just that part (no cold
starts, no think rounds).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

POSITIONS = [
    "h8 i9 i8 g8 j7 k6 h9 h7 j9",
    "h8 h9 i9 g7 j10 k11 i10 i11 j9",
    "h8 h7 i8 g8 j8 k8 i7 i9 g6 j9 h9",
]
ROUNDS = 3
from headless import CHROMIUM_ARGS  # noqa: E402  (scripts/ is on sys.path)


def import_from_wheel(dist: Path):
    """Import gomoku.protocol.webapi from the wheel that the page loads."""
    info = json.loads((dist / "build-info.json").read_text())
    target = Path(tempfile.mkdtemp(prefix="gomoku-bench-"))
    zipfile.ZipFile(dist / info["wheel"]).extractall(target)
    sys.path.insert(0, str(target))
    from gomoku.protocol import webapi

    assert Path(webapi.__file__).is_relative_to(target), webapi.__file__
    return webapi


def messages(nodes: int) -> list[dict]:
    from gomoku.core.geometry import moves_from_text

    return [
        {
            "type": "think",
            "id": f"bench{i}",
            "moves": [list(m) for m in moves_from_text(text, 15)],
            "limits": {"nodes": nodes},
            "reset": True,  # empty transposition table: every run does the same search
        }
        for i, text in enumerate(POSITIONS)
    ]


def summarize(replies: list[dict]) -> dict:
    nodes = sum(r["nodes"] for r in replies)
    ms = sum(r["timeMs"] for r in replies)
    return {
        "nodes": nodes,
        "ms": round(ms),
        "nps": round(nodes / (ms / 1000)),
        "per_position": [(r["move"], r["nodes"], r["depth"], r["nps"]) for r in replies],
    }


BENCH_MSGS = [
    {"type": "bench", "id": "core", "what": "core", "seconds": 1.0},
    {"type": "bench", "id": "search", "what": "search", "seconds": 1.0, "depth": 4},
    {"type": "bench", "id": "threats", "what": "threats", "depth": 7},
    {"type": "bench", "id": "interp", "what": "interp"},
]


def multipv_messages(depth: int, lines: list[int]) -> list[dict]:
    return [
        {"type": "bench", "id": f"multipv{k}", "what": "multipv", "depth": depth, "lines": k}
        for k in lines
    ]


def bench_cpython(
    webapi, msgs: list[dict], multipv: list[dict], only_multipv: bool = False
) -> tuple[list[dict], dict]:
    webapi.handle({"type": "status", "id": 0, "moves": []})  # build the tables first
    rounds = (
        [] if only_multipv else [summarize([webapi.handle(m) for m in msgs]) for _ in range(ROUNDS)]
    )
    bench = {} if only_multipv else {m["what"]: webapi.handle(m)["results"] for m in BENCH_MSGS}
    for m in multipv:
        reply = webapi.handle(m)
        if reply["type"] != "bench":
            raise SystemExit(f"CPython bench failed: {reply}")
        bench[m["id"]] = reply["results"]
    return rounds, bench


def bench_browser(
    msgs: list[dict], starts: int, chromium: str, multipv: list[dict], only_multipv: bool = False
) -> dict:
    from playwright.sync_api import sync_playwright

    dist = ROOT / "dist"
    server = build.make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?test=1"
    out: dict = {"cold_start_ms": [], "worker_load_ms": [], "rounds": [], "bench": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for _ in range(0 if only_multipv else starts):
            ctx = browser.new_context()  # empty HTTP cache: a cold start
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_function(
                "() => document.querySelector('#board').dataset.engine === 'ready'",
                timeout=180_000,
            )
            out["cold_start_ms"].append(int(page.get_attribute("#board", "data-load-ms")))
            ms = page.evaluate("() => performance.getEntriesByType('navigation')[0].duration")
            out.setdefault("navigation_ms", []).append(round(ms))
            ctx.close()
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function(
            "() => document.querySelector('#board').dataset.engine === 'ready'", timeout=180_000
        )
        rounds = []
        for _ in range(0 if only_multipv else ROUNDS):  # the first also pays for tiering up
            replies = [
                page.evaluate("([m, id]) => window.gomokuTest.send(m, id, 600000)", [m, m["id"]])
                for m in msgs
            ]
            bad = [r for r in replies if r["type"] != "result"]
            if bad:
                raise SystemExit(f"browser bench failed: {bad}")
            rounds.append(summarize(replies))
        out["rounds"] = rounds
        for m in ([] if only_multipv else BENCH_MSGS) + multipv:
            reply = page.evaluate(
                "([m, id]) => window.gomokuTest.send(m, id, 600000)", [m, m["id"]]
            )
            if reply["type"] != "bench":
                raise SystemExit(f"browser bench failed: {reply}")
            out["bench"][m["id"] if m["what"] == "multipv" else m["what"]] = reply["results"]
        browser.close()
    server.shutdown()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--nodes", type=int, default=15000, help="node limit per position")
    ap.add_argument("--starts", type=int, default=3, help="cold starts to time")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    ap.add_argument("--multipv-depth", type=int, default=6, help="bench_multipv's depth")
    ap.add_argument(
        "--multipv-lines", default="3,5", help="bench_multipv's best-move counts, comma-separated"
    )
    ap.add_argument("--multipv-only", action="store_true", help="only the multi-PV bench")
    args = ap.parse_args()
    try:
        lines = [int(k) for k in args.multipv_lines.split(",")]
    except ValueError:
        ap.error(f"--multipv-lines: integers separated by commas, got {args.multipv_lines!r}")
    multipv = multipv_messages(args.multipv_depth, lines)
    if not args.no_build or not (ROOT / "dist" / "build-info.json").exists():
        build.build(ROOT / "dist", build.DEFAULT_NUMPY_DIR)
    webapi = import_from_wheel(ROOT / "dist")
    msgs = messages(args.nodes)
    t0 = time.monotonic()
    load_before = [round(v, 2) for v in os.getloadavg()]
    cpy_rounds, cpy_bench = bench_cpython(webapi, msgs, multipv, args.multipv_only)
    web = bench_browser(msgs, args.starts, args.chromium, multipv, args.multipv_only)
    multipv_result = {
        m["id"]: {
            "depth": args.multipv_depth,
            "lines": m["lines"],
            "cpython": cpy_bench[m["id"]],
            "pyodide": web["bench"][m["id"]],
            "cpython_ratio": cpy_bench[m["id"]]["ratio"],
            "pyodide_ratio": web["bench"][m["id"]]["ratio"],
            "pyodide_over_cpython_time": round(
                web["bench"][m["id"]]["multiS"] / cpy_bench[m["id"]]["multiS"], 2
            ),
        }
        for m in multipv
    }
    if args.multipv_only:
        result = {
            "wheel": json.loads((ROOT / "dist" / "build-info.json").read_text())["wheel"],
            "load_average_before": load_before,
            "load_average_after": [round(v, 2) for v in os.getloadavg()],
            "multipv": multipv_result,
            "seconds": round(time.monotonic() - t0, 1),
        }
        print(json.dumps(result, indent=2))
        return 0
    cpy = max(cpy_rounds, key=lambda r: r["nps"])
    warm = max(web["rounds"], key=lambda r: r["nps"])
    result = {
        "wheel": json.loads((ROOT / "dist" / "build-info.json").read_text())["wheel"],
        "load_average_before": load_before,
        "load_average": [round(v, 2) for v in os.getloadavg()],
        "positions": POSITIONS,
        "nodes_limit": args.nodes,
        "cpython_rounds_nps": [r["nps"] for r in cpy_rounds],
        "pyodide_rounds_nps": [r["nps"] for r in web["rounds"]],
        "cpython_best": cpy,
        "pyodide_best": warm,
        "cold_start_ms": web["cold_start_ms"],
        "cold_start_median_ms": statistics.median(web["cold_start_ms"]),
        "ratio_cpython_over_pyodide_nps": round(cpy["nps"] / warm["nps"], 2),
        "ratio_first_round": round(cpy_rounds[0]["nps"] / web["rounds"][0]["nps"], 2),
        "gomoku_bench_cpython": cpy_bench,
        "gomoku_bench_pyodide": web["bench"],
        "gomoku_bench_ratios": {
            f"{what}.{key}": round(cpy_bench[what][key] / web["bench"][what][key], 2)
            for what, key in (
                ("search", "nps"),
                ("search", "signature_nps_cpu"),
                ("core", "make_unmake_per_s"),
                ("core", "evaluations_per_s"),
                ("core", "generations_per_s"),
                ("threats", "nodes_per_cpu_s"),
            )
            if web["bench"][what][key]
        },
        # how many times slower Pyodide runs each interpreter primitive (gomoku.bench_interp)
        "interp_pyodide_over_cpython": {
            op: round(web["bench"]["interp"][op] / ns, 2)
            for op, ns in cpy_bench["interp"].items()
            if ns
        },
        "same_signature": cpy_bench["search"]["signature"] == web["bench"]["search"]["signature"],
        "same_threat_nodes": cpy_bench["threats"]["nodes"] == web["bench"]["threats"]["nodes"],
        "multipv": multipv_result,
        "seconds": round(time.monotonic() - t0, 1),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
