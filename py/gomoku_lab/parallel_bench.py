"""Measuring the schemes: a simulator with a core per worker, and the benchmark behind
BENCHMARKS.md's "Parallel search" (``python -m gomoku_lab.parallel_cli bench``)."""

from __future__ import annotations

import heapq
import json
import math
import time
from collections.abc import Callable

from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchResult
from gomoku.parallel.coordinator import Coordinator, Jobs
from gomoku.parallel.driver import DEFAULT_SCHEME, drive, new_coordinator, parallel_think
from gomoku.parallel.jobs import Answer
from gomoku.parallel.pool import WorkerPool
from gomoku.parallel.worker import WorkerState, run_job
from gomoku.search.score import Score


def _rt(obj: dict) -> dict:
    """A JSON round trip, as a real transport makes."""
    return json.loads(json.dumps(obj))


def simulate(
    coord: Coordinator, latency: float = 0.0005, nps: float | None = None
) -> tuple[SearchResult, float]:
    """Run ``coord`` in this process, one job at a time, each worker with its own state
    (TT, searcher) as if it were a separate process, on a virtual clock: a job takes the
    CPU time it used here (or, given ``nps``, its nodes / nps: deterministic) plus
    ``latency`` each way; its progress answers arrive at the matching point of it.
    Returns the result and the virtual seconds, i.e. the wall time the search would take
    with a core per worker, whatever the load on this machine. Deadlines are checked
    against the virtual clock; a job's own budget against the real one (use no time
    limits). Jobs run to their end: nothing is aborted."""
    states = [WorkerState() for _ in range(coord.workers)]
    free = [0.0] * coord.workers  # when each worker is done with what it was given
    events: list[tuple[float, int, int, Answer]] = []
    seq = 0

    def schedule(jobs: Jobs, at: float) -> None:
        nonlocal seq
        for w, job in jobs:
            begin = max(free[w], at + latency)
            sent: list[tuple[Answer, float]] = []
            c0 = time.process_time()

            def emit(answer: Answer, c0: float = c0, sent: list = sent) -> None:
                sent.append((_rt(answer), time.process_time() - c0))

            answer = _rt(run_job(_rt(job), emit, states[w]))
            took = time.process_time() - c0
            if nps is not None:
                took = (answer.get("nodes") or 0) / nps
            for progress, cpu in sent:
                at_ = begin + ((progress.get("nodes") or 0) / nps if nps is not None else cpu)
                heapq.heappush(events, (min(at_, begin + took) + latency, seq, w, progress))
                seq += 1
            free[w] = begin + took
            heapq.heappush(events, (free[w] + latency, seq, w, answer))
            seq += 1

    now = 0.0
    schedule(coord.start(now), now)
    while not coord.done and events:
        now, _, w, answer = heapq.heappop(events)
        schedule(coord.on_result(w, answer, now), now)
    return coord.result(now), now


def _configs(workers: list[int], schemes: list[str]) -> list[tuple[int, str]]:
    out = [(1, DEFAULT_SCHEME)]  # one worker: Engine.think, whatever the scheme
    for n in workers:
        for s in schemes if n > 1 else []:
            if (n, s) not in out:
                out.append((n, s))
    return out


