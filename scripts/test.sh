#!/usr/bin/env bash
# Install what the tests need and run all of them: ruff, the page's pure modules under
# node --test (tests/page/node), then pytest over tests/ (engine and adapter tests in CPython,
# browser tests in headless Chromium), on as many pytest-xdist workers as there are cores
# (arguments go on to pytest: `-n 0` runs it in one process).
# For a fresh Debian machine (run as root) with Python 3.11 and Node 20; CI runs this.
set -uo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

set -e
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
python3 -m pip install -q pytest pytest-xdist playwright pytest-playwright hypothesis ruff numpy
npm ci --no-audit --no-fund --loglevel=error
set +e

echo "== ruff check"
python3 -m ruff check .
ruff_rc=$?

echo "== node --test tests/page/node"
node --test --test-reporter=spec tests/page/node/
node_rc=$?

echo "== pytest"
# worksteal: a worker that runs out of tests takes some of the other's (the browser
# modules are long; a module split between the workers starts its warm tab on each)
python3 -m pytest tests -p no:cacheprovider -n auto --dist worksteal "$@"
pytest_rc=$?
if [ "$pytest_rc" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
fi

if [ "$ruff_rc" -ne 0 ] || [ "$node_rc" -ne 0 ] || [ "$pytest_rc" -ne 0 ]; then
  echo "FAILED: ruff exit $ruff_rc, node --test exit $node_rc, pytest exit $pytest_rc" >&2
  exit 1
fi
