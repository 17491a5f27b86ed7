"""docs/PROTOCOL.md against the code, both ways: every message type, request field,
search-worker job kind, coord op, Gomocup command and INFO key the code handles or sends
is in the document, and everything the document lists is in the code; the replies' keys,
as the code builds them, are the document's and camelCase."""

from __future__ import annotations

import inspect
import re
from dataclasses import fields
from pathlib import Path

import pytest

from gomoku.engine import Limits
from gomoku.parallel import run_job
from gomoku.parallel.jobs import JOB_KEYS, limit_key
from gomoku.parallel.worker import HANDLERS as JOB_HANDLERS
from gomoku.parallel.worker import WorkerState
from gomoku.protocol import pbrain, webapi, webjson
from gomoku.protocol.webcoord import COORD_OPS

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "PROTOCOL.md"
WORKER_JS = ROOT / "web" / "engine" / "worker.js"

REQUESTS = "Engine worker: page to worker"
REPLIES = "Engine worker: worker to page"
JOBS = "Search workers: page to worker"
SEARCH_REPLIES = "Search workers: worker to page"
BRAIN = "Gomocup brain"


# ---- the document, read -----------------------------------------------------------------


def sections(text: str) -> dict[str, dict[str, str]]:
    """{"## heading": {"### heading": its text}} of a markdown text."""
    out: dict[str, dict[str, str]] = {}
    part = sub = None
    for line in text.splitlines():
        if line.startswith("## "):
            part, sub = line[3:].strip(), None
            out[part] = {}
        elif line.startswith("### ") and part is not None:
            sub = line[4:].strip()
            out[part][sub] = ""
        elif part is not None and sub is not None:
            out[part][sub] += line + "\n"
    return out


def names(part: dict[str, str]) -> set[str]:
    """The names a part's `### \\`name\\`` headings give (other headings are prose)."""
    return {m.group(1) for h in part if (m := re.fullmatch(r"`([\w-]+)`", h))}


def table(body: str) -> dict[str, bool]:
    """The first column of a section's tables: {name: optional} (``name``? is optional)."""
    rows = re.findall(r"^\| `(\w+)`(\?)? \|", body, re.M)
    return {name: bool(mark) for name, mark in rows}


def ops(body: str) -> set[str]:
    """The `- \\`op\\`:` items of a section."""
    return set(re.findall(r"^- `(\w+)`:", body, re.M))


@pytest.fixture(scope="module")
def doc() -> dict[str, dict[str, str]]:
    return sections(DOC.read_text())


def differences(documented: set[str], in_code: set[str]) -> dict[str, list[str]]:
    """What one side has and the other lacks ({} when they agree)."""
    out = {}
    if in_code - documented:
        out["in the code, not in docs/PROTOCOL.md"] = sorted(in_code - documented)
    if documented - in_code:
        out["in docs/PROTOCOL.md, not in the code"] = sorted(documented - in_code)
    return out


# ---- the code, read ---------------------------------------------------------------------


def js_sources() -> dict[Path, str]:
    """The page's JavaScript, generated data aside."""
    files = sorted((ROOT / "web").rglob("*.js"))
    return {f: f.read_text() for f in files if not f.name.endswith("-data.js")}


def python_reply_types() -> set[str]:
    """Every ``"type": "..."`` the worker's Python modules build."""
    found: set[str] = set()
    for f in (ROOT / "py" / "gomoku" / "protocol").glob("web*.py"):
        found |= set(re.findall(r'"type": "([\w-]+)"', f.read_text()))
    return found


def worker_js_posts() -> set[str]:
    """The types worker.js posts itself (loading, failures)."""
    return set(re.findall(r'post\(\{\s*type: "([\w-]+)"', WORKER_JS.read_text()))


def brain_info_keys() -> set[str]:
    """The INFO keys Brain._cmd_info reads."""
    source = inspect.getsource(pbrain.Brain._cmd_info)
    keys = set(re.findall(r'key == "(\w+)"', source))
    for group in re.findall(r"key in \(([^)]*)\)", source):
        keys |= set(re.findall(r'"(\w+)"', group))
    return keys


