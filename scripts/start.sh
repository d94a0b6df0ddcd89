#!/usr/bin/env bash
# `npm start`: installs what is missing, then runs the whole stack (see scripts/stack/start.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-prerequisites.sh
exec node scripts/run-ts.cjs scripts/stack/start.ts
