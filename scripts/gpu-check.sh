#!/usr/bin/env bash
# scripts/gpu-check.sh [N] [P]: run on the GPU machine (from the
# repository root, with .gpu/ built by scripts/gpu.sh, which builds the
# test binaries and both fuzzers, .gpu/schedfuzz and .gpu/progfuzz, with
# -tags cuda):
#   1. the cuda-tagged tests (every app schedule on the GPU, shared sizes,
#      every scalar type against the CPU: tests/types),
#      and the ported Halide GPU tests and issue 9 tests on the GPU, plain
#      and under compute-sanitizer memcheck, racecheck and synccheck;
#   2. every fuzz regression replayed on the GPU, and under
#      compute-sanitizer racecheck and synccheck;
#   3. N random schedules of the differential fuzzer with GPU schedules on
#      the GPU (CPU schedules on the CPU), compared with plain-Go references;
#   4. P random programs of the program fuzzer (its GPU share, about 40%,
#      on the GPU, the rest on the CPU), compared with its own evaluator.
# Logs go to ${OUT:-/tmp}/gpu-check; the last lines are a summary.
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-1500}
pn=${2:-1500}
log=${OUT:-/tmp}/gpu-check
mkdir -p "$log"
source .gpu/nvrtc-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$log/device.txt"

./.gpu/cuda.test -test.v > "$log/cuda-test.txt" 2>&1
cuda_rc=$?

# Every scalar type on the GPU against the CPU and the reference (the
# 16-bit floats bit for bit, every bit pattern).
./.gpu/types.test -test.v -test.skip NVCC > "$log/types-test.txt" 2>&1
types_rc=$?

# The ported Halide GPU tests and the issue 9 tests (sizes known at launch,
# global scratch) on the GPU, then under each compute-sanitizer tool.
# TestPortedGPUAssertionInKernel traps in a kernel on purpose, which leaves
# the process's CUDA context unusable: it runs on its own, last.
ported='TestPorted|TestIssue9'
trap_test='TestPortedGPUAssertionInKernel'
./.gpu/gpu.test -test.v -test.run "$ported" -test.skip "$trap_test" > "$log/gpu-test.txt" 2>&1
gpu_rc=$?
./.gpu/gpu.test -test.v -test.run "$trap_test" >> "$log/gpu-test.txt" 2>&1 || gpu_rc=$?
ported_san=""
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 ./.gpu/gpu.test -test.run "$ported" -test.skip "$trap_test" > "$log/gpu-test-$tool.txt" 2>&1
  ported_san="$ported_san $tool=$? ($(grep -c 'ERROR SUMMARY: 0 errors' "$log/gpu-test-$tool.txt") clean summaries, $(grep -E 'ERROR SUMMARY: [1-9]' "$log/gpu-test-$tool.txt" | head -1))"
done

replays=0; replay_bad=0; san_bad=0
for f in tests/fuzz/testdata/regressions/*.go.txt; do
  replays=$((replays + 1))
  if ! ./.gpu/schedfuzz -target cuda -replay "$f" >> "$log/replay.txt" 2>&1; then
    replay_bad=$((replay_bad + 1)); echo "FAILED: $f" >> "$log/replay.txt"
  fi
  if grep -q '"gpu":true' "$f"; then
    for tool in racecheck synccheck; do
      if ! compute-sanitizer --tool $tool --error-exitcode 9 ./.gpu/schedfuzz -target cuda -replay "$f" >> "$log/sanitizer.txt" 2>&1; then
        san_bad=$((san_bad + 1)); echo "SANITIZER $tool FAILED: $f" >> "$log/sanitizer.txt"
      fi
    done
  fi
done

timeout 420 ./.gpu/schedfuzz -target cuda -n "$n" -seed "${SEED:-77}" -j 1 -progress 0 -out "$log/repros" > "$log/fuzz.txt" 2>&1
fuzz_rc=$?

timeout 420 ./.gpu/progfuzz -target cuda -n "$pn" -seed "${PSEED:-77}" -j 1 -progress 0 -out "$log/prog-repros" > "$log/progfuzz.txt" 2>&1
progfuzz_rc=$?

echo "== summary"
echo "cuda.test rc=$cuda_rc ($(grep -c -- '--- PASS' "$log/cuda-test.txt") passed, $(grep -c -- '--- FAIL' "$log/cuda-test.txt") failed)"
echo "types.test rc=$types_rc ($(grep -c -- '--- PASS' "$log/types-test.txt") passed, $(grep -c -- '--- FAIL' "$log/types-test.txt") failed)"
echo "gpu.test ($ported) rc=$gpu_rc ($(grep -c -- '--- PASS' "$log/gpu-test.txt") passed, $(grep -c -- '--- FAIL' "$log/gpu-test.txt") failed); sanitizers:$ported_san"
echo "regressions replayed on the GPU: $replays, defects: $replay_bad; sanitizer failures: $san_bad"
echo "fuzz on the GPU (rc=$fuzz_rc):"
sed -n '/algorithm  target/,/total/p' "$log/fuzz.txt"
grep -A40 '^findings' "$log/fuzz.txt" | head -40
echo "program fuzz on the GPU (rc=$progfuzz_rc):"
sed -n '/programs  target/,/total/p' "$log/progfuzz.txt"
grep -A40 '^findings' "$log/progfuzz.txt" | head -40
