#!/usr/bin/env bash
# Builds Halide 14's bilateral_grid, local_laplacian and camera_pipe (the
# generators of Halide's v14.0.0 tag, in third_party/generators/) ahead of time for a CPU
# target and a CUDA target, and links one static runner, halide14_bench, that
# holds all six pipelines and one Halide runtime. Needs Debian's
# libhalide14-0-dev (headers, libHalide14.so, GenGen.cpp) and g++.
#
# Outputs (relative to the repository root):
#   .gpu/halide14/halide14_bench   the runner (stripped; libstdc++ static)
#   .gpu/halide14/run.sh           copy of bench/halide14/run.sh
#   .gpu/halide14/src/             the AOT objects (.a, .h), harness.cpp and
#                                  the Halide runtime headers, so that the
#                                  runner can be relinked with any g++ on the
#                                  GPU machine if the prebuilt one does not load
#                                  there (run.sh does that by itself).
# Intermediates go to ${BUILD:-.scratch-halide14} (gitignored).
#
# Environment: CXX (g++), JOBS (how many generator compiles at once, 1),
# CPU_TARGET, CUDA_TARGET (see below), BUILD.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"

CXX="${CXX:-g++}"
HALIDE_INC="${HALIDE_INC:-/usr/include/halide14}"
HALIDE_SRC="${HALIDE_SRC:-/usr/src/halide14}"
HALIDE_LIB="${HALIDE_LIB:-/usr/lib/x86_64-linux-gnu/libHalide14.so}"
BUILD="${BUILD:-$ROOT/.scratch-halide14}"
OUT="${OUT:-$ROOT/.gpu/halide14}"

# x86-64 with AVX2/FMA/F16C (Haswell and later; every x86 host of an H100 has
# them), no AVX-512. The CUDA pipelines use the same host features; their
# kernels are PTX for sm_86 (the highest capability Halide 14 knows), which the
# driver compiles for the H100 (sm_90) when the module is loaded.
CPU_TARGET="${CPU_TARGET:-x86-64-linux-avx2-sse41-fma-f16c}"
CUDA_TARGET="${CUDA_TARGET:-x86-64-linux-avx2-sse41-fma-f16c-cuda-cuda_capability_86}"
# One runtime for both: the CUDA target's (a superset of the CPU target's).
RUNTIME_TARGET="$CUDA_TARGET"

for f in "$HALIDE_INC/Halide.h" "$HALIDE_SRC/GenGen.cpp" "$HALIDE_LIB"; do
    [ -e "$f" ] || { echo "build.sh: missing $f (apt-get install libhalide14-0-dev)" >&2; exit 1; }
done

mkdir -p "$BUILD/gen" "$BUILD/aot" "$OUT/src"
t0=$(date +%s)

# 1. The generator executable: the three generators and GenGen's main.
GENFLAGS=(-std=c++17 -O0 -g0 -I"$HALIDE_INC" -I"$HALIDE_SRC")
objs=()
for src in "$HERE"/third_party/generators/*_generator.cpp "$HALIDE_SRC/GenGen.cpp"; do
    obj="$BUILD/gen/$(basename "${src%.cpp}").o"
    objs+=("$obj")
    if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ]; then
        echo "compile $(basename "$src")" >&2
        "$CXX" "${GENFLAGS[@]}" -c "$src" -o "$obj"
    fi
done
GEN="$BUILD/gen/halide14.generator"
if [ ! -e "$GEN" ] || [ -n "$(find "${objs[@]}" -newer "$GEN")" ]; then
    echo "link generator" >&2
    "$CXX" "${objs[@]}" -o "$GEN" "$HALIDE_LIB" -ldl -lpthread -Wl,-rpath,"$(dirname "$HALIDE_LIB")"
fi
echo "generator ready after $(( $(date +%s) - t0 )) s" >&2

# 2. AOT: six pipelines (no runtime in them) and one runtime.
gen() { # name generator target [params...]
    local name=$1 g=$2 target=$3; shift 3
    echo "generate $name ($target)" >&2
    "$GEN" -g "$g" -f "$name" -n "$name" -e static_library,h,stmt -o "$BUILD/aot" \
        target="$target-no_runtime" auto_schedule=false "$@"
}
for t in cpu cuda; do
    if [ $t = cpu ]; then target=$CPU_TARGET; else target=$CUDA_TARGET; fi
    gen bilateral_grid_$t bilateral_grid "$target" s_sigma=8
    gen local_laplacian_$t local_laplacian "$target" pyramid_levels=8
    gen camera_pipe_$t camera_pipe "$target"
done
echo "generate runtime ($RUNTIME_TARGET)" >&2
"$GEN" -r halide14_runtime -e static_library -o "$BUILD/aot" target="$RUNTIME_TARGET"
echo "AOT done after $(( $(date +%s) - t0 )) s" >&2

# 3. The runner.
cp "$HERE/harness.cpp" "$OUT/src/"
for t in cpu cuda; do
    for a in bilateral_grid local_laplacian camera_pipe; do
        cp "$BUILD/aot/${a}_$t.a" "$BUILD/aot/${a}_$t.h" "$OUT/src/"
    done
done
cp "$BUILD/aot/halide14_runtime.a" "$OUT/src/"
for h in HalideRuntime.h HalideRuntimeCuda.h HalideBuffer.h; do cp "$HALIDE_INC/$h" "$OUT/src/"; done
cp "$HERE/link.sh" "$OUT/src/"
bash "$HERE/link.sh" "$OUT/src" "$OUT/halide14_bench"
cp "$HERE/run.sh" "$OUT/run.sh"
echo "built $OUT/halide14_bench in $(( $(date +%s) - t0 )) s" >&2
du -sh "$OUT" >&2
