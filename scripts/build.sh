#!/usr/bin/env bash
# Builds the native core (tests, tools) and the wasm module, then copies the module into
# web/dist/. Incremental: a second run with no change only re-checks timestamps.
set -euo pipefail
cd "$(dirname "$0")/.."

export NODE_PATH=/usr/share/nodejs   # emscripten's optimiser needs Debian's acorn
jobs=$(nproc)

# One build at a time: two builds in the same build directories would corrupt each other.
mkdir -p build
exec 9>build/.build.lock
flock 9

if [ ! -f build/native/CMakeCache.txt ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release > /dev/null
fi
cmake --build build/native -j"$jobs"

if [ ! -f build/wasm/CMakeCache.txt ]; then
  # emcmake's default test emulator passes a flag Node 20 rejects; name node ourselves.
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DEigen3_DIR=/usr/share/eigen3/cmake \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" > /dev/null
fi
cmake --build build/wasm -j"$jobs"

mkdir -p web/dist
for f in attention.mjs attention.wasm; do
  cmp -s "build/wasm/$f" "web/dist/$f" || cp "build/wasm/$f" "web/dist/$f"
done
