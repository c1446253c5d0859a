#!/usr/bin/env bash
# Formats the C++ sources (src/, bindings/, tools/, tests/) with clang-format-14 and .clang-format.
#   scripts/format.sh           rewrites every file that is not formatted
#   scripts/format.sh --check   changes nothing; lists the unformatted files with their count of
#                               changed lines and exits 1 if there is any (0 when all are formatted)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=write
case "${1:-}" in
  --check) mode=check ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

command -v clang-format-14 >/dev/null || { echo "format: clang-format-14 is missing (scripts/ensure-deps.sh)" >&2; exit 2; }

mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'bindings/*.cpp' 'bindings/*.h' \
                                     'tools/*.cpp' 'tools/*.h' 'tests/*.cpp' 'tests/*.h')
unformatted=0 lines=0
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  changed=$(clang-format-14 --style=file "$f" | diff "$f" - | grep -c '^<' || true)
  (( changed == 0 )) && continue
  unformatted=$((unformatted + 1)) lines=$((lines + changed))
  if [[ $mode == check ]]; then echo "$f: $changed lines to reformat"
  else clang-format-14 --style=file -i "$f"
  fi
done

if [[ $mode == check ]]; then
  (( unformatted == 0 )) && { echo "format: ${#files[@]} files formatted"; exit 0; }
  echo "format: $unformatted of ${#files[@]} files unformatted ($lines lines); run scripts/format.sh" >&2
  exit 1
fi
echo "format: rewrote $unformatted of ${#files[@]} files ($lines lines changed)"
