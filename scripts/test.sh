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
SANITIZE_SKIPS='^shipped |^coref split|^held-out|^shared noun pools|^lesson sentences are in|^referent position'
SANITIZE_SKIPS+='|^each adjective|^every token index|^nouns sit|^minimal pairs differ|^Chinese corpus|^the vocabulary from corpus_words'

run_stage() {
  case $1 in
    lint)   npx --no-install eslint . && bash scripts/format.sh --check ;;
    native)  # the native suite, then the kernel tests compiled to wasm (kernel_tests_wasm)
      local rc=0
      ctest --test-dir build/native --output-on-failure || rc=1
      ctest --test-dir build/wasm --output-on-failure || rc=1
      return "$rc" ;;
    wasm)   node --test tests/wasm/ ;;
    e2e)    npx --no-install playwright test ;;   # --no-install: never fetch anything
    server) node --test tests/server/ ;;
    sanitize)  # -fno-sanitize-recover: the first ASan/UBSan report fails its test. The shipped-model
               # checks (thousands of forward passes of the trained models, minutes under ASan) and
               # the corpus property checks (each generates a 60,000-sentence corpus, 10–25 s under
               # ASan) run in the native stage only: they test figures and data, and the same code
               # paths run here (two corpus tests stay: both generators, English and Chinese).
      sanitize_build &&
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
          ctest --test-dir build/sanitize --output-on-failure -j"$(nproc)" -E "$SANITIZE_SKIPS" ;;
    fuzz)   sanitize_build && bash scripts/fuzz.sh "${AE_FUZZ_SECONDS:-10}" ;;
  esac
}

# The sanitize build (clang, ASan + UBSan: the longest build) starts in the background as soon as
# the main build is done, at the lowest priority, when a later stage needs it: it runs on the CPU
# the stages before leave idle (ctest's last tests, node --test's one file at a time, the e2e
# stage's waits) instead of after them. The sanitize and fuzz stages wait for it; its output goes
# to build/sanitize-build.log, shown if it fails.
sanitize_pid=
start_sanitize_build() {
  set -m  # its own process group, so that the EXIT trap can stop the whole build
  (
    me=$BASHPID t0=$SECONDS rc=0
    nice -n 19 bash scripts/build.sh sanitize > build/sanitize-build.log 2>&1 || rc=$?
    echo "$rc $((SECONDS - t0)) $(child_cpu "$me")" > build/sanitize-build.status
  ) &
  sanitize_pid=$!
  set +m
}
trap 'if [[ -n $sanitize_pid ]]; then kill -- "-$sanitize_pid" 2>/dev/null || true; fi' EXIT

# Waits for the background sanitize build, or builds now if none was started.
sanitize_build() {
  if [[ -z $sanitize_pid ]]; then
    bash scripts/build.sh sanitize
    return
  fi
  wait "$sanitize_pid" || true
  sanitize_pid=
  local rc wall cpu
  read -r rc wall cpu < build/sanitize-build.status || rc=1
  results+=("sanitize build, in the background (${wall:-?} s, cpu ${cpu:-?} s)")
  background_cpu=${cpu:-0}  # reaped now, but not this stage's CPU
  echo "sanitize build (in the background since the main build): ${wall:-?} s, cpu ${cpu:-?} s"
  if [[ $rc != 0 ]]; then
    tail -n 60 build/sanitize-build.log
    echo "sanitize build FAILED (build/sanitize-build.log)"
    return 1
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
background_cpu=0
timed() {
  local name=$1 t0=$SECONDS c0 status=ok
  c0=$(child_cpu)
  shift
  "$@" || status=FAILED
  local times="$((SECONDS - t0)) s, cpu $(($(child_cpu) - c0 - background_cpu)) s"
  background_cpu=0
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
  echo "==> test: $s"
  timed "$s" run_stage "$s" || failed=1
done

echo
echo "summary (wall time, CPU time of the processes it started):"
printf '  %s\n' "${results[@]}"
echo "total: ${SECONDS} s, cpu $(child_cpu) s"
exit "$failed"
