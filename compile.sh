#!/usr/bin/env bash
# Builds standalone executables into dist/ (or $OUT_DIR) with `bun build --compile`; they run with
# no node_modules beside them.
set -euo pipefail
cd "$(dirname "$0")"
BUN=./node_modules/.bin/bun
[ -x "$BUN" ] || { echo "run npm install first (bun comes from the bun devDependency)"; exit 1; }
OUT_DIR="${OUT_DIR:-dist}"
mkdir -p "$OUT_DIR"
# The history index runs in two Worker threads, /action admission in a pool of them (src/api/admission),
# the state root in one (src/node/state-root-thread.ts); their files are entrypoints of the binary too.
"$BUN" build --compile --minify --sourcemap src/main.ts src/indexer/worker/indexer-worker.ts src/indexer/worker/reader-worker.ts src/api/admission/admission-worker.ts src/node/state-root-worker.ts --outfile "$OUT_DIR/perpd"
if [ -f src/admin.ts ]; then
  "$BUN" build --compile --minify --sourcemap src/admin.ts --outfile "$OUT_DIR/perpd-admin"
fi
ls -la "$OUT_DIR"/
