#!/usr/bin/env bash
# Usage: scripts/fuzz.sh [seconds-per-target=15]
# Runs every libFuzzer target of tests/fuzz (built by `scripts/build.sh sanitize`) for the given
# time, AE_FUZZ_JOBS targets at once (default: one per core), starting from seeds copied from the
# shipped models in web/models, the corpus earlier runs kept in build/sanitize/fuzz/corpus, and
# the regression inputs in tests/fuzz/regressions.
# Prints the executions per target; exits non-zero if any target crashed (the input is saved
# as build/sanitize/fuzz/crash-<target>-*; replay it with build/sanitize/fuzz_<target> FILE).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-15}
out=build/sanitize/fuzz
targets=(safetensors config vocabulary tokenizer gpt2)

# Seeds: every shipped model file the target parses, plus a few sentences for the tokenizer.
make_seeds() {
  local dir=$out/seeds/$1 file=$2
  rm -rf "$dir" && mkdir -p "$dir"
  for model in web/models/*/; do
    [ -f "$model$file" ] && cp "$model$file" "$dir/$(basename "$model")"
  done
  return 0
}
make_seeds safetensors model.safetensors
make_seeds config config.json
make_seeds vocabulary vocab.txt
make_seeds tokenizer vocab.txt
printf '%s\n' "The trophy didn't fit in the suitcase because it was too big." > $out/seeds/tokenizer/sentence-en
printf '%s\n' "猫追狗。 It’s 3.5 km — isn't it?" > $out/seeds/tokenizer/sentence-mixed
# gpt2: a first byte choosing the loader (tests/fuzz/fuzz_gpt2.cpp), then the fixture's file.
g=tests/fixtures/gpt2-tiny seeds=$out/seeds/gpt2
rm -rf "$seeds" && mkdir -p "$seeds"
{ printf '\0'; cat $g/config.json; } > "$seeds/config"
{ printf '\1'; cat $g/model.safetensors; } > "$seeds/weights"
{ printf '\2'; printf '%s' "Hello, world!  It's 3.5 km — 猫 😀"; } > "$seeds/text"
{ printf '\3'; cat $g/vocab.json; printf '\n\n'; cat $g/merges.txt; } > "$seeds/tokenizer"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# One target per core at a time (AE_FUZZ_JOBS): each still fuzzes for the full time on its own
# core, in a fraction of the wall time. Each writes its log and exit status; the report below
# then reads them in the targets' order.
fuzz_one() {
  local t=$1 rc=0
  mkdir -p "$out/corpus/$t"
  # -malloc_limit_mb: a parser must refuse a file that claims a huge size before allocating it.
  build/sanitize/fuzz_$t -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
    -print_final_stats=1 -artifact_prefix="$out/crash-$t-" \
    "$out/corpus/$t" "$out/seeds/$t" "tests/fuzz/regressions/$t" > "$out/$t.log" 2>&1 || rc=$?
  echo "$rc" > "$out/$t.status"
}
jobs_max=${AE_FUZZ_JOBS:-$(nproc)}
rm -f "$out"/*.status
for t in "${targets[@]}"; do
  while (( $(jobs -rp | wc -l) >= jobs_max )); do wait -n || true; done
  fuzz_one "$t" &
done
wait

failed=0 total=0
for t in "${targets[@]}"; do
  log=$out/$t.log
  if [ "$(cat "$out/$t.status" 2>/dev/null)" = 0 ]; then
    status=ok
  else
    status=FAILED failed=1
    tail -n 40 "$log"
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  total=$((total + ${runs:-0}))
  echo "fuzz: $t: ${runs:-?} executions in ${seconds}s ($status; log: $log)"
done
echo "fuzz: $total executions in total"
exit "$failed"
