"""Triton peers of our apps, beside PyTorch (bench/torch_bench.py).

  tensorproduct  a fused gather-GEMM-scatter kernel: one program per block
                 of BLOCK_P pairs of one kernel offset n gathers the pairs'
                 input rows, multiplies them by weight[n] with tl.dot, and
                 adds the rows into the output with atomics. FP32 with
                 input_precision="ieee", and TF32 ("tf32").
  gemm           an FP32 GEMM (input_precision="ieee"), blocked, with the
                 grouped launch order of the Triton tutorial, its tiles
                 autotuned for the shape.

Inputs are drawn as in torch_bench.py: uniform values in [-1, 1] and
uniform random gather/scatter maps (the peers' distribution). Each variant
is checked against a float64 reference before it is timed (relative error
<= 1e-4 for FP32, 5e-2 for TF32); times are CUDA events around each call,
median of --runs after --warmup calls.

Usage: python3 bench/triton_bench.py [--runs 50] [--warmup 5] [--json]
"""

import argparse
import json
import sys

import torch
import triton
import triton.language as tl

from torch_bench import time_cuda


@triton.jit
def _tp_kernel(inp, weight, imap, omap, out, P, C: tl.constexpr, M: tl.constexpr,
               BLOCK_P: tl.constexpr, PRECISION: tl.constexpr):
    pb = tl.program_id(0)
    n = tl.program_id(1)
    p = pb * BLOCK_P + tl.arange(0, BLOCK_P)
    live = p < P
    rows = tl.load(imap + n * P + p, mask=live, other=0)
    c = tl.arange(0, C)
    m = tl.arange(0, M)
    a = tl.load(inp + rows[:, None] * C + c[None, :], mask=live[:, None], other=0.0)
    w = tl.load(weight + n * C * M + c[:, None] * M + m[None, :])
    acc = tl.dot(a, w, input_precision=PRECISION)
    dst = tl.load(omap + n * P + p, mask=live, other=0)
    tl.atomic_add(out + dst[:, None] * M + m[None, :], acc, mask=live[:, None])


def tp_fused(inp, weight, imap, omap, out, precision, block_p=64):
    N, C, M = weight.shape
    P = imap.shape[1]
    out.zero_()
    grid = (triton.cdiv(P, block_p), N)
    _tp_kernel[grid](inp, weight, imap, omap, out, P, C=C, M=M, BLOCK_P=block_p,
                     PRECISION=precision, num_warps=4)
    return out


_GEMM_CONFIGS = [
    triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP": 8}, num_warps=w, num_stages=s)
    for bm, bn, bk, w, s in [
        (128, 256, 32, 8, 3), (256, 128, 32, 8, 3), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
        (64, 128, 32, 4, 4), (64, 64, 32, 4, 5), (128, 128, 64, 8, 3), (64, 256, 32, 4, 4),
        (128, 32, 32, 4, 4), (64, 32, 32, 2, 5),
    ]
]


@triton.autotune(configs=_GEMM_CONFIGS, key=["M", "N", "K"])
@triton.jit
def _gemm_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                 GROUP: tl.constexpr):
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BM)
    grid_n = tl.cdiv(N, BN)
    width = GROUP * grid_n
    group = pid // width
    first = group * GROUP
    size = min(grid_m - first, GROUP)
    pm = first + (pid % size)
    pn = (pid % width) // size
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        y = tl.load(b + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(x, y, input_precision="ieee")
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def gemm(A, B, C):
    """C = A B in FP32, with the tile configuration Triton's autotuner picks
    for the shape (the first call tunes)."""
    M, K = A.shape
    N = B.shape[1]
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]),)
    _gemm_kernel[grid](A, B, C, M, N, K)
    return C


def rel_err(got, want):
    return ((got.double() - want).abs() / want.abs().clamp(min=1.0)).max().item()


def checked(torch, name, fn, want, tol, result=None):
    """fn, after checking once that its result (fn's return value, or
    result) is within tol of the float64 want (relative to max(1, |want|));
    a failed check raises, so the variant is reported as an error."""
    got = fn()
    torch.cuda.synchronize()
    err = rel_err(got if result is None else result, want)
    if not err <= tol:
        raise RuntimeError("%s: relative error %g over %g against float64" % (name, err, tol))
    print("triton_bench: %s checked against float64: max relative error %.2g (tolerance %g)" % (name, err, tol),
          file=sys.stderr)
    return fn


def run(args):
    """The workloads of bench/workloads.py that have Triton variants, run
    through torch_bench.py's inputs (so that both sides draw the same
    data)."""
    import torch_bench
    import workloads
    import torch.nn.functional as F
    dev = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for w in workloads.WORKLOADS:
        names = [v for v in w["variants"] if v.startswith("triton")]
        if not names:
            continue
        torch.manual_seed(args.seed)
        variants = torch_bench.make_variants(torch, F, w, dev)
        for v in names:
            t = time_cuda(torch, variants[v], args.runs, args.warmup)
            rows.append({"workload": w["id"], "variant": v, **t})
        del variants
        torch.cuda.empty_cache()
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = run(args)
    if args.json:
        json.dump({"torch": torch.__version__, "triton": triton.__version__,
                   "device": torch.cuda.get_device_name(), "rows": rows}, sys.stdout, indent=2)
        print()
    else:
        print("torch %s, triton %s, %s" % (torch.__version__, triton.__version__, torch.cuda.get_device_name()))
        for r in rows:
            print("%-40s %-20s median %.3f ms (min %.3f, max %.3f, %d runs)" % (
                r["workload"], r["variant"], r["median_ms"], r["min_ms"], r["max_ms"], r["runs"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
