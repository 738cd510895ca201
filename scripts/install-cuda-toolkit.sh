#!/usr/bin/env bash
# Installs Debian's CUDA 11.8 toolkit (nvcc, ptxas, NVRTC, cuda.h, libcuda
# stubs; the package pulls a host compiler nvcc supports) on a Debian machine
# without a GPU, so that the cfamily package's nvcc checks compile every emitted
# kernel for sm_90 and read ptxas's resource counts, and so that the
# cuda-tagged code builds.
#
# Idempotent: when nvcc, cuda.h and nvrtc.h are already there it only checks
# that nvcc works. About 1.6 GB of packages; 2-3 minutes on a fresh machine.
# Fails loudly (non-zero exit, the end of apt's log) when apt fails.
set -euo pipefail

log=${TMPDIR:-/tmp}/install-cuda-toolkit.log

# smoke compiles an empty kernel: nvcc, its host compiler and ptxas work.
smoke() {
  local dir
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  echo '__global__ void gohalide_smoke() {}' >"$dir/smoke.cu"
  if ! nvcc -arch=sm_90 -cubin -o "$dir/smoke.cubin" "$dir/smoke.cu" >"$dir/out" 2>&1; then
    echo "install-cuda-toolkit: nvcc is installed but cannot compile a kernel:" >&2
    cat "$dir/out" >&2
    return 1
  fi
  nvcc --version | tail -1
}

if command -v nvcc >/dev/null && [ -f /usr/include/cuda.h ] && [ -f /usr/include/nvrtc.h ]; then
  smoke
  exit 0
fi

# apt needs root: use sudo when we are not root.
sudo=()
if [ "$(id -u)" != 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "install-cuda-toolkit: must run as root (or with sudo available)" >&2
    exit 1
  fi
  sudo=(sudo)
fi

# The toolkit is in Debian's non-free component.
src=/etc/apt/sources.list.d/debian.sources
if [ -f "$src" ] && ! grep -q "non-free" "$src"; then
  "${sudo[@]}" sed -i 's/^Components: main$/Components: main contrib non-free non-free-firmware/' "$src"
elif [ -f /etc/apt/sources.list ] && grep -q '^deb .* main$' /etc/apt/sources.list; then
  "${sudo[@]}" sed -i 's/^\(deb .* main\)$/\1 contrib non-free non-free-firmware/' /etc/apt/sources.list
fi

export DEBIAN_FRONTEND=noninteractive
for try in 1 2 3; do
  if "${sudo[@]}" apt-get update -qq >"$log" 2>&1 &&
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >>"$log" 2>&1; then
    break
  fi
  echo "install-cuda-toolkit: apt-get failed (try $try of 3); see $log" >&2
  if [ "$try" = 3 ]; then
    tail -30 "$log" >&2
    exit 1
  fi
  sleep 5
done

if ! command -v nvcc >/dev/null; then
  echo "install-cuda-toolkit: nvidia-cuda-toolkit is installed but nvcc is not on PATH" >&2
  exit 1
fi
smoke
