#!/usr/bin/env bash
# scripts/fuzz-scale.sh: the differential fuzzers at scale, on a machine
# with many cores (the lent GPU machine has no Go: build the binaries here
# first with `go build -o .gpu/progfuzz ./tests/fuzz/cmd/progfuzz` and the
# same for schedfuzz, or with scripts/gpu.sh, and carry .gpu).
#
#   scripts/fuzz-scale.sh prog SEED FROM CHUNK SECONDS
#   scripts/fuzz-scale.sh sched SEED FROM CHUNK SECONDS
#
# runs chunks of CHUNK cases of one fuzzer, starting at case FROM of SEED,
# with one worker per core, until SECONDS have passed (a chunk is not
# started past them), GPU schedules on the emulator. Each chunk's table and
# findings go to ${OUT:-/tmp}/fuzz-<kind>-<seed>.log, reproductions under
# ${OUT:-/tmp}/repros-<kind>; the last lines printed are each chunk's
# total, and the range of cases run, for adding up.
set -uo pipefail
cd "$(dirname "$0")/.."
kind=$1 seed=$2 from=$3 chunk=$4 budget=$5
bin=.gpu/${kind}fuzz
# A -tags cuda build needs NVRTC's library even on the emulator.
[ -f .gpu/nvrtc-env.sh ] && source .gpu/nvrtc-env.sh
out=${OUT:-/tmp}
log=$out/fuzz-$kind-$seed.log
j=${J:-$(nproc)}
start=$(date +%s)
i=$from
summary=""
while [ $(( $(date +%s) - start )) -lt "$budget" ]; do
  echo "== $kind seed $seed cases [$i, $((i + chunk)))" >> "$log"
  "$bin" -n "$chunk" -from "$i" -seed "$seed" -j "$j" -progress 0 -out "$out/repros-$kind" >> "$log" 2>&1
  rc=$?
  total=$(grep -E '^ +total' "$log" | tail -1)
  if [ -z "$total" ]; then
    echo "== $kind: chunk at $i printed no table (rc $rc):"; tail -5 "$log"; break
  fi
  summary="$summary
[$i, $((i + chunk))) $total"
  i=$((i + chunk))
done
echo "== $kind seed $seed: cases [$from, $i) in $(( $(date +%s) - start )) s on $j cores"
echo "$summary"
grep -A30 '^findings' "$log" | grep -v '^ *$' | head -40
