#!/usr/bin/env bash
# Builds the native core (tests, tools) and the wasm module, then copies the module into
# web/dist/. Incremental: a second run with no change only re-checks timestamps.
#   scripts/build.sh sanitize   builds only build/sanitize instead: clang, ASan + UBSan, the
#                               native tests and the libFuzzer targets (CMake's AE_SANITIZE)
set -euo pipefail
cd "$(dirname "$0")/.."

export NODE_PATH=/usr/share/nodejs   # emscripten's optimiser needs Debian's acorn
jobs=$(nproc)

# One build at a time: two builds in the same build directories would corrupt each other.
mkdir -p build
exec 9>build/.build.lock
flock 9

if [ "${1:-}" = sanitize ]; then
  if [ ! -f build/sanitize/CMakeCache.txt ]; then
    cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 \
      -DAE_SANITIZE=ON > /dev/null
  fi
  cmake --build build/sanitize -j"$jobs"
  exit 0
fi

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
# attention*: the page's module; attention-full*: it plus the trainer and the GPT-2 loader, loaded
# when those are used; *-relaxed: the fused multiply-add builds (CMakeLists.txt: need clang-19);
# attention_bench*: the benchmarks' modules (the relaxed one only after npm run bench builds it).
for f in attention.mjs attention.wasm attention-relaxed.mjs attention-relaxed.wasm attention-full.mjs \
         attention-full.wasm attention-full-relaxed.mjs attention-full-relaxed.wasm attention_bench.mjs \
         attention_bench.wasm attention_bench-relaxed.mjs attention_bench-relaxed.wasm; do
  [ -f "build/wasm/$f" ] || continue
  cmp -s "build/wasm/$f" "web/dist/$f" || cp "build/wasm/$f" "web/dist/$f"
done
# attention-full-mt*: the trainer on pthreads, for the training worker of a cross-origin isolated
# page (web/lib/train-worker-threads.js); its glue is a classic script, named .js for any server.
for f in attention-full-mt.cjs attention-full-mt.wasm attention-full-mt.worker.js; do
  [ -f "build/wasm/$f" ] || continue
  to="web/dist/${f/%.cjs/.js}"
  cmp -s "build/wasm/$f" "$to" || cp "build/wasm/$f" "$to"
done

# dist/sizes.json: each .wasm's size in bytes, for the page's download progress (a server that
# gzips sends no Content-Length of the bytes the page receives); a few bytes, where the package's
# manifest.json (scripts/dist.mjs) would cost the first view 2 KB of hashes.
sizes=""
for f in web/dist/attention.wasm web/dist/attention-relaxed.wasm web/dist/attention-full.wasm \
         web/dist/attention-full-relaxed.wasm; do
  [ -f "$f" ] && sizes="$sizes${sizes:+,}\"$(basename "$f")\":$(stat -c %s "$f")"
done
echo "{$sizes}" > web/dist/sizes.json.tmp
cmp -s web/dist/sizes.json.tmp web/dist/sizes.json && rm web/dist/sizes.json.tmp || mv web/dist/sizes.json.tmp web/dist/sizes.json
