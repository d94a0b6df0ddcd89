#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the web page, then runs the whole stack (see scripts/stack/start.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-prerequisites.sh
# The web page the gateway serves at / (apps/web/dist).
echo "Building the web page (apps/web)" >&2
npx vite build apps/web --logLevel warn >&2
exec bash scripts/run-ts-node24.sh scripts/stack/start.ts
