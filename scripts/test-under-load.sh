#!/bin/bash
# `npm test` several times in a row (default 5) with the machine kept busy:
# one process spinning on every core but one. Stops at the first failing run
# and leaves its output in $TMPDIR/rxmcp-loaded-<run>.log.
#   bash scripts/test-under-load.sh [runs]
set -u
runs=${1:-5}
cores=$(nproc)
hogs=$(( cores > 1 ? cores - 1 : 1 ))
for _ in $(seq "$hogs"); do node -e 'for (;;) {}' & done
trap 'kill $(jobs -p) 2>/dev/null' EXIT
for run in $(seq "$runs"); do
  log="${TMPDIR:-/tmp}/rxmcp-loaded-$run.log"
  started=$SECONDS
  if npm test >"$log" 2>&1; then
    echo "run $run of $runs: $(grep -E '^tests: ' "$log" | tail -1) in $((SECONDS - started)) s, with $hogs busy process(es) beside it"
  else
    echo "run $run of $runs FAILED after $((SECONDS - started)) s: see $log"
    grep -E '^(FAIL|  ●)' "$log" | head -20
    exit 1
  fi
done
