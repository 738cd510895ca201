#!/usr/bin/env bash
# run.sh OUTFILE: runs Halide 14's bilateral_grid, local_laplacian and
# camera_pipe on the CPU and with CUDA (six runs of halide14_bench) and writes
# their JSON lines to OUTFILE and to stdout; progress and errors go to stderr.
#
# Run it from the repository root (or anywhere: it finds the runner at
# .gpu/halide14/ relative to the root, or next to itself when it is the copy
# that build.sh puts in .gpu/halide14/). Needs nothing but libc, libstdc++'s
# libgcc_s, and, for CUDA, the driver's libcuda.so.1.
#
# Environment:
#   RUNS (50) WARMUP (5)      timed and warm-up runs per pipeline
#   CPU_RUNS (RUNS)           timed runs on the CPU (it is much slower)
#   APPS ("bilateral_grid local_laplacian camera_pipe")
#   TARGETS ("cpu cuda")
#   HL_NUM_THREADS            Halide's CPU thread pool (default: nproc, the
#                             cores this process may run on; Halide's own
#                             default would be every online CPU of the host)
#   EXTRA                     more options for every run (e.g. "--seed 2")
#   INPUT_DIR                 if INPUT_DIR/APP.raw exists, it is the input of
#                             APP (both targets) instead of the random image
#                             (the sizes stay the defaults: see README.md)
#   APP_TIMEOUT (600)         seconds per run
# If the prebuilt runner does not load here (e.g. an older glibc), it is
# relinked from .gpu/halide14/src with this machine's g++ (no Halide needed).
# A run that fails leaves a JSON line with "error" and the script goes on;
# it exits 1 if any run failed.
set -uo pipefail

OUTFILE="${1:-halide14.jsonl}"
HERE="$(cd "$(dirname "$0")" && pwd)"
if [ -x "$HERE/halide14_bench" ]; then
    DIR="$HERE"
else
    DIR="$(cd "$HERE/../.." && pwd)/.gpu/halide14"
fi
BIN="$DIR/halide14_bench"
RUNS="${RUNS:-50}"
WARMUP="${WARMUP:-5}"
CPU_RUNS="${CPU_RUNS:-$RUNS}"
APPS="${APPS:-bilateral_grid local_laplacian camera_pipe}"
TARGETS="${TARGETS:-cpu cuda}"
APP_TIMEOUT="${APP_TIMEOUT:-600}"

if [ ! -x "$BIN" ]; then
    echo "run.sh: no runner at $BIN (run bench/halide14/build.sh on the build machine)" >&2
    exit 2
fi
# Does it load? (usage error, exit 2, is the expected answer)
"$BIN" >/dev/null 2>"${TMPDIR:-/tmp}/halide14_load.err"
if [ $? -ne 2 ]; then
    echo "run.sh: the prebuilt runner does not load here:" >&2
    cat "${TMPDIR:-/tmp}/halide14_load.err" >&2
    if command -v "${CXX:-g++}" >/dev/null && [ -d "$DIR/src" ]; then
        echo "run.sh: relinking it from $DIR/src with ${CXX:-g++}" >&2
        BIN="${TMPDIR:-/tmp}/halide14_bench.local"
        bash "$DIR/src/link.sh" "$DIR/src" "$BIN" || { echo "run.sh: relinking failed" >&2; exit 2; }
    else
        exit 2
    fi
fi

export HL_NUM_THREADS="${HL_NUM_THREADS:-$(nproc)}"
: >"$OUTFILE"
echo "# $(date -u +%FT%TZ) $(uname -n) nproc=$(nproc) online=$(getconf _NPROCESSORS_ONLN) HL_NUM_THREADS=$HL_NUM_THREADS" >&2
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >&2
status=0
for target in $TARGETS; do
    for app in $APPS; do
        n=$RUNS
        [ "$target" = cpu ] && n=$CPU_RUNS
        echo "== $app $target (runs $n, warm-up $WARMUP)" >&2
        in=()
        if [ -n "${INPUT_DIR:-}" ] && [ -f "$INPUT_DIR/$app.raw" ]; then in=(--in "$INPUT_DIR/$app.raw"); fi
        line=$(timeout "$APP_TIMEOUT" "$BIN" "$app" "$target" --runs "$n" --warmup "$WARMUP" "${in[@]}" ${EXTRA:-})
        rc=$?
        if [ $rc -ne 0 ]; then
            status=1
            echo "run.sh: $app $target exited with $rc" >&2
            if [ -z "$line" ]; then
                line="{\"app\":\"$app\",\"target\":\"$target\",\"error\":\"exit status $rc\"}"
            fi
        fi
        echo "$line" | tee -a "$OUTFILE"
    done
done
exit $status
