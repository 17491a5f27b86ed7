#!/usr/bin/env python3
"""Build the static web site into dist/ and optionally serve it on 127.0.0.1.

    python build.py                      # build dist/
    python build.py --serve [--port N]   # build, then serve dist/ on http://127.0.0.1:N/

dist/ holds everything the page needs; it makes no request to any other host:

    index.html, main.js, model/, engine/, ui/, ... (copied from web/, folders kept)
    manifest.webmanifest, icon*.{svg,png}   web app manifest (installable)
    sw.js                  service worker (offline): build.py fills in the build id and the
                           list of every file to cache
    build-info.json        version, wheel path and sha256, Pyodide version, the snapshot's
                           path, sha256 and versions (read by the worker)
    snapshots/<hash>/interpreter.snap.gz   a memory snapshot of the started interpreter
                           (made here by scripts/make_snapshot.mjs in Node), gzip'd; the
                           worker starts from it (README: "The start-up snapshot")
    pyodide/               the Pyodide runtime files from node_modules/pyodide (npm ci) and
                           the numpy wheel next to pyodide-lock.json
    wheels/<hash>/*.whl    our engine wheel (py3-none-any); the hash folder busts caches;
                           with the engine's warm-up tables built here first
                           (python -m gomoku.engine.warmup --write into py/gomoku/data/,
                           files not kept in git: gomoku.core.shipped)
    .nojekyll              GitHub Pages: serve files as they are

The numpy wheel comes from a local folder (--numpy-dir, env GOMOKU_NUMPY_DIR, default
../shared/pyodide-packages beside the repo) or, when it is not there, from the official
Pyodide CDN for the pinned version; either way its sha256 must match pyodide-lock.json.

The snapshot needs Node (the one that runs the tests). If it cannot be made the build
fails, unless --no-snapshot asks for a site without one (the worker then starts as
before the snapshot existed). --no-prebuilt builds a wheel without the warm-up tables (the
worker computes them as it starts, as before they were shipped): for measurements.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
DEFAULT_NUMPY_DIR = ROOT.parent / "shared" / "pyodide-packages"
CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/{file}"

# The runtime files Pyodide loads (by itself or through our worker). Nothing else from
# the npm package is copied: no source maps, type declarations or Node-only helpers.
PYODIDE_FILES = [
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]
WEB_SUFFIXES = {".html", ".js", ".mjs", ".css", ".svg", ".png", ".ico", ".webmanifest", ".txt"}

# Content-Security-Policy. The page (web/index.html, as a meta tag; tests/page/browser checks
# that the texts agree) loads only its own scripts, styles, icon and web app manifest and
# starts a worker and a service worker (worker-src); it runs no WebAssembly itself.
PAGE_CSP = (
    "default-src 'none'; "
    "script-src 'self'; "
    "worker-src 'self'; "
    "style-src 'self'; "
    "img-src 'self'; "
    "manifest-src 'self'; "
    "base-uri 'none'; "
    "form-action 'none'"
)
# A meta tag does not reach a worker: its policy comes only from the HTTP headers of the
# worker script. Pyodide needs 'wasm-unsafe-eval' (WebAssembly compilation) besides its own
# scripts and fetches, nothing more. GitHub Pages cannot send headers; `--serve` does, so
# the tests run the engine under this policy.
WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"
# The service worker only fetches the site's own files into its cache.
SW_CSP = "default-src 'none'; connect-src 'self'"
SW_BUILD_LINE = 'const BUILD = "dev"; // filled in by build.py'
SW_FILES_LINE = "const FILES = []; // filled in by build.py"


def stage_service_worker(staging: Path, build_id: str) -> None:
    """Fill in sw.js: the cache name's build id and every file of the site (but itself)."""
    sw = staging / "sw.js"
    text = sw.read_text()
    if SW_BUILD_LINE not in text or SW_FILES_LINE not in text:
        raise SystemExit("web/sw.js: the BUILD / FILES lines build.py fills in are missing")
    files = ["./"] + sorted(
        f.relative_to(staging).as_posix()
        for f in staging.rglob("*")
        if f.is_file() and f.name not in ("sw.js", ".nojekyll")
    )
    text = text.replace(SW_BUILD_LINE, f"const BUILD = {json.dumps(build_id)};")
    text = text.replace(SW_FILES_LINE, f"const FILES = {json.dumps(files, indent=0)};")
    sw.write_text(text)


