"""The benchmark workloads, shared by torch_bench.py and compare.py.

Each workload is one problem size of one of our apps, with the PyTorch
variants that do the same computation and, where the project has one, the
target our time must meet. The "id" is the key that joins the two sides:
torch_bench.py writes it as "workload", compare.py maps our apps' results
onto it by app name and size (see match_size).

Importing this module needs only the standard library (no torch).
"""

import re

# Our apps, in the order run.sh runs them.
APPS = ["tensorproduct", "depthwise", "conv1d", "gemm", "conv2d",
        "bilateralgrid", "locallaplacian", "camerapipe", "rowsum"]

# The Halide 14 peers of the ports of Halide's apps (bench/halide14): the
# app name its runner writes, and the workload it times. Its variants are
# "halide14_cuda" and "halide14_cpu".
HALIDE14 = {
    "bilateral_grid": "bilateral_grid 1536x2560",
    "local_laplacian": "local_laplacian 1536x2560x3",
    "camera_pipe": "camera_pipe 2592x1968",
}

def _target(kind, text, variants=None, value=None):
    """A target: kind is
    "ratio_ge": theirs_ms / ours_ms >= value, theirs the fastest of variants;
    "ours_ms_lt": our median below value ms (absolute)."""
    return {"kind": kind, "text": text, "variants": variants or [], "value": value}


# Each workload:
#   id        the join key (torch_bench.py's "workload")
#   app       our app's name (Result.app, or the JSON file's name)
#   params    the sizes; compare.py matches them against our Result.size
#   shape     the sizes in words
#   variants  PyTorch variants, in the order compare.py lists them (the
#             first is the one the ratio column uses when there is no target)
#   target    the project's target for our time, or None
WORKLOADS = [
    {
        "id": "depthwise 64x32x112x112 k3",
        "app": "depthwise",
        "params": {"B": 64, "C": 32, "H": 112, "W": 112, "K": 3},
        "shape": "B=64 C=32 H=112 W=112 K=3, fp32, same padding",
        "variants": ["channels_last", "nchw"],
        "target": _target("ratio_ge", ">= 1.2x cuDNN channels_last (issue 10: keep)",
                          ["channels_last"], 1.2),
    },
    {
        "id": "depthwise 4x32x112x112 k3",
        "app": "depthwise",
        "params": {"B": 4, "C": 32, "H": 112, "W": 112, "K": 3},
        "shape": "B=4 C=32 H=112 W=112 K=3, fp32, same padding",
        "variants": ["channels_last", "nchw"],
        "target": None,
    },
    {
        "id": "depthwise 3x4x16x32 k7",
        "app": "depthwise",
        "params": {"B": 3, "C": 4, "H": 16, "W": 32, "K": 7},
        "shape": "B=3 C=4 H=16 W=32 K=7, fp32, same padding",
        "variants": ["channels_last", "nchw"],
        "target": _target("ours_ms_lt", "seed v4 kernel time at most 4 us (issue 10)", value=0.004),
    },
    {
        "id": "conv1d M=2^24 N=32",
        "app": "conv1d",
        "params": {"M": 1 << 24, "N": 32},
        "shape": "M=16777216 N=32, full convolution (out M+N-1)",
        "variants": ["F.conv1d"],
        "target": _target("ratio_ge", ">= 5x F.conv1d (issue 10: keep)", ["F.conv1d"], 5.0),
    },
    {
        "id": "conv1d M=16384 N=32",
        "app": "conv1d",
        "params": {"M": 16384, "N": 32},
        "shape": "M=16384 N=32, full convolution (out M+N-1)",
        "variants": ["F.conv1d"],
        "target": _target("ratio_ge", "no slower than F.conv1d", ["F.conv1d"], 1.0),
    },
    {
        "id": "gemm 1024x2048x512",
        "app": "gemm",
        "params": {"M": 1024, "K": 2048, "N": 512},
        "shape": "C[M,N] = A[M,K] B[K,N], M=1024 K=2048 N=512, fp32 (TF32 off)",
        "variants": ["matmul_fp32", "triton_fp32"],
        "target": _target("ratio_ge", ">= 0.9x cuBLAS SGEMM (and >= 1.0x Triton FP32: read off the triton_fp32 row)",
                          ["matmul_fp32"], 0.9),
    },
    {
        "id": "conv2d 256x256x14x14 -> 512 k3",
        "app": "conv2d",
        "params": {"B": 256, "Cin": 256, "Cout": 512, "H": 14, "W": 14, "K": 3},
        "shape": "batch 256, 256 -> 512 channels, 14x14, 3x3, pad 1, stride 1, fp32 (TF32 off)",
        "variants": ["nchw", "channels_last"],
        "target": _target("ours_ms_lt", "HWCN at most 2.5 ms (issue 10)", value=2.5),
    },
    {
        "id": "tensorproduct 8427",
        "app": "tensorproduct",
        "params": {"C": 64, "M": 64, "N": 27, "P": 33333, "points": 100000, "hotspot": 0},
        "shape": "100000 in/out points, 64 -> 64 channels, 27 offsets x 33333 pairs, uniform maps",
        "variants": ["gather_bmm_scatter", "gather_mm_scatter_loop", "bmm_only",
                     "triton_fused_fp32", "triton_fused_tf32"],
        "target": _target("ratio_ge",
                          ">= 2x faster than PyTorch gather/bmm/scatter (the faster of bmm and per-offset loop); "
                          "the Triton FP32 target (>= 1.3x) is read off the triton_fused_fp32 row",
                          ["gather_bmm_scatter", "gather_mm_scatter_loop"], 2.0),
    },
    {
        "id": "tensorproduct 8427 hot-spot",
        "app": "tensorproduct",
        "params": {"C": 64, "M": 64, "N": 27, "P": 33333, "points": 100000, "hotspot": 1},
        "shape": "as tensorproduct 8427, but every fifth pair scatters to output point 0 and every "
                 "seventh to its neighbour's (atomic collisions)",
        "variants": ["gather_bmm_scatter", "gather_mm_scatter_loop"],
        "target": None,
    },
    {
        "id": "rowsum 8192x8192",
        "app": "rowsum",
        "params": {"H": 8192, "W": 8192},
        "shape": "sum over dim 1 of an [8192, 8192] fp32 tensor (8192 row sums)",
        "variants": ["torch.sum"],
        # The memory floor (268 MB read once) is about 90 us on the H100;
        # 85% of it is 90 / 0.85 = 106 us.
        "target": _target("ours_ms_lt", ">= 85% of the memory floor (~90 us on the H100): at most 106 us (issue 20)",
                          value=0.106),
    },
]

