#!/usr/bin/env bash
# A smoke run of the test suite on another Node.js line: `bash scripts/test-on-node.sh 26` (after `npm install`,
# which builds). The version is the `node` package of the npm registry, installed into a temporary directory and put
# first on the PATH; the same node_modules serves, since the only native addon, better-sqlite3's Node-API binary,
# does not depend on the Node.js version. By default it runs SMOKE_FILES (the SQLite driver and both databases, the
# PDF worker thread, the HTTP server, one resource of each API, the CLI); more arguments choose other test files
# (substrings of their paths under test/, as `node --import tsx test/run.ts` takes them).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/test-on-node.sh VERSION [TEST-FILTER…]}
shift
SMOKE_FILES=(platform/database.test platform/pdf.test platform/server.test hr/employees.test academy/events.test cli/cli.test)
if [ $# -eq 0 ]; then set -- "${SMOKE_FILES[@]}"; fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo '{"private": true}' > "$dir/package.json"
npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$version"
export PATH="$dir/node_modules/node/bin:$PATH"
echo "== the smoke tests on Node.js $(node --version): $*"
node --import tsx test/run.ts "$@"