def bench(
    depth: int = 6,
    workers: list[int] | None = None,
    schemes: list[str] | None = None,
    repeat: int = 1,
    positions: list[int] | None = None,
    *,
    simulated: bool = False,
    nps: float | None = None,
    latency: float = 0.0005,
    time_ms: float | None = None,
    out: Callable[[str], None] = print,
) -> dict:
    """Time to finish a fixed depth on the bench positions (threats and book off, fresh
    TTs), per (workers, scheme). Real processes: configurations alternate per position
    so that a change of machine load hits them alike. ``simulated``: the simulator's
    virtual time instead (``nps`` makes it deterministic). Returns per configuration the
    total seconds, nodes, speedup (total and geometric mean of the per-position ratios),
    the busiest worker's CPU time (what the wall time would be with a core per worker
    and no waiting: comparable on a loaded machine) and how often the move equals one
    worker's. With ``time_ms``: a timed search instead (as in play: threat search on,
    book off), also reporting the mean depth reached. "lazy" gains nothing at a fixed
    depth by design (the think on one worker decides when the search ends): compare it
    with ``time_ms``, or better in games (BENCHMARKS.md)."""
    from gomoku.bench import BENCH_POSITIONS
    from gomoku.core.geometry import moves_from_text

    configs = _configs(workers or [1, 2], schemes or [DEFAULT_SCHEME])
    base = configs[0]
    pools = {} if simulated else {n: WorkerPool(n) for n in sorted({n for n, _ in configs})}
    limits = Limits(time_ms=None, depth=depth, use_book=False, use_threats=False)
    if time_ms is not None:
        limits = Limits(time_ms=time_ms, use_book=False)
    idx = positions if positions is not None else list(range(len(BENCH_POSITIONS)))
    times = {c: 0.0 for c in configs}
    nodes = {c: 0 for c in configs}
    same = {c: 0 for c in configs}
    logs = {c: 0.0 for c in configs}
    cpu = {c: 0.0 for c in configs}  # CPU time of the busiest worker
    depths = {c: 0 for c in configs}
    try:
        for n, pool in pools.items():  # warm up: imports and tables in every worker
            warm = Limits(time_ms=None, depth=5, use_book=False, use_threats=False)
            parallel_think(
                moves_from_text(BENCH_POSITIONS[0], 15), limits=warm, workers=n, pool=pool
            )
        for rep in range(repeat):
            for i in idx:
                moves = moves_from_text(BENCH_POSITIONS[i], 15)
                got = {}
                for c in configs if rep % 2 == 0 else configs[::-1]:
                    n, scheme = c
                    coord = new_coordinator(
                        moves,
                        limits=limits,
                        workers=n,
                        scheme=scheme,
                        fresh=True,
                        abortable=not simulated,
                    )
                    if simulated:
                        r, dt = simulate(coord, latency=latency, nps=nps)
                    else:
                        pools[n].ready(2.0)
                        t = time.perf_counter()
                        r = drive(coord, pools[n], t)
                        dt = time.perf_counter() - t
                    per: dict[int, float] = {}
                    for t in coord.trace:  # (..., worker at 2, ..., cpuMs last)
                        per[t[2]] = per.get(t[2], 0.0) + (t[-1] or 0.0) / 1000
                    got[c] = (dt, r, max(per.values(), default=0.0))
                ref_t, ref, _ = got[base]
                cells = []
                for c in configs:
                    dt, r, busiest = got[c]
                    times[c] += dt
                    cpu[c] += busiest
                    depths[c] += r.depth
                    nodes[c] += r.nodes
                    same[c] += r.move == ref.move
                    logs[c] += math.log(ref_t / dt)
                    n, scheme = c
                    cells.append(
                        f"{n}{scheme[0]} {dt:5.2f}s cpu {busiest:5.2f}s {r.nodes:6d}n d{r.depth} "
                        f"{r.move}{'' if r.move == ref.move else '*'} {Score.of(r.score).text()}"
                    )
                out(f"pos {i}: " + "  ".join(cells))
    finally:
        for pool in pools.values():
            pool.close()
    summary = {}
    runs = len(idx) * repeat
    for c in configs:
        n, s = c
        key = f"{n}w-{s}" if n > 1 else "1w"
        summary[key] = row = {
            "seconds": round(times[c], 2),
            "nodes": nodes[c],
            "speedup": round(times[base] / times[c], 2) if times[c] else None,
            "geomean_speedup": round(math.exp(logs[c] / runs), 2),
            "node_ratio": round(nodes[c] / nodes[base], 2) if nodes[base] else None,
            "busiest_cpu_s": round(cpu[c], 2),
            "cpu_speedup": round(cpu[base] / cpu[c], 2) if cpu[c] else None,
            "same_move": f"{same[c]}/{runs}",
            "mean_depth": round(depths[c] / runs, 2),
        }
        out(
            f"{key:10s} total {times[c]:7.2f} s  nodes {nodes[c]:8d}  speedup "
            f"x{row['speedup']:.2f} (geomean x{row['geomean_speedup']:.2f})  busiest worker's "
            f"CPU {cpu[c]:.2f} s (x{row['cpu_speedup']:.2f})  nodes x{row['node_ratio']:.2f}  "
            f"same move {row['same_move']}"
            + (f"  mean depth {row['mean_depth']:.2f}" if time_ms is not None else "")
        )
    return summary