WORKLOADS += [
    {
        "id": "bilateral_grid 1536x2560",
        "app": "bilateralgrid",
        "params": {"W": 1536, "H": 2560},
        "shape": "float32 1536x2560, r_sigma 0.1, s_sigma 8 (Halide's apps/bilateral_grid)",
        "variants": ["halide14_cuda"],
        "target": None,
    },
    {
        "id": "local_laplacian 1536x2560x3",
        "app": "locallaplacian",
        "params": {"W": 1536, "H": 2560, "C": 3},
        "shape": "uint16 1536x2560x3, 8 levels, alpha 1/7, beta 1 (Halide's apps/local_laplacian)",
        "variants": ["halide14_cuda"],
        "target": None,
    },
    {
        "id": "camera_pipe 2592x1968",
        "app": "camerapipe",
        "params": {"W": 2592, "H": 1968},
        "shape": "uint16 Bayer 2592x1968 -> uint8 2560x1920x3 (Halide's apps/camera_pipe)",
        "variants": ["halide14_cuda"],
        "target": None,
    },
]

BY_ID = {w["id"]: w for w in WORKLOADS}


# ---------------------------------------------------------------------------
# Matching our Result.size strings to workloads.
# ---------------------------------------------------------------------------

# A number not glued to a word ("fp32", "k3", "conv2d" hold none), except
# after an x ("64x32x112").
_NUM = re.compile(r"(?<![A-WYZa-wyz_0-9])(?:(\d+)\s*(\^|\*\*|<<)\s*(\d+)|(\d+(?:_\d{3})+|\d+))")
_KEYVAL = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\s*[=:]\s*([0-9][0-9_]*(?:\s*(?:\^|\*\*|<<)\s*\d+)?)")


def _value(text):
    m = _NUM.match(text.strip())
    if not m:
        return None
    if m.group(2):
        a, op, b = int(m.group(1)), m.group(2), int(m.group(3))
        return a ** b if op in ("^", "**") else a << b
    return int(m.group(4).replace("_", ""))


def size_numbers(size):
    """Every integer in a size string: "M=2^24 N=32" -> [16777216, 32];
    "64x32x112x112, 3x3" -> [64, 32, 112, 112, 3, 3]. Powers (2^24, 2**24,
    1<<24) and Go-style 100_000 are understood; commas separate numbers."""
    out = []
    for m in _NUM.finditer(size):
        out.append(_value(m.group(0)))
    return out


def size_keys(size):
    """The key=value pairs of a size string, keys as written."""
    return {k: _value(v) for k, v in _KEYVAL.findall(size)}


def match_size(params, size):
    """How well a size string matches a workload's params: None if it does
    not, else a score (higher is better).

    1. If the string names every param (key=value, keys compared without
       case), the values must be equal: score 2.
    2. Otherwise every param value must occur among the string's numbers,
       counted with multiplicity (so B=4 does not match 64, and 14x14 needs
       two 14s): score 1. Extra numbers (pad=1, stride=1, a second 3 of
       3x3) are allowed.
    """
    keys = {k.lower(): v for k, v in size_keys(size).items()}
    if all(k.lower() in keys for k in params):
        ok = all(keys[k.lower()] == v for k, v in params.items())
        return 2 if ok else None
    nums = size_numbers(size)
    for v in params.values():
        if v in nums:
            nums.remove(v)
        else:
            return None
    return 1


def find_workload(app, size):
    """The id of the workload of this app that the size matches best, or
    None."""
    best, score = None, 0
    for w in WORKLOADS:
        if w["app"] != app:
            continue
        s = match_size(w["params"], size)
        if s is not None and s > score:
            best, score = w["id"], s
    return best