PUZZLES_PROVEN = ROOT / "build" / "puzzles-proven.txt"  # sha256 of the data last proven


def check_puzzles() -> None:
    """The puzzle collection (py/gomoku/data/puzzles.txt): every puzzle's shape
    (gomoku.puzzles.check_shape: replays, empty solution cells, renju's forbidden points,
    no duplicate under symmetry) and, once per version of the file (a proof of the whole
    collection takes minutes), every puzzle proven again (gomoku.puzzles.check); and the
    page's generated data (web/model/puzzles-data.js, levels-data.js, engine-data.js)
    current (gomoku.protocol.page_data). A failure stops the build naming the puzzle or
    the file."""
    sys.path.insert(0, str(ROOT / "py"))
    from gomoku.protocol.page_data import COMMAND, stale_files
    from gomoku.puzzles import DATA_FILE, PuzzleError, check, check_shape, load

    data = ROOT / "py" / "gomoku" / "data" / DATA_FILE
    digest = sha256_file(data)
    try:
        puzzles = load()
        check_shape(puzzles)
        if not (PUZZLES_PROVEN.exists() and PUZZLES_PROVEN.read_text().strip() == digest):
            log(f"proving {len(puzzles)} puzzles (once per version of {DATA_FILE})")
            for p in puzzles:
                check(p)
            PUZZLES_PROVEN.parent.mkdir(exist_ok=True)
            PUZZLES_PROVEN.write_text(digest + "\n")
    except PuzzleError as exc:
        raise SystemExit(f"{DATA_FILE}: {exc}") from None
    stale = stale_files(WEB / "model")
    if stale:
        raise SystemExit(f"web/model/{', '.join(stale)} not current: run {COMMAND}")


def log(msg: str) -> None:
    print(f"[build] {msg}", file=sys.stderr, flush=True)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def project_version() -> str:
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["project"]["version"]


def pyodide_version() -> str:
    pkg = PYODIDE_NPM / "package.json"
    if not pkg.exists():
        raise SystemExit(
            "node_modules/pyodide is missing: run `npm ci` first (pyodide is pinned in "
            "package.json / package-lock.json)"
        )
    return json.loads(pkg.read_text())["version"]


