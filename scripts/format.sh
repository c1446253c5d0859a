#!/usr/bin/env bash
# npm run format: formats the JavaScript with prettier (.prettierrc.json; generated files and data
# are in .prettierignore) and the C++ (src/, bindings/, tools/, tests/) with clang-format-14
# (.clang-format).
#   scripts/format.sh           rewrites every file that is not formatted
#   scripts/format.sh --check   changes nothing; lists the unformatted files (with a count of
#                               changed lines for C++) and exits 1 if there is any (the lint stage)
# Two prettier --write passes: prettier 3.10 lays out a few long member chains (three e2e specs)
# once more on a second run, and only then leaves them alone; --check would fail after one pass.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=write
case "${1:-}" in
  --check) mode=check ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

format_js() {
  local files=('*.mjs' '{scripts,web,tools,tests}/**/*.mjs') # quoted: prettier expands the globs itself
  if [[ $mode == check ]]; then
    npx --no-install prettier --check --log-level warn "${files[@]}"
    return
  fi
  for pass in 1 2; do npx --no-install prettier --write --log-level warn "${files[@]}"; done
}

format_cpp() {
  command -v clang-format-14 >/dev/null || { echo "format: clang-format-14 is missing (scripts/ensure-deps.sh)" >&2; return 2; }
  local files unformatted=0 lines=0 f changed
  mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'bindings/*.cpp' 'bindings/*.h' \
                                       'tools/*.cpp' 'tools/*.h' 'tests/*.cpp' 'tests/*.h')
  local existing=() report candidates
  for f in "${files[@]}"; do [[ -f $f ]] && existing+=("$f"); done
  # One clang-format process finds the unformatted files (its first warning in each; a process
  # per file costs 20 s of CPU more); only those are formatted again to count their lines.
  report=$(clang-format-14 --style=file --dry-run --ferror-limit=1 "${existing[@]}" 2>&1) ||
    { echo "$report" >&2; echo "format: clang-format-14 failed" >&2; return 2; }
  mapfile -t candidates < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' \
    <<< "$report" | sort -u)
  for f in "${candidates[@]}"; do
    changed=$(clang-format-14 --style=file "$f" | diff "$f" - | grep -c '^<' || true)
    (( changed == 0 )) && continue
    unformatted=$((unformatted + 1)) lines=$((lines + changed))
    if [[ $mode == check ]]; then echo "$f: $changed lines to reformat"
    else clang-format-14 --style=file -i "$f"
    fi
  done
  if [[ $mode == check ]]; then
    (( unformatted == 0 )) && { echo "format: ${#files[@]} C++ files formatted"; return 0; }
    echo "format: $unformatted of ${#files[@]} C++ files unformatted ($lines lines); run scripts/format.sh" >&2
    return 1
  fi
  echo "format: rewrote $unformatted of ${#files[@]} C++ files ($lines lines changed)"
}

rc=0
format_js || rc=1
format_cpp || rc=1
exit "$rc"
