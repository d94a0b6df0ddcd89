#!/usr/bin/env bash
# `npm test`: installs what is missing, then typecheck, lint, the web page's build and every Jest level
# (unit, integration, e2e).
# Extra arguments go to Jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
# A report from an earlier run must never stand in for this one (.ci/run reads it).
rm -f reports/jest.json reports/jest-system-node.json
REQUIRE_LOCAL_SERVICES=1 WANT_COMPOSE_CLI=1 WANT_BROWSER=1 source scripts/ensure-prerequisites.sh
export NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=true

echo "typecheck" >&2
npx tsc -p tsconfig.json
# The web page compiles with the DOM library, apart from the rest.
npx tsc -p apps/web/tsconfig.json
echo "build the web page" >&2
npx vite build apps/web --logLevel warn
echo "lint" >&2
npx nx show projects >/dev/null
npx eslint --max-warnings 0 apps libs examples scripts test bench

mkdir -p reports
status=0
# Every level runs on Node.js 24, the runtime of the image and the manifests (decision 0077); where it
# cannot be installed, on this machine's node.
node24=$(bash scripts/node24.sh) || node24=node
echo "every level on $("$node24" --version)" >&2
# Two test files at a time (decision 0104): Jest's default on 2 cores is one, and most of an
# integration or end-to-end file's time is spent waiting on its own services, not computing.
# TEST_WORKERS=1 runs them one by one.
"$node24" node_modules/jest/bin/jest.js --ci --maxWorkers="${TEST_WORKERS:-2}" --json --outputFile=reports/jest.json "$@" || status=$?

# The unit level again on this machine's node, for what runs on it: the CLI, the SDK, the scripts, the
# benches and the libraries they load. The services run on Node 24 only, so their units are not
# repeated (decision 0077). TEST_SYSTEM_NODE=0 skips this pass; a run given its own Jest arguments
# skips it too.
services_only='/apps/(gateway|jobs|billing|render-worker|webhook-delivery)/|/libs/(observability|tflite-onnx|database|outbox|egress|webhooks|service-boot)/'
if [ "${TEST_SYSTEM_NODE:-1}" != 0 ] && [ $# -eq 0 ] && [ "$node24" != node ]; then
  echo "unit on $(node --version), all but the services'" >&2
  npx jest --ci --json --outputFile=reports/jest-system-node.json --selectProjects unit \
    --testPathIgnorePatterns '/node_modules/' '/\.data/' "$services_only" || status=$?
fi
exit $status