# ---- types both ways --------------------------------------------------------------------


def test_the_readers_find_what_they_look_for(doc):
    """A guard for the checks below: the readers see the document's parts and the code's
    types (an empty set on both sides would agree)."""
    assert {REQUESTS, REPLIES, JOBS, SEARCH_REPLIES, BRAIN} <= set(doc)
    assert {"think", "coord"} <= names(doc[REQUESTS]) and "result" in python_reply_types()
    assert {"progress", "ready", "fatal"} <= worker_js_posts()
    assert {"timeout_turn", "max_node"} <= brain_info_keys()


def test_a_new_type_on_either_side_is_a_difference(doc):
    """The comparison fails when the document or the code gains a type alone."""
    text = DOC.read_text().replace("### `init`", "### `frobnicate`\n\n### `init`")
    gained = names(sections(text)[REQUESTS]) - {"debug-hang"}
    assert differences(gained, set(webapi.HANDLERS)) == {
        "in docs/PROTOCOL.md, not in the code": ["frobnicate"]
    }
    code = set(webapi.HANDLERS) | {"frobnicate"}
    assert differences(names(doc[REQUESTS]) - {"debug-hang"}, code) == {
        "in the code, not in docs/PROTOCOL.md": ["frobnicate"]
    }


def test_every_request_type_is_documented_and_back(doc):
    handled_by_js = set(re.findall(r'data\.type === "([\w-]+)"', WORKER_JS.read_text()))
    assert differences(names(doc[REQUESTS]), set(webapi.HANDLERS) | handled_by_js) == {}
    assert set(webapi.HANDLERS) == set(webjson.REQUEST_KEYS)


def test_every_reply_type_is_documented_and_back(doc):
    assert differences(names(doc[REPLIES]), python_reply_types() | worker_js_posts()) == {}


def test_every_type_the_page_writes_is_a_documented_message(doc):
    documented = names(doc[REQUESTS]) | names(doc[REPLIES])
    for path, source in js_sources().items():
        written = set(re.findall(r'\btype: "([\w-]+)"', source))
        assert written <= documented, (path.name, sorted(written - documented))


def test_every_request_field_is_documented_and_back(doc):
    for kind, keys in webjson.REQUEST_KEYS.items():
        assert differences(set(table(doc[REQUESTS][f"`{kind}`"])), set(keys)) == {}, kind


def test_the_limits_are_documented_and_back(doc):
    think = table(doc[REQUESTS]["A think's `limits`"])
    assert differences(set(think), set(webjson.LIMIT_KEYS | webjson.LEVEL_KEYS)) == {}
    job = table(doc[JOBS]["A job's `limits`"])
    assert differences(set(job), {limit_key(f.name) for f in fields(Limits)}) == {}
    # one vocabulary: a think's limits and a job's share their names (the page's maxMs is
    # read as the engine's promise, a job's turnMs)
    assert webjson.LIMIT_KEYS - {"maxMs"} <= set(job)
    assert "maxMs" not in job and "turnMs" in job


def test_the_coord_ops_are_documented_and_back(doc):
    assert differences(ops(doc[REQUESTS]["`coord`"]), set(COORD_OPS)) == {}
    sent = set(re.findall(r'\bop: "(\w+)"', (ROOT / "web/engine/parallel-client.js").read_text()))
    assert sent <= set(COORD_OPS)


def test_the_search_workers_kinds_are_documented_and_back(doc):
    handled_by_js = set(re.findall(r'kind === "([\w-]+)"', WORKER_JS.read_text()))
    assert differences(names(doc[JOBS]), set(JOB_HANDLERS) | handled_by_js) == {}
    assert set(JOB_KEYS) == set(JOB_HANDLERS)
    client = (ROOT / "web/engine/parallel-client.js").read_text()
    sent = set(re.findall(r'\bkind: "([\w-]+)"', client))
    assert sent <= names(doc[JOBS])
    assert names(doc[SEARCH_REPLIES]) <= worker_js_posts()


