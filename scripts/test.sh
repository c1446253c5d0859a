#!/usr/bin/env bash
# Usage: scripts/test.sh [lint|native|wasm|e2e|server|sanitize|fuzz|all]   (default: all)
# Runs every selected stage even if an earlier one fails, then prints a summary
# and exits non-zero if any stage failed.
#   lint      eslint (bugs, eslint.config.mjs), prettier and clang-format-14 --check (format.sh): runs
#             first, before the build, which it does not need
#   sanitize  the native suite and the fuzz regression inputs under ASan + UBSan (build/sanitize)
#   fuzz      each libFuzzer target of tests/fuzz for AE_FUZZ_SECONDS (default 10) seconds
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
case $which in
  lint|native|wasm|e2e|server|sanitize|fuzz) stages=("$which") ;;
  all) stages=(lint native wasm e2e server sanitize fuzz) ;;
  *) echo "usage: $0 [lint|native|wasm|e2e|server|sanitize|fuzz|all]" >&2; exit 2 ;;
esac

# ctest names left out of the sanitize stage (see there).
SANITIZE_SKIPS='^coref split|^held-out|^shared noun pools|^lesson sentences are in|^referent position'
SANITIZE_SKIPS+='|^each adjective|^every token index|^nouns sit|^minimal pairs differ|^Chinese corpus|^the vocabulary from corpus_words|^clause_first_share|^plain_share'

run_stage() {
  case $1 in
    lint)   npx --no-install eslint . && bash scripts/format.sh --check ;;
    native)  # the native suite, then the kernel and gradient tests compiled to wasm (kernel_tests_wasm, …)
      local rc=0
      ctest --test-dir build/native --output-on-failure || rc=1
      ctest --test-dir build/wasm --output-on-failure || rc=1
      return "$rc" ;;
    wasm)   node --test tests/wasm/ ;;
    e2e)    npx --no-install playwright test ;;   # --no-install: never fetch anything
    server) node --test tests/server/ ;;
    sanitize)  # -fno-sanitize-recover: the first ASan/UBSan report fails its test. The shipped-model
               # checks (thousands of forward passes of the trained models, minutes under ASan: not
               # even compiled there, CMakeLists.txt) and the corpus property checks (each generates
               # a 60,000-sentence corpus, 10–25 s under ASan) run in the native stage only: they
               # test figures and data, and the same code paths run here (two corpus tests stay:
               # both generators, English and Chinese).
      sanitize_build &&
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
          ctest --test-dir build/sanitize --output-on-failure -j"$(nproc)" -E "$SANITIZE_SKIPS" ;;
    fuzz)   sanitize_build && bash scripts/fuzz.sh "${AE_FUZZ_SECONDS:-10}" ;;
  esac
}

# The sanitize build (clang, ASan + UBSan: the longest build) starts in the background as soon as
# the main build is done, at the lowest priority: it runs on the core that the native and wasm
# stages leave idle (ctest -j1, node --test mostly one file at a time). It is waited for before the
# e2e stage, which runs alone: with the build beside it, Chromium's tests took 15.8 minutes instead
# of 10.4–11.7. Its output goes to build/sanitize-build.log, shown if it fails.
sanitize_pid= sanitize_reaped= sanitize_waited= reaped_cpu=0
start_sanitize_build() {
  rm -f build/sanitize-build.status
  set -m  # its own process group, so that the EXIT trap can stop the whole build
  (
    me=$BASHPID t0=$SECONDS rc=0
    nice -n 19 bash scripts/build.sh sanitize > build/sanitize-build.log 2>&1 || rc=$?
    echo "$rc $((SECONDS - t0)) $(child_cpu "$me")" > build/sanitize-build.status
  ) &
  sanitize_pid=$!
  set +m
}
trap 'if [[ -n $sanitize_pid && -z $sanitize_waited ]]; then kill -- "-$sanitize_pid" 2>/dev/null || true; fi' EXIT