def prepare_prebuilt(ship: bool) -> None:
    """The engine's warm-up tables in py/gomoku/data/ (gomoku.core.shipped), written
    afresh so that the wheel packs current ones; with ship False, removed (a wheel
    without them)."""
    data = ROOT / "py" / "gomoku" / "data"
    for old in data.glob("prebuilt-*"):
        old.unlink()
    if not ship:
        log("warm-up tables: not shipped (--no-prebuilt)")
        return
    cmd = [sys.executable, "-m", "gomoku.engine.warmup", "--write", str(data)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the warm-up tables could not be built:\n{done.stderr}")
    log(f"warm-up tables: {len(done.stdout.splitlines())} files in {data}")


def build_wheel(out_dir: Path) -> Path:
    """Build our py3-none-any wheel with pip (PEP 517, setuptools backend)."""
    with tempfile.TemporaryDirectory(prefix="gomoku-wheel-") as tmp:
        cmd = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", tmp]
        log("building wheel: " + " ".join(cmd[1:]))
        subprocess.run(cmd, check=True, cwd=ROOT)
        wheels = list(Path(tmp).glob("*.whl"))
        if len(wheels) != 1 or not wheels[0].name.endswith("-py3-none-any.whl"):
            raise SystemExit(f"expected one py3-none-any wheel, got {[w.name for w in wheels]}")
        out_dir.mkdir(parents=True, exist_ok=True)
        target = out_dir / wheels[0].name
        shutil.copy2(wheels[0], target)
    # pip leaves setuptools' scratch folders in the source tree
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    for egg in (ROOT / "py").glob("*.egg-info"):
        shutil.rmtree(egg, ignore_errors=True)
    return target


def find_numpy(lock: dict, numpy_dir: Path | None, version: str, dest: Path) -> Path:
    """Put the numpy wheel named in pyodide-lock.json into dest/ with its sha256 checked."""
    entry = lock["packages"]["numpy"]
    name, want = entry["file_name"], entry["sha256"]
    target = dest / name
    candidates = []
    if numpy_dir is not None:
        candidates.append(numpy_dir / name)
    for path in candidates:
        if path.exists():
            got = sha256_file(path)
            if got != want:
                raise SystemExit(f"{path}: sha256 {got} does not match pyodide-lock.json {want}")
            shutil.copyfile(path, target)
            log(f"numpy wheel from {path}")
            return target
    url = CDN.format(version=version, file=name)
    log(f"numpy wheel not found locally ({numpy_dir}); downloading {url}")
    tmp = target.with_suffix(".part")
    try:
        with urllib.request.urlopen(url, timeout=120) as resp, tmp.open("wb") as f:
            shutil.copyfileobj(resp, f)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise SystemExit(
            f"cannot download {url}: {exc}\nPut {name} into a folder and pass --numpy-dir "
            "(or set GOMOKU_NUMPY_DIR)."
        ) from None
    got = sha256_file(tmp)
    if got != want:
        tmp.unlink()
        raise SystemExit(f"downloaded {name}: sha256 {got} does not match pyodide-lock.json {want}")
    tmp.rename(target)
    return target


def make_snapshot(pyodide_dir: Path, staging: Path) -> dict:
    """The interpreter's memory snapshot, gzip'd into staging/snapshots/<hash>/; its
    build-info.json entry. Raises SystemExit with the reason when it cannot be made."""
    t0 = time.monotonic()
    node = shutil.which("node")
    if node is None:
        raise SystemExit("cannot make the start-up snapshot: `node` is not on PATH "
                         "(or build with --no-snapshot for a site without one)")
    with tempfile.TemporaryDirectory(prefix="gomoku-snapshot-") as tmp:
        raw_path = Path(tmp) / "interpreter.snap"
        cmd = [node, str(ROOT / "scripts" / "make_snapshot.mjs"), str(pyodide_dir), str(raw_path)]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0 or not raw_path.exists():
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-5:])[-1500:]
            raise SystemExit(f"cannot make the start-up snapshot ({' '.join(cmd[1:])} exited "
                             f"{proc.returncode}):\n{tail}\n(or build with --no-snapshot for a "
                             "site without one)")
        made = json.loads(proc.stdout.strip().splitlines()[-1])
        raw = raw_path.read_bytes()
    packed = gzip.compress(raw, 6, mtime=0)
    digest = hashlib.sha256(raw).hexdigest()
    folder = staging / "snapshots" / digest[:12]
    folder.mkdir(parents=True)
    (folder / "interpreter.snap.gz").write_bytes(packed)
    node_version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    node_version = node_version.strip()
    log(f"snapshot: {len(raw) / 1e6:.1f} MB, gzip {len(packed) / 1e6:.1f} MB, "
        f"{time.monotonic() - t0:.1f} s (Node {node_version})")
    return {
        "file": (folder / "interpreter.snap.gz").relative_to(staging).as_posix(),
        "encoding": "gzip",
        "bytes": len(raw),
        "gzipBytes": len(packed),
        "sha256": digest,
        "pyodideVersion": made["pyodideVersion"],
        "pyodideBuildId": made["buildId"],
        "madeWith": f"node {node_version}",
    }


