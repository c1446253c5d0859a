#!/usr/bin/env bash
# Make a fresh Debian 12 machine ready to build and test Attention Explorer.
# Quiet when everything is present ("deps: ok"). Installs missing Debian packages
# when run as root on Debian; otherwise prints the command to run and exits 1.
# Never downloads a browser: Playwright uses Debian's /usr/bin/chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

# "package|check" pairs: a check starting with / is a file, otherwise a command.
deps=(
  "emscripten|emcc"
  "libeigen3-dev|/usr/include/eigen3/Eigen/Core"
  "doctest-dev|/usr/include/doctest/doctest.h"
  "nlohmann-json3-dev|/usr/include/nlohmann/json.hpp"
  "chromium|/usr/bin/chromium"
  "wabt|wasm-objdump"
  "cmake|cmake"
  "g++|g++"
  # The sanitize and fuzz stages: clang 14 with its ASan/UBSan/libFuzzer runtimes.
  "clang-14|clang++-14"
  "libclang-rt-14-dev|/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a"
  # scripts/format.sh: the C++ formatter (.clang-format).
  "clang-format-14|clang-format-14"
  # The relaxed-SIMD (fused multiply-add) module's kernel files: clang 14 cannot emit them.
  "clang-19|clang++-19"
  "lld-19|wasm-ld-19"
)

missing_pkgs() {
  local entry pkg check
  for entry in "${deps[@]}"; do
    pkg=${entry%%|*} check=${entry#*|}
    if [[ $check == /* ]]; then [[ -e $check ]] && continue
    else command -v "$check" >/dev/null 2>&1 && continue
    fi
    echo "$pkg"
  done
}

# Node (>= 20) comes from outside Debian 12 (whose nodejs is 18), so only check it.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if (( node_major < 20 )) || ! command -v npm >/dev/null 2>&1; then
  echo "deps: Node.js >= 20 with npm is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

mapfile -t missing < <(missing_pkgs)
if (( ${#missing[@]} )); then
  if [[ -f /etc/debian_version && $(id -u) -eq 0 ]]; then
    echo "deps: installing ${missing[*]}"
    log=$(mktemp)
    # --no-install-recommends is enough: verified that emcc -O3 and headless Chromium work
    # without the ~90 recommended packages (avahi, cups helpers, numpy, ...).
    # Lock::Timeout waits for a concurrent apt/dpkg (e.g. unattended-upgrades) instead of failing.
    if ! { apt-get -q -o DPkg::Lock::Timeout=600 update &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
             -o DPkg::Lock::Timeout=600 "${missing[@]}"; } >"$log" 2>&1; then
      tail -n 40 "$log" >&2
      echo "deps: apt-get failed (full log: $log)" >&2
      exit 1
    fi
    rm -f "$log"
    mapfile -t still < <(missing_pkgs)
    if (( ${#still[@]} )); then
      echo "deps: still missing after install: ${still[*]}" >&2
      exit 1
    fi
  else
    echo "deps: missing packages. Run:" >&2
    echo "sudo apt-get install -y --no-install-recommends ${missing[*]}"
    exit 1
  fi
fi

# Node dev dependencies (Playwright test runner, axe). npm writes
# node_modules/.package-lock.json on every install, so it dates the last install.
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "deps: npm ci"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi

echo "deps: ok"
