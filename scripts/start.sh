#!/usr/bin/env bash
# Build everything and serve the web app: npm start  (PORT=9000 npm start to pin a port)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/build.sh
# Without PORT, serve.mjs starts at 8080 and moves to the next free port if it is busy;
# an explicit PORT is used as-is (fails if busy).
exec node scripts/serve.mjs web ${PORT:+"$PORT"}
