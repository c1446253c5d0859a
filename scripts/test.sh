#!/usr/bin/env bash
# Usage: scripts/test.sh [native|wasm|e2e|all]   (default: all)
# Runs every selected stage even if an earlier one fails, then prints a summary
# and exits non-zero if any stage failed.
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
case $which in
  native|wasm|e2e) stages=("$which") ;;
  all) stages=(native wasm e2e) ;;
  *) echo "usage: $0 [native|wasm|e2e|all]" >&2; exit 2 ;;
esac

bash scripts/ensure-deps.sh
if ! bash scripts/build.sh; then
  echo "summary: build FAILED (${SECONDS}s)"
  exit 1
fi

run_stage() {
  case $1 in
    native)  # the native suite, then the kernel tests compiled to wasm (kernel_tests_wasm)
      local rc=0
      ctest --test-dir build/native --output-on-failure || rc=1
      ctest --test-dir build/wasm --output-on-failure || rc=1
      return "$rc" ;;
    wasm)   node --test tests/wasm/ ;;
    e2e)    npx --no-install playwright test ;;   # --no-install: never fetch anything
  esac
}

results=() failed=0
for s in "${stages[@]}"; do
  echo "==> test: $s"
  if run_stage "$s"; then results+=("$s ok")
  else results+=("$s FAILED"); failed=1
  fi
done

summary=$(IFS=,; echo "${results[*]}")
echo
echo "summary: ${summary//,/, } (${SECONDS}s)"
exit "$failed"
