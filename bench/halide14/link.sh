#!/usr/bin/env bash
# link.sh SRCDIR OUTFILE: compiles harness.cpp against the AOT pipelines in
# SRCDIR (the six .a/.h files, halide14_runtime.a and Halide's runtime
# headers) and links the runner. Needs only g++ (no Halide): build.sh uses it
# here, run.sh uses it on the GPU machine if the prebuilt runner does not load.
set -euo pipefail
SRC="$1"
OUTFILE="$2"
CXX="${CXX:-g++}"
libs=()
for t in cpu cuda; do
    for a in bilateral_grid local_laplacian camera_pipe; do libs+=("$SRC/${a}_$t.a"); done
done
"$CXX" -std=c++17 -O2 -Wall -I"$SRC" "$SRC/harness.cpp" "${libs[@]}" "$SRC/halide14_runtime.a" \
    -o "$OUTFILE" -static-libstdc++ -ldl -lpthread -lm
strip "$OUTFILE" 2>/dev/null || true