def build(out: Path, numpy_dir: Path | None, snapshot: bool = True, prebuilt: bool = True) -> dict:
    t0 = time.monotonic()
    if not (WEB / "index.html").exists():
        raise SystemExit("web/index.html is missing")
    check_puzzles()
    version = pyodide_version()
    staging = Path(tempfile.mkdtemp(prefix=".dist-", dir=out.parent))
    try:
        # web files
        for src in sorted(WEB.rglob("*")):
            if src.is_file() and src.suffix in WEB_SUFFIXES:
                dst = staging / src.relative_to(WEB)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
        (staging / ".nojekyll").write_text("")

        # Pyodide runtime + numpy
        pyo = staging / "pyodide"
        pyo.mkdir()
        for name in PYODIDE_FILES:
            shutil.copy2(PYODIDE_NPM / name, pyo / name)
        lock = json.loads((pyo / "pyodide-lock.json").read_text())
        numpy_whl = find_numpy(lock, numpy_dir, version, pyo)
        snapshot_info = make_snapshot(pyo, staging) if snapshot else None
        if snapshot_info and snapshot_info["pyodideVersion"] != version:
            raise SystemExit(f"the snapshot was made by Pyodide {snapshot_info['pyodideVersion']}, "
                             f"the site ships {version}")

        # our wheel, in a folder named by its hash so browsers never use a stale copy
        tmp_wheels = staging / "wheels-tmp"
        prepare_prebuilt(prebuilt)
        wheel = build_wheel(tmp_wheels)
        digest = sha256_file(wheel)
        wheel_dir = staging / "wheels" / digest[:12]
        wheel_dir.mkdir(parents=True)
        wheel = wheel.rename(wheel_dir / wheel.name)
        shutil.rmtree(tmp_wheels)

        # one short id for this build's own files (web + wheel), shown by the page
        web_hash = hashlib.sha256()
        for f in sorted(staging.rglob("*")):
            rel = f.relative_to(staging)
            if f.is_file() and rel.parts[0] not in ("pyodide", "snapshots"):
                web_hash.update(rel.as_posix().encode() + sha256_file(f).encode())
        info = {
            "name": "gomoku",
            "version": project_version(),
            "build": web_hash.hexdigest()[:12],
            "builtAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "wheel": wheel.relative_to(staging).as_posix(),
            "wheelSha256": digest,
            "pyodideVersion": version,
            "numpyWheel": numpy_whl.name,
            "snapshot": snapshot_info,
        }
        (staging / "build-info.json").write_text(json.dumps(info, indent=2) + "\n")
        stage_service_worker(staging, f"{info['build']}-pyodide{version}")

        for d in [staging, *(p for p in staging.rglob("*") if p.is_dir())]:
            d.chmod(0o755)
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    log(f"dist ready: {out} ({size / 1e6:.1f} MB, {time.monotonic() - t0:.1f} s)")
    return info


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right types, no caching, and the CSP headers."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".whl": "application/octet-stream",
        ".zip": "application/zip",
        ".gz": "application/gzip",
        ".webmanifest": "application/manifest+json",
    }

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        path = self.path.split("?", 1)[0]
        if path.endswith("/sw.js"):
            self.send_header("Content-Security-Policy", SW_CSP)
        elif path.endswith("worker.js"):
            self.send_header("Content-Security-Policy", WORKER_CSP)
        elif path.endswith((".html", "/")):
            self.send_header("Content-Security-Policy", PAGE_CSP + "; frame-ancestors 'none'")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        if os.environ.get("GOMOKU_SERVE_LOG"):
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # a browser that drops a connection it no longer needs is not an error
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(directory: Path, port: int = 0) -> Server:
    """An HTTP server for `directory` on 127.0.0.1 (port 0 = any free port)."""
    return Server(("127.0.0.1", port), functools.partial(Handler, directory=str(directory)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (dist/)")
    ap.add_argument(
        "--numpy-dir",
        type=Path,
        default=None,
        help="folder holding the Pyodide numpy wheel (env GOMOKU_NUMPY_DIR; "
        "default ../shared/pyodide-packages); else it is downloaded from the Pyodide CDN",
    )
    ap.add_argument(
        "--no-snapshot",
        action="store_true",
        help="a site without the start-up snapshot (the build otherwise fails when it "
        "cannot be made)",
    )
    ap.add_argument(
        "--no-prebuilt",
        action="store_true",
        help="a wheel without the engine's warm-up tables (for measurements)",
    )
    ap.add_argument("--serve", action="store_true", help="serve dist/ after building")
    ap.add_argument(
        "--no-build", action="store_true", help="with --serve: serve the existing dist/"
    )
    ap.add_argument("--port", type=int, default=8000, help="port for --serve (0 = any free port)")
    args = ap.parse_args(argv)

    numpy_dir = args.numpy_dir or (
        Path(os.environ["GOMOKU_NUMPY_DIR"])
        if os.environ.get("GOMOKU_NUMPY_DIR")
        else DEFAULT_NUMPY_DIR
    )
    out = args.out.resolve()
    if not (args.serve and args.no_build):
        build(out, numpy_dir, snapshot=not args.no_snapshot, prebuilt=not args.no_prebuilt)
    if args.serve:
        server = make_server(out, args.port)
        host, port = server.server_address[:2]
        print(f"Serving {out} at http://{host}:{port}/  (Ctrl+C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
