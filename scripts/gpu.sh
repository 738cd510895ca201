#!/usr/bin/env bash
# scripts/gpu.sh: build everything that runs on a real GPU, into .gpu/ (git
# ignores it), on this machine (no GPU needed here):
#   - installs the CUDA 11.8 toolkit if nvcc is missing (scripts/install-cuda-toolkit.sh);
#   - builds the cuda-tagged test binaries, the apps and both fuzzers
#     (schedfuzz, progfuzz; scripts/gpu-check.sh runs them) with -tags cuda;
#   - stages NVRTC 11.8 next to them (.gpu/nvrtc-env.sh), because the GPU
#     machine may only have a newer NVRTC;
#   - prints the command to run on the GPU machine.
# Run the printed command there from the repository root, with .gpu present.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
out=.gpu
mkdir -p "$out"

if ! command -v nvcc >/dev/null 2>&1; then
  scripts/install-cuda-toolkit.sh
fi

echo "== building with -tags cuda into $out/"
go test -c -tags cuda -ldflags="-s -w" -o "$out/cuda.test" ./tests/cuda/
# The ported Halide GPU tests and the issue 9 tests, on the GPU.
go test -c -tags cuda -ldflags="-s -w" -o "$out/gpu.test" ./tests/gpu/
# Every scalar type on the GPU, the 16-bit floats bit for bit.
go test -c -tags cuda -ldflags="-s -w" -o "$out/types.test" ./tests/types/
go build -tags cuda -ldflags="-s -w" -o "$out/schedfuzz" ./tests/fuzz/cmd/schedfuzz
go build -tags cuda -ldflags="-s -w" -o "$out/progfuzz" ./tests/fuzz/cmd/progfuzz
for app in apps/*/; do
  name=$(basename "$app")
  [ -f "$app/main.go" ] || continue
  go build -tags cuda -ldflags="-s -w" -o "$out/$name" "./$app"
done

echo "== staging NVRTC 11.8"
lib=/usr/lib/x86_64-linux-gnu
[ -f $lib/libnvrtc.so.11.8.89 ] || { echo "NVRTC 11.8 missing: run scripts/install-cuda-toolkit.sh" >&2; exit 1; }
[ -f "$out/nvrtc118.tar.xz" ] || tar cJf "$out/nvrtc118.tar.xz" -C $lib libnvrtc.so.11.8.89 libnvrtc-builtins.so.11.8.89
cat > "$out/nvrtc-env.sh" <<'EOS'
# source me on the GPU machine: unpacks NVRTC 11.8 and points the loader at it
_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p /tmp/nvrtc118
[ -f /tmp/nvrtc118/libnvrtc.so.11.8.89 ] || tar xJf "$_here/nvrtc118.tar.xz" -C /tmp/nvrtc118
ln -sf libnvrtc.so.11.8.89 /tmp/nvrtc118/libnvrtc.so.11.2
ln -sf libnvrtc-builtins.so.11.8.89 /tmp/nvrtc118/libnvrtc-builtins.so.11.8
export LD_LIBRARY_PATH=/tmp/nvrtc118${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
EOS

cat <<EOT
== built: $(ls "$out" | tr '\n' ' ')
Run on the GPU machine, from the repository root (with $out/ present):

  source $out/nvrtc-env.sh && ./$out/cuda.test -test.v && ./$out/tensorproduct -target=cuda

and under the sanitizers:

  source $out/nvrtc-env.sh && for tool in memcheck racecheck synccheck; do compute-sanitizer --tool \$tool --error-exitcode 1 ./$out/cuda.test -test.run 'TestAppSchedules' || exit 1; done
EOT
