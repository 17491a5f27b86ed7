"""build.py: what dist/ holds, and how the numpy wheel is found and checked (no browser)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest
import site_build as build

NAME = "numpy-0.0-cp312-cp312-pyodide_2024_0_wasm32.whl"
DATA = b"pretend wheel bytes"


def fake_lock(data: bytes = DATA) -> dict:
    return {"packages": {"numpy": {"file_name": NAME, "sha256": hashlib.sha256(data).hexdigest()}}}


def test_dist_layout(dist_dir):
    info = json.loads((dist_dir / "build-info.json").read_text())
    assert (dist_dir / ".nojekyll").exists()
    site = ("index.html", "main.js", "engine/worker.js", "ui/board.js", "model/game.js",
            "style.css")
    for name in site:
        assert (dist_dir / name).is_file(), name
    pyo = dist_dir / "pyodide"
    assert sorted(p.name for p in pyo.iterdir()) == sorted(
        [*build.PYODIDE_FILES, info["numpyWheel"]]
    )
    lock = json.loads((pyo / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == info["pyodideVersion"] == "0.27.7"
    numpy = lock["packages"]["numpy"]
    assert build.sha256_file(pyo / numpy["file_name"]) == numpy["sha256"]
    wheel = dist_dir / info["wheel"]
    assert wheel.name.endswith("-py3-none-any.whl")
    assert build.sha256_file(wheel) == info["wheelSha256"]
    names = zipfile.ZipFile(wheel).namelist()
    assert "gomoku/protocol/webapi.py" in names and "gomoku/engine/facade.py" in names
    assert not [n for n in names if n.startswith("gomoku_lab/")]  # the lab never ships


def test_local_numpy_is_checked_and_copied(tmp_path):
    src, dest = tmp_path / "src", tmp_path / "dest"
    src.mkdir()
    dest.mkdir()
    (src / NAME).write_bytes(DATA)
    out = build.find_numpy(fake_lock(), src, "0.27.7", dest)
    assert out.read_bytes() == DATA


def test_local_numpy_with_wrong_hash_fails(tmp_path):
    (tmp_path / NAME).write_bytes(b"tampered")
    with pytest.raises(SystemExit, match="does not match"):
        build.find_numpy(fake_lock(), tmp_path, "0.27.7", tmp_path)


class FakeResponse(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("served, ok", [(DATA, True), (b"evil", False)])
def test_numpy_from_cdn_is_checked(tmp_path, monkeypatch, served, ok):
    urls = []

    def fake_urlopen(url, timeout):
        urls.append(url)
        return FakeResponse(served)

    monkeypatch.setattr(build.urllib.request, "urlopen", fake_urlopen)
    dest = tmp_path / "dest"
    dest.mkdir()
    if ok:
        assert build.find_numpy(fake_lock(), tmp_path / "missing", "0.27.7", dest).exists()
    else:
        with pytest.raises(SystemExit, match="does not match"):
            build.find_numpy(fake_lock(), tmp_path / "missing", "0.27.7", dest)
        assert list(dest.iterdir()) == []
    assert urls == [f"https://cdn.jsdelivr.net/pyodide/v0.27.7/full/{NAME}"]


def test_server_types_and_headers(base_url):
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy

    def head(path):
        with opener.open(base_url + path, timeout=30) as r:
            return r.headers

    assert head("pyodide/pyodide.asm.wasm")["Content-Type"] == "application/wasm"
    assert head("engine/worker.js")["Content-Security-Policy"] == build.WORKER_CSP
    assert head("index.html")["Content-Security-Policy"].startswith(build.PAGE_CSP)
    assert head("main.js")["Content-Type"].startswith("text/javascript")


def test_numpy_download_failure_says_what_to_do(tmp_path, monkeypatch):
    def offline(url, timeout):
        raise build.urllib.error.URLError("no network")

    monkeypatch.setattr(build.urllib.request, "urlopen", offline)
    with pytest.raises(SystemExit, match="--numpy-dir"):
        build.find_numpy(fake_lock(), tmp_path / "missing", "0.27.7", tmp_path)
    assert list(tmp_path.iterdir()) == []
