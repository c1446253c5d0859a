#!/bin/sh
# Runs a link command (CMake's RULE_LAUNCH_LINK under em++) with Debian's binaryen first on PATH.
# Debian's emcc 3.1.6 runs `wasm-opt` by name, and `npm run`/`npm test` put node_modules/.bin
# first — where the devDependency binaryen 132 (cmake/relaxed_simd.cmake) lives. Its
# --minify-imports-and-exports map is not what emcc 3.1.6 reads, so the module's imports were
# renamed and its JS glue not: "Import #0 module="a" function="a" error: function import
# requires a callable" at instantiation.
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin/*$' | paste -sd: -)
export PATH
exec "$@"
