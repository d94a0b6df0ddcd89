#!/usr/bin/env bash
# Installs what the two README commands need and is missing: npm packages (npm ci) and, when run as
# root, the Debian packages ffmpeg, nats-server and postgresql (and chromium for npm test). Nothing is
# fetched from anywhere else.
# A service already given by URL (NATS_URL, DATABASE_URL) needs no local binary.
set -euo pipefail

missing=()
command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 || missing+=(ffmpeg)
if [ -z "${NATS_URL:-}" ] || [ "${REQUIRE_LOCAL_SERVICES:-}" = 1 ]; then
  command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
fi
if [ -z "${DATABASE_URL:-}" ] || [ "${REQUIRE_LOCAL_SERVICES:-}" = 1 ]; then
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian packages: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  else
    echo "Missing Debian packages: ${missing[*]}. Install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

# The test command renders docker-compose.yml with a compose CLI (test/deployment-config.spec.ts); any
# one will do, no daemon needed. Best effort: without one that test is skipped, nothing else is lost.
if [ "${WANT_COMPOSE_CLI:-}" = 1 ] && ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing the Debian package docker-compose (for the compose config test)" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose; } >&2 \
      || echo "docker-compose could not be installed; the compose config test will be skipped" >&2
  fi
fi

# The web page's end-to-end test drives Debian's Chromium (test/e2e/web-page.e2e-spec.ts). Not best
# effort: as root it is installed or the command fails; only a run that cannot install it (not root)
# goes on, and that test then skips, saying why.
if [ "${WANT_BROWSER:-}" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing the Debian package chromium (for the web page test)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends chromium >&2
  else
    echo "chromium is missing and cannot be installed without root: the web page test will be skipped (sudo apt-get install chromium)" >&2
  fi
fi

# onnxruntime-node's install script would fetch CUDA files from outside the npm registry; its CPU
# library ships inside the package.
export ONNXRUNTIME_NODE_INSTALL=skip
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages (npm ci)" >&2
  # npm 11 writes only this platform's optional binaries (swc, nx) into the lockfile, and `npm ci` then
  # refuses the lockfile as out of sync; `npm install --no-save` installs the same locked versions.
  if ! npm ci --no-audit --no-fund >&2; then
    echo "npm ci refused the lockfile; installing the locked versions with npm install --no-save" >&2
    npm install --no-save --no-audit --no-fund >&2
  fi
fi
