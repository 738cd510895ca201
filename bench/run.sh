#!/usr/bin/env bash
# bench/run.sh: our apps and PyTorch on the same workloads, on the GPU
# machine, and the side-by-side table.
#
# Run from the repository root on the GPU machine, after scripts/gpu.sh
# (on the build machine) has built .gpu/:
#
#   bash bench/run.sh
#
# It sources .gpu/nvrtc-env.sh, prints the GPU's name, runs each app built
# in .gpu/ (APPS; missing ones are skipped) with -target=cuda -json
# -bench=$RUNS (each app times its schedules at its benchmark size: the
# tensor product at the size of Halide issue #8427), then
# bench/torch_bench.py --json, then Halide 14's builds of Halide's apps
# (.gpu/halide14/run.sh, when bench/halide14/build.sh made them), then
# bench/compare.py. Everything lands in ${OUT:-bench-out}/: APP.json
# (stdout), APP.err (stderr: progress lines and errors), gpu.txt,
# torch.json, torch.err, halide14.jsonl, table.txt and benchmarks.md (the
# table in markdown, for docs/benchmarks.md). A failing app does not stop
# the rest; the table is printed last.
#
# Environment: APPS (the apps, default all), OUT (output folder, default
# bench-out), RUNS (timed runs, default 50), APP_TIMEOUT (seconds per app,
# default 300), PYTHON (default python3).
set -u
cd "$(dirname "$0")/.."

OUT=${OUT:-bench-out}
RUNS=${RUNS:-50}
APP_TIMEOUT=${APP_TIMEOUT:-300}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"

if [ -f .gpu/nvrtc-env.sh ]; then
  # shellcheck disable=SC1091
  source .gpu/nvrtc-env.sh
else
  echo "bench: .gpu/nvrtc-env.sh missing (run scripts/gpu.sh on the build machine first)" >&2
fi

echo "== GPU"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
else
  echo "nvidia-smi not found" | tee "$OUT/gpu.txt"
fi

with_timeout() {
  if command -v timeout >/dev/null 2>&1; then
    timeout "$APP_TIMEOUT" "$@"
  else
    "$@"
  fi
}

# The apps, as bench/workloads.py's APPS lists them.
APPS=${APPS:-"tensorproduct depthwise conv1d gemm conv2d bilateralgrid locallaplacian camerapipe rowsum"}

summary=()
for app in $APPS; do
  bin=.gpu/$app
  if [ ! -x "$bin" ]; then
    echo "== $app: $bin not built, skipped"
    summary+=("$app: skipped (not built)")
    rm -f "$OUT/$app.json" "$OUT/$app.err"
    continue
  fi
  rm -f "$OUT/$app.flags" # written by run.sh before the apps shared one schema
  args=(-target=cuda -json -bench="$RUNS")
  echo "== $app ${args[*]}"
  start=$(date +%s)
  with_timeout "$bin" "${args[@]}" >"$OUT/$app.json" 2>"$OUT/$app.err"
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    summary+=("$app: ok (${secs}s)")
  else
    [ $rc -eq 124 ] && why="timed out after ${APP_TIMEOUT}s" || why="exit $rc"
    summary+=("$app: FAILED, $why (${secs}s); see $OUT/$app.err")
    echo "$app: $why; last lines of its stderr:"
    tail -n 5 "$OUT/$app.err" | sed 's/^/  /'
  fi
done

echo "== PyTorch: bench/torch_bench.py --json --runs $RUNS"
"$PYTHON" bench/torch_bench.py --json --runs "$RUNS" >"$OUT/torch.json" 2>"$OUT/torch.err"
rc=$?
cat "$OUT/torch.err"
if [ $rc -eq 0 ]; then
  summary+=("torch_bench: ok")
else
  summary+=("torch_bench: FAILED, exit $rc; see $OUT/torch.err")
fi

if [ -x .gpu/halide14/run.sh ] || [ -f .gpu/halide14/run.sh ]; then
  echo "== Halide 14: .gpu/halide14/run.sh"
  bash .gpu/halide14/run.sh "$OUT/halide14.jsonl" >"$OUT/halide14.out" 2>"$OUT/halide14.err"
  rc=$?
  if [ $rc -eq 0 ]; then
    summary+=("halide14: ok")
  else
    summary+=("halide14: FAILED, exit $rc; see $OUT/halide14.err")
  fi
else
  summary+=("halide14: skipped (.gpu/halide14 not built: bench/halide14/build.sh)")
fi

echo
echo "== runs"
for s in "${summary[@]}"; do echo "  $s"; done
echo
echo "== ours against PyTorch (markdown: $OUT/benchmarks.md)"
json=()
for app in $APPS; do
  [ -f "$OUT/$app.json" ] && json+=("$OUT/$app.json")
done
[ -f "$OUT/halide14.jsonl" ] && json+=("$OUT/halide14.jsonl")
"$PYTHON" bench/compare.py --torch "$OUT/torch.json" --all-schedules \
  --markdown-out "$OUT/benchmarks.md" ${json[@]+"${json[@]}"} | tee "$OUT/table.txt"
