"""Browser tests: headless Chromium (the Debian package at /usr/bin/chromium) against the
built dist/, served by build.py's server on 127.0.0.1 with a random port.

dist/ is built once per session (skipped when it is newer than every input;
GOMOKU_TEST_REBUILD=1 forces a build, GOMOKU_TEST_NO_REBUILD=1 uses dist/ as it is).
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[3]
STARTED = time.time()
DIST = ROOT / "dist"
sys.path.insert(0, str(ROOT / "scripts"))
from headless import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# Time limits: generous, so that a slow or busy machine does not fail a test.
READY_MS = 180_000
MOVE_MS = 120_000
# the engine's moves in 200 ms, analysis slices of 300 ms: the query of the warm tab, which
# every test opening the page with it shares (a test with another query loads the page)
DEFAULT_QUERY = "test=1&time=200&slice=300"
VIEWPORT = {"width": 1280, "height": 800}
# a phone: its width, touch, and two device pixels per CSS pixel
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
PLANT_HTML = '<!doctype html><title>plant</title><link rel="icon" href="data:,">'


def _load_site_build():
    """build.py at the repo root, as module `site_build` (the name `build` may be taken
    by PyPA's build package)."""
    spec = importlib.util.spec_from_file_location("site_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["site_build"] = module
    spec.loader.exec_module(module)
    return module


build = _load_site_build()


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _inputs() -> list[Path]:
    files = [ROOT / "build.py", ROOT / "pyproject.toml", ROOT / "package-lock.json",
             ROOT / "scripts" / "make_snapshot.mjs"]
    for folder in (ROOT / "web", ROOT / "py" / "gomoku"):
        files += [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return files


def _dist_is_fresh() -> bool:
    info = DIST / "build-info.json"
    if not info.exists():
        return False
    built = info.stat().st_mtime
    return all(p.stat().st_mtime <= built for p in _inputs() if p.exists())


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    if os.environ.get("GOMOKU_TEST_NO_REBUILD") and (DIST / "build-info.json").exists():
        return DIST
    # pytest-xdist's workers (scripts/test.sh) each ask: one builds, the others wait for it
    # and find dist/ fresh (built after they started, for GOMOKU_TEST_REBUILD)
    key = hashlib.sha1(bytes(ROOT)).hexdigest()[:12]
    with (Path(tempfile.gettempdir()) / f"gomoku-dist-{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        info = DIST / "build-info.json"
        rebuild = os.environ.get("GOMOKU_TEST_REBUILD") and not (
            info.exists() and info.stat().st_mtime > STARTED
        )
        if rebuild or not _dist_is_fresh():
            subprocess.run([sys.executable, str(ROOT / "build.py")], check=True, cwd=ROOT)
    return DIST


@pytest.fixture(scope="session")
def base_url(dist_dir: Path) -> str:
    """Overrides pytest-playwright's base_url: our own server for dist/."""
    server = build.make_server(dist_dir, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: apt-get install -y chromium (see scripts/test.sh)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
        "headless": True,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": VIEWPORT}


@pytest.fixture
def console_log(request):
    """Every console message of the test's page and its worker (the warm tab's, for a test
    marked warm), as 'type: text' strings."""
    if _warm(request):
        page = request.getfixturevalue("warm_tab").page
    else:
        page = request.getfixturevalue("page")
    messages: list[str] = []

    def on_console(m):
        messages.append(f"{m.type}: {m.text}")

    def on_error(e):
        messages.append(f"pageerror: {e}")

    page.on("console", on_console)
    page.on("pageerror", on_error)
    yield messages
    page.remove_listener("console", on_console)
    page.remove_listener("pageerror", on_error)


class GamePage:
    """The game page in one browser tab, with the waits the tests share."""

    def __init__(self, page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url

    def open(self, query: str = DEFAULT_QUERY, fresh: bool = True) -> None:
        """Open the page (with an empty localStorage when fresh) and wait for the engine."""
        if fresh:
            self._plant_now({})
        self.page.goto(f"{self.base_url}?{query}")
        self.wait_ready()

    def plant(self, items: dict[str, str]) -> None:
        """Leave the page for an empty one of the same origin (so the same localStorage;
        no engine is started; answered by the test itself, with an icon so that Chromium
        asks for no /favicon.ico) and make the storage exactly these items, for the page's
        next load (open(fresh=False))."""
        self._plant_now(items)

    def _plant_now(self, items: dict[str, str]) -> None:
        url = f"{self.base_url}__plant__.html"
        self.page.route(url, lambda r: r.fulfill(content_type="text/html", body=PLANT_HTML))
        try:
            self.page.goto(url)
            self.page.evaluate(
                "items => { localStorage.clear();"
                " for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
                items,
            )
        finally:
            self.page.unroute(url)

    def wait_ready(self) -> None:
        self.page.wait_for_function(
            "() => document.querySelector('#board').dataset.engine === 'ready'", timeout=READY_MS
        )

    def status(self) -> str:
        return self.page.get_attribute("#board", "data-status") or ""

    def moves(self) -> list[str]:
        return (self.page.get_attribute("#board", "data-moves") or "").split()

    def wait_moves(self, count: int, timeout: int = MOVE_MS) -> list[str]:
        self.page.wait_for_function(
            "n => (document.querySelector('#board').dataset.moves || '').split(' ')"
            ".filter(Boolean).length >= n",
            arg=count,
            timeout=timeout,
        )
        return self.moves()

    def wait_status(self, *codes: str, timeout: int = MOVE_MS) -> str:
        self.page.wait_for_function(
            "codes => codes.includes(document.querySelector('#board').dataset.status)",
            arg=list(codes),
            timeout=timeout,
        )
        return self.status()

    def size(self) -> int:
        return int(self.page.get_attribute("#board", "data-size") or 15)

    def cell_point(self, text: str) -> tuple[float, float]:
        """Page coordinates of the intersection named like "h8" on the board shown."""
        box = self.page.locator("#board").bounding_box()
        x = "abcdefghijklmnopqrst".index(text[0])
        y = self.size() - int(text[1:])
        # data-grid: "margin step s", the board drawn s pixels wide (BoardView.draw)
        margin, step, s = map(float, self.page.get_attribute("#board", "data-grid").split())
        k = box["width"] / s
        return box["x"] + (margin + x * step) * k, box["y"] + (margin + y * step) * k

    def click_cell(self, text: str) -> None:
        self.page.mouse.click(*self.cell_point(text))

    def levels(self) -> dict:
        """{"def": DEFAULT_LEVEL, "data": LEVEL_DATA} of the page's web/model/levels-data.js,
        each level with its name and description in each language (the page's text, by
        its key: {"en": ..., "zh": ...})."""
        return self.page.evaluate(
            "async () => { const m = await import('./model/levels-data.js');"
            " const {TABLES} = await import('./model/i18n.js');"
            " const by = (k) => ({en: TABLES.en[k], zh: TABLES.zh[k]});"
            " const data = m.LEVEL_DATA.map((l) => ({...l, name: by('level_' + l.key),"
            " description: by('levelAbout_' + l.key)}));"
            " return {def: m.DEFAULT_LEVEL, data}; }"
        )

    def timed_level(self, unlimited: bool = False) -> int:
        """The number of the level that is the full engine on the clock (Expert; with
        unlimited, the one that thinks until Move now)."""
        data = self.levels()["data"]
        return next(
            lv["number"] for lv in data
            if lv["timeMs"] is not None and (lv["timeMs"] == 0) == unlimited
        )

    def set_level(self, number: int) -> None:
        """Choose the level of the game on the board (the toolbar's chooser)."""
        self.page.select_option("#level", str(number))


@dataclass
class WarmTab:
    """One tab per pytest process (one per xdist worker) whose engine is started once
    (Pyodide takes 3 s and 6 s of CPU to start): a test marked warm, in any module, finds
    it as on a first visit, through ?test=1's reset hook."""

    page: object
    dirty: bool = False  # a test failed on it: the next open() loads the page anew


@pytest.fixture(scope="session")
def warm_tab(browser, browser_context_args):
    context = browser.new_context(**browser_context_args)
    tab = WarmTab(context.new_page())
    yield tab
    context.close()


class WarmGamePage(GamePage):
    """GamePage on the warm tab. open(query) of the query the tab was loaded with
    clears the storage and resets the game and the settings in place
    (window.gomokuTest.reset: the engine's workers are kept); plant(items) then
    open(query, fresh=False) does the same with exactly these items stored, read as a load
    reads them (reset(items)). Any other query, and open(fresh=False) with nothing planted
    (a reload), load the page as GamePage does."""

    def __init__(self, tab: WarmTab, base_url: str) -> None:
        super().__init__(tab.page, base_url)
        self.tab = tab
        self.planted: dict[str, str] | None = None

    def _resettable(self, query: str) -> bool:
        """The tab shows the page of this query, engine ready, and may be reset."""
        return (
            self.page.url.split("#")[0] == f"{self.base_url}?{query}"
            and not self.tab.dirty
            and self.page.evaluate(
                "() => document.querySelector('#board')?.dataset.engine === 'ready'"
                " && !!window.gomokuTest?.reset"
            )
        )

    def plant(self, items: dict[str, str]) -> None:
        """Kept for the next open(fresh=False), which plants them itself."""
        self.planted = dict(items)

    def open(self, query: str = DEFAULT_QUERY, fresh: bool = True) -> None:
        planted, self.planted = self.planted, None
        if fresh:
            planted = None
        if (fresh or planted is not None) and self._resettable(query):
            self.page.evaluate("items => window.gomokuTest.reset(items)", planted)
            self.wait_ready()
        else:
            if planted is not None:
                self._plant_now(planted)
            super().open(query, fresh)
        self.tab.dirty = False


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


def _warm(request) -> bool:
    return request.node.get_closest_marker("warm") is not None


@pytest.fixture(scope="session")
def phone_tab(browser):
    """The warm tab of the phone tests (a context with touch: PHONE), one per process."""
    context = browser.new_context(**PHONE)
    tab = WarmTab(context.new_page())
    yield tab
    context.close()


def _on_warm_tab(request, tab: WarmTab, viewport: dict, base_url: str):
    """WarmGamePage on ``tab``, its window set to ``viewport`` first; the tab marked dirty
    when the test fails (the next open() loads the page anew)."""
    tab.page.set_viewport_size(viewport)
    yield WarmGamePage(tab, base_url)
    if request.node.stash.get(FAILED, False):
        tab.dirty = True


@pytest.fixture
def phone_game(request, phone_tab, base_url) -> WarmGamePage:
    """The game page on a phone (PHONE), warm: WarmGamePage on the phone's tab."""
    yield from _on_warm_tab(request, phone_tab, PHONE["viewport"], base_url)


@pytest.fixture
def game(request, base_url) -> GamePage:
    """The game page. In a new browser context (every open() starts the engine from cold),
    or for a test marked warm, on the warm tab (WarmGamePage; the window set back
    to the desktop size before the test)."""
    if not _warm(request):
        yield GamePage(request.getfixturevalue("page"), base_url)
        return
    yield from _on_warm_tab(request, request.getfixturevalue("warm_tab"), VIEWPORT, base_url)


# ---- the page's language ----------------------------------------------------------------

# Words that stay Latin in the Chinese page: names, formats, key names, the language chooser's
# own name for English.
LATIN_OK = {
    "Pyodide", "Python", "Piskvorky", "Piskvork", "psq", "Elo", "English", "Gomocup", "Alt", "Ctrl",
}


def choose_language(page, code: str) -> None:
    """Open Display (if closed) and choose the language ("en" or "zh")."""
    if not page.eval_on_selector("details.display", "d => d.open"):
        page.click("details.display summary")
    page.select_option("#opt-lang", code)


def choose_chinese(page) -> None:
    """Open Display (if closed) and choose 简体中文."""
    choose_language(page, "zh")


def visible_text(page) -> str:
    """The visible text, labels and titles of the page and its open dialog (the language
    chooser's own names left out), one piece a line."""
    return page.evaluate(
        """() => {
          const out = [];
          const visible = (el) => !!(el.offsetWidth || el.offsetHeight
            || el.getClientRects().length);
          const root = document.querySelector('dialog[open]') || document.body;
          const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const el = n.parentElement;
            if (!el || !visible(el) || el.closest('#opt-lang, script, style')) continue;
            if (el.closest('textarea, input')) continue;
            out.push(n.textContent);
          }
          for (const el of root.querySelectorAll('[aria-label], [title]')) {
            if (el.closest('#opt-lang')) continue;
            out.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
          }
          return out.join('\\n');
        }"""
    )


def english_words(page) -> list[str]:
    """The Latin words of 3+ letters in visible_text (coordinates like h8 and numbers are
    not words)."""
    text = visible_text(page)
    return [w for w in re.findall(r"(?<![\w.])[A-Za-z]{3,}(?![\w])", text) if w not in LATIN_OK]


def chinese_text(page) -> list[str]:
    """The runs of Chinese characters and punctuation in visible_text."""
    return re.findall(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+", visible_text(page))


@dataclass
class Requests:
    """Every URL the page and its workers asked for; the ones not on 127.0.0.1 (nor
    data:/blob:) were aborted and are also listed in ``blocked``."""

    seen: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)


@pytest.fixture
def localhost_only(context) -> Requests:
    """Route every request of the browser context: pass local ones, abort the rest."""
    requests = Requests()

    def route(r):
        url = r.request.url
        requests.seen.append(url)
        if url.startswith(("data:", "blob:")) or urlparse(url).hostname == "127.0.0.1":
            r.continue_()
        else:
            requests.blocked.append(url)
            r.abort()

    context.route("**/*", route)
    return requests
