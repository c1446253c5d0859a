#!/usr/bin/env bash
# npm run format: prettier --write over the repository's JavaScript (.prettierrc.json; what is
# generated or data is in .prettierignore).
#   scripts/format.sh --check   only lists the files prettier would change (the lint stage)
# Two --write passes: prettier 3.10 lays out a few long member chains (three e2e specs) once
# more on a second run, and only then leaves them alone; --check would fail after one pass.
set -euo pipefail
cd "$(dirname "$0")/.."

files=('*.mjs' '{scripts,web,tools,tests}/**/*.mjs') # quoted: prettier expands the globs itself
if [ "${1:-}" = --check ]; then
  exec npx --no-install prettier --check --log-level warn "${files[@]}"
fi
for pass in 1 2; do npx --no-install prettier --write --log-level warn "${files[@]}"; done
