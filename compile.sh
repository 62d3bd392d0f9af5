#!/usr/bin/env bash
# Builds standalone executables into dist/ with `bun build --compile`; they run with no
# node_modules beside them.
set -euo pipefail
cd "$(dirname "$0")"
BUN=./node_modules/.bin/bun
[ -x "$BUN" ] || { echo "run npm install first (bun comes from the bun devDependency)"; exit 1; }
mkdir -p dist
# The history index runs in two Worker threads, /action admission in a pool of them (src/api/admission);
# their files are entrypoints of the binary too.
"$BUN" build --compile --minify --sourcemap src/main.ts src/indexer/worker/indexer-worker.ts src/indexer/worker/reader-worker.ts src/api/admission/admission-worker.ts --outfile dist/perpd
if [ -f src/admin.ts ]; then
  "$BUN" build --compile --minify --sourcemap src/admin.ts --outfile dist/perpd-admin
fi
ls -la dist/
