#!/usr/bin/env bash
# Install what the build needs, build dist/ and serve the game on http://127.0.0.1:${PORT:-8000}/
# For a fresh Debian machine (run as root) with Python 3.11 and Node 20.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore

need_apt=()
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}"
fi

npm ci --no-audit --no-fund
exec python3 build.py --serve --port "${PORT:-8000}" "$@"
