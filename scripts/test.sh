#!/usr/bin/env bash
# `npm test`: installs what is missing, then typecheck, lint and every Jest level (unit, integration, e2e).
# Extra arguments go to Jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
# A report from an earlier run must never stand in for this one (.ci/run reads it).
rm -f reports/jest.json
REQUIRE_LOCAL_SERVICES=1 source scripts/ensure-prerequisites.sh
export NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=true

echo "typecheck" >&2
npx tsc -p tsconfig.json
echo "lint" >&2
npx nx show projects >/dev/null
npx eslint --max-warnings 0 apps libs scripts test bench

mkdir -p reports
npx jest --ci --json --outputFile=reports/jest.json "$@"
