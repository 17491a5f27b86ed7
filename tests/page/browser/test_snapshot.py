"""The start-up snapshot: what build.py puts into dist/, the page starting from
it, answering as a start without it does, and falling back when it is missing, damaged or
absent from the build; the build failing clearly when it cannot be made."""

from __future__ import annotations

import gzip
import hashlib
import json
import re

import pytest
import site_build as build

SEND = "([m, id]) => window.gomokuTest.send(m, id, 120000)"
# node-limited level thinks (a function of position, level and seed) and a plain
# node-limited search without the book: the replies must not depend on how Pyodide started
THINKS = [
    {"moves": [[7, 7]], "limits": {"level": 3, "seed": 123}},
    {"moves": [[7, 7], [8, 8], [6, 8]], "limits": {"level": 5, "seed": 7}},
    {"moves": [[7, 7], [8, 8], [6, 8], [8, 6]], "limits": {"nodes": 3000, "book": False}},
]
KEYS = ("move", "nodes", "source", "score", "depth", "pv")


def snapshot_info(dist_dir) -> dict:
    return json.loads((dist_dir / "build-info.json").read_text())["snapshot"]


def start_path(game) -> str:
    return game.page.get_attribute("#board", "data-engine-start") or ""


def replies(game) -> list[dict]:
    out = []
    for i, think in enumerate(THINKS):
        msg = {"type": "think", "id": f"snap{i}", "reset": True, **think}
        reply = game.page.evaluate(SEND, [msg, msg["id"]])
        assert reply["type"] == "result", reply
        out.append({k: reply.get(k) for k in KEYS})
    return out


def test_the_snapshot_in_dist_matches_its_record_and_the_runtime(dist_dir):
    snap = snapshot_info(dist_dir)
    raw = gzip.decompress((dist_dir / snap["file"]).read_bytes())
    assert len(raw) == snap["bytes"] and snap["gzipBytes"] < snap["bytes"]
    assert hashlib.sha256(raw).hexdigest() == snap["sha256"]
    assert snap["file"] == f"snapshots/{snap['sha256'][:12]}/interpreter.snap.gz"
    info = json.loads((dist_dir / "build-info.json").read_text())
    assert snap["pyodideVersion"] == info["pyodideVersion"]
    # the build id in the snapshot's header is the one the shipped runtime checks against
    words = [int.from_bytes(raw[16 + 4 * i: 20 + 4 * i], "little") for i in range(8)]
    assert "".join(f"{w:08x}" for w in words) == snap["pyodideBuildId"]
    runtime = (dist_dir / "pyodide" / "pyodide.js").read_text()
    assert re.search(r'BUILD_ID:"([0-9a-f]{64})"', runtime).group(1) == snap["pyodideBuildId"]
    # nothing of the machine that built it (Node's command line would name the checkout)
    assert str(dist_dir.parent).encode() not in raw
    # the service worker caches it with the rest
    assert json.dumps(snap["file"]) in (dist_dir / "sw.js").read_text()


PROGRESS_SPY = """
window.__progress = [];
document.addEventListener('DOMContentLoaded', () => {
  const box = document.querySelector('#load-progress');
  new MutationObserver(() => window.__progress.push({hidden: box.hidden, pct: box.dataset.percent}))
    .observe(box, { attributes: true, attributeFilter: ['hidden', 'data-percent'] });
});
"""


def test_the_page_starts_from_the_snapshot_shows_its_progress_and_answers_as_without_it(
    game, console_log
):
    """One start from the snapshot: its progress bar, its path and marks, and the same
    replies as a start without it (the reload with ?snapshot=0)."""
    game.page.add_init_script(PROGRESS_SPY)
    game.open("test=1")
    # the progress: shown while loading, stage by stage, hidden when ready
    seen = game.page.evaluate("() => window.__progress")
    shown = [int(p["pct"]) for p in seen if not p["hidden"] and p["pct"] is not None]
    assert len(shown) >= 3 and shown == sorted(shown) and shown[-1] == 100, seen
    assert game.page.is_hidden("#load-progress")
    # one announcement when ready (the live region), not one per stage
    assert re.fullmatch(r"Engine ready \(\d+\.\d s\)\.", game.page.inner_text("#announce"))

    assert start_path(game) == "snapshot"
    ready = game.page.evaluate("() => window.gomokuTest.state().ready")
    assert ready["start"] == "snapshot" and "startReason" not in ready
    assert ready["marks"]["snapshot"] <= ready["marks"]["interpreter"] <= ready["marks"]["warmup"]
    with_snapshot = replies(game)

    game.open("test=1&snapshot=0", fresh=False)
    assert start_path(game) == "fresh"
    assert any("without a snapshot (snapshot=0" in m for m in console_log), console_log
    assert replies(game) == with_snapshot


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_a_missing_or_damaged_snapshot_falls_back_to_a_fresh_start(game, dist_dir, console_log,
                                                                   damage):
    snap = snapshot_info(dist_dir)
    if damage == "missing":
        game.page.route(f"**/{snap['file']}", lambda r: r.fulfill(status=404, body="gone"))
        reason = "HTTP 404"
    else:
        raw = bytearray(gzip.decompress((dist_dir / snap["file"]).read_bytes()))
        raw[len(raw) // 2] ^= 0xFF  # one byte of the interpreter's memory
        body = gzip.compress(bytes(raw), 1)
        game.page.route(f"**/{snap['file']}", lambda r: r.fulfill(status=200, body=body))
        reason = "does not match build-info.json"
    game.open("test=1")
    assert start_path(game) == "fresh"
    said = [m for m in console_log if "starting Pyodide without a snapshot" in m]
    assert said and "the snapshot cannot be used" in said[0] and reason in said[0], console_log
    ready = game.page.evaluate("() => window.gomokuTest.state().ready")
    assert reason in ready["startReason"]
    assert replies(game)[0]["move"] is not None  # the engine works


def test_a_site_without_a_snapshot_starts_fresh(game, console_log):
    def no_snapshot(route):
        info = json.loads(route.fetch().text())
        route.fulfill(status=200, json={**info, "snapshot": None})

    game.page.route("**/build-info.json", no_snapshot)
    game.open("test=1")
    assert start_path(game) == "fresh"
    assert any("build-info.json names no snapshot" in m for m in console_log), console_log


def test_the_build_fails_clearly_when_the_snapshot_cannot_be_made(tmp_path, monkeypatch):
    # a Pyodide folder without the runtime: Node cannot start it
    (tmp_path / "pyodide").mkdir()
    with pytest.raises(SystemExit, match=r"cannot make the start-up snapshot[\s\S]*--no-snapshot"):
        build.make_snapshot(tmp_path / "pyodide", tmp_path)
    assert not (tmp_path / "snapshots").exists()
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match="`node` is not on PATH"):
        build.make_snapshot(tmp_path / "pyodide", tmp_path)