def test_the_brains_commands_and_info_keys_are_documented_and_back(doc):
    commands = names(doc[BRAIN])
    assert differences(commands, set(pbrain._KNOWN_COMMANDS)) == {}
    info = table(doc[BRAIN]["`INFO`"])
    assert differences(set(info), brain_info_keys()) == {}


# ---- the replies' keys, as built --------------------------------------------------------

CAMEL = re.compile(r"[a-z][a-zA-Z0-9]*")
MOVES = [[7, 7], [8, 8], [7, 8], [8, 7]]
SAMPLES = [
    {"type": "init"},
    {"type": "status", "moves": MOVES},
    {"type": "think", "moves": MOVES, "limits": {"depth": 2, "multiPv": 2, "book": False}},
    {"type": "think", "moves": MOVES, "limits": {"level": 2, "seed": 1}},
    {"type": "threats", "moves": [[7, 7], [0, 0], [7, 8], [0, 1], [7, 9]]},
    {"type": "opening", "opening": "swap2", "moves": [], "nodes": 200},
    {"type": "review", "moves": MOVES, "index": 4, "nodes": 200},
    {"type": "judge", "moves": [[7, 7], [0, 0], [7, 8], [0, 1], [7, 9], [0, 2]],
     "move": [7, 10], "theme": "vcf", "nodes": 1000},
    {"type": "bench", "what": "threats", "depth": 2},
    {"type": "think", "moves": [], "limits": {"depth": 1, "time_ms": 5}},  # an error
]


def wrong_keys(value: object, path: str = "") -> list[str]:
    """Keys not camelCase, at any depth (the review's summary is keyed by class names)."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if not CAMEL.fullmatch(k):
                out.append(f"{path}.{k}")
            if k != "summary":
                out += wrong_keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for v in value:
            out += wrong_keys(v, path + "[]")
    return out


def check_reply(doc, reply: dict) -> None:
    assert not wrong_keys(reply), wrong_keys(reply)
    if reply["type"] == "info":
        documented = table(doc[REPLIES]["`result`"])
        assert set(reply) <= set(documented), sorted(set(reply) - set(documented))
        return
    documented = table(doc[REPLIES][f"`{reply['type']}`"])
    if not documented:  # a reply described in prose: error
        return
    assert set(reply) <= set(documented), (reply["type"], sorted(set(reply) - set(documented)))
    required = {k for k, optional in documented.items() if not optional}
    assert required <= set(reply), (reply["type"], sorted(required - set(reply)))


def test_the_replies_carry_the_documented_fields_in_camel_case(doc):
    api = webapi.WebApi()
    seen = set()
    for i, message in enumerate(SAMPLES):
        infos: list[dict] = []
        reply = api.handle({**message, "id": i}, infos.append)
        for r in [*infos, reply]:
            check_reply(doc, r)
            seen.add(r["type"])
    assert {"ready", "status", "info", "result", "threats", "opening", "review", "judge",
            "bench", "error"} <= seen
    assert reply["message"] == "unknown field(s) in limits: time_ms"


def test_a_parallel_search_speaks_camel_case_both_ways(doc):
    """The coord replies, the jobs, the search workers' answers (progress too)."""
    api = webapi.WebApi()
    start = {"type": "coord", "id": 1, "op": "start", "moves": MOVES, "workers": 2,
             "limits": {"depth": 2, "book": False}}
    reply = api.handle(start)
    state = [WorkerState(), WorkerState()]
    for step in range(20):
        check_reply(doc, reply)
        if reply["done"]:
            break
        for w, job in reply["jobs"]:
            assert not wrong_keys(job) and set(job) <= JOB_KEYS[job["kind"]], job
            progress: list[dict] = []
            answer = run_job(job, progress.append, state[w])
            assert answer["status"] == "ok", answer
            for a in [*progress, answer]:
                assert not wrong_keys(a), wrong_keys(a)
            reply = api.handle({"type": "coord", "id": 2 + step, "op": "result", "worker": w,
                                "result": answer})
            check_reply(doc, reply)
            if reply["done"]:
                break
        else:
            reply = api.handle({"type": "coord", "id": 100 + step, "op": "tick"})
    assert reply["done"] and reply["result"]["type"] == "result"
    check_reply(doc, reply["result"])
