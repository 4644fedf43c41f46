#!/usr/bin/env bash
# The test suite on other Node.js versions: `bash scripts/test-on-node.sh 24 26` (after `npm install` and
# `npm run build`, which `npm test` does). Each version is the `node` package of the npm registry, installed into a
# temporary directory and put first on the PATH. The same node_modules serves: the SQLite driver on Node 22 and later
# is better-sqlite3 13, whose Node-API binaries work on every version (docs/development.md, "Node.js versions").
set -euo pipefail
cd "$(dirname "$0")/.."
for version in "$@"; do
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  echo '{"private": true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$version"
  echo "== the test suite on Node.js $(PATH="$dir/node_modules/node/bin:$PATH" node --version)"
  PATH="$dir/node_modules/node/bin:$PATH" node --import tsx test/run.ts
  rm -rf "$dir"
  trap - EXIT
done