# The background build's CPU joins this script's children's total when bash reaps it, during
# whichever stage runs then: that stage's figure leaves it out (reaped_cpu), the build's own line
# reports it.
take_reaped_sanitize_cpu() {
  reaped_cpu=0
  if [[ -n $sanitize_pid && -z $sanitize_reaped ]] && ! kill -0 "$sanitize_pid" 2>/dev/null; then
    sanitize_reaped=1
    local rc wall cpu=0
    read -r rc wall cpu < build/sanitize-build.status || true
    reaped_cpu=${cpu:-0}
  fi
}

# Waits for the background build (once) and reports it; fails if it failed.
wait_sanitize_build() {
  local t0=$SECONDS rc=1 wall=? cpu=?
  wait "$sanitize_pid" 2>/dev/null || true
  sanitize_reaped=1 sanitize_waited=1
  read -r rc wall cpu < build/sanitize-build.status || rc=1
  local line="sanitize build, in the background since the main build ($wall s, cpu $cpu s; waited $((SECONDS - t0)) s)"
  echo "--> $line"
  if [[ $rc != 0 ]]; then
    tail -n 60 build/sanitize-build.log
    results+=("$line FAILED (build/sanitize-build.log)")
    return 1
  fi
  results+=("$line")
}

# The sanitize build for the sanitize and fuzz stages: done if it ran in the background, else now.
sanitize_build() {
  if [[ -n $sanitize_pid && -z $sanitize_waited ]]; then
    wait_sanitize_build
  elif [[ -n $sanitize_pid ]]; then
    [[ $(cut -d' ' -f1 build/sanitize-build.status 2> /dev/null) == 0 ]]
  else
    bash scripts/build.sh sanitize
  fi
}

# CPU seconds (user + sys) of this script's (or process $1's) finished child processes so far:
# cutime + cstime of /proc/$$/stat (bash's `times` cannot be read from a command substitution, a
# subshell). Reported next to wall time: on a shared machine, wall time depends on the other load,
# CPU time much less.
child_cpu() {
  local stat
  stat=$(< "/proc/${1:-$$}/stat")
  set -- ${stat##*) }   # fields from the 3rd (state) on: cutime is the 16th, cstime the 17th
  echo $(( (${14} + ${15}) / $(getconf CLK_TCK) ))
}
# timed NAME COMMAND...: runs it, then appends "NAME ok|FAILED (wall s, cpu s)" to results.
timed() {
  local name=$1 t0=$SECONDS c0 status=ok
  c0=$(child_cpu)
  shift
  "$@" || status=FAILED
  take_reaped_sanitize_cpu
  local times="$((SECONDS - t0)) s, cpu $(($(child_cpu) - c0 - reaped_cpu)) s"
  results+=("$name $status ($times)")
  echo "--> $name $status ($times)"
  [ "$status" = ok ]
}

results=() failed=0 built=0
timed deps bash scripts/ensure-deps.sh || exit 1   # installs only what is missing
for s in "${stages[@]}"; do
  if [ "$s" != lint ] && [ "$built" = 0 ]; then
    built=1
    echo "==> build"
    if ! timed build bash scripts/build.sh; then
      echo "summary: build FAILED (${SECONDS}s)"
      exit 1
    fi
    if [ "$which" = all ]; then start_sanitize_build; fi
  fi
  if [[ -n $sanitize_pid && -z $sanitize_waited && $s == e2e ]]; then
    echo "==> sanitize build (waiting for it)"
    wait_sanitize_build || failed=1
  fi
  echo "==> test: $s"
  timed "$s" run_stage "$s" || failed=1
done

echo
echo "summary (wall time, CPU time of the processes it started):"
printf '  %s\n' "${results[@]}"
if printf '%s\n' "${results[@]}" | grep -q '^e2e FAILED'; then
  echo "e2e tests that failed (or passed only on a retry):"
  node scripts/e2e-failures.mjs
fi
echo "total: ${SECONDS} s, cpu $(child_cpu) s"
exit "$failed"
