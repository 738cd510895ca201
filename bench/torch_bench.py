#!/usr/bin/env python3
"""Times PyTorch (cuDNN, cuBLAS) on the workloads of our apps.

Every workload of bench/workloads.py, at our apps' sizes exactly, fp32 with
TF32 off everywhere (torch.backends.cuda.matmul.allow_tf32 = False,
torch.backends.cudnn.allow_tf32 = False), inputs uniform in [-1, 1] from
torch.manual_seed(--seed), already on the GPU. Each variant runs --warmup
times (cuDNN autotuning happens there, with torch.backends.cudnn.benchmark
on unless --no-cudnn-benchmark), then --runs times, each run between two
CUDA events (torch.cuda.Event(enable_timing=True)) and synchronized on its
end event, as our Go benchmark (gpu/cuda Device.Benchmark) does. The median
is the same as ours: the element at index runs//2 of the sorted times.
That event pair also covers the Python call and the launches; the "graph"
time (time_graph) takes them out: GRAPH_CALLS calls captured in one CUDA
graph, each replay timed between two events, the median per call.

The PyTorch way of each workload:
  depthwise   F.conv2d(x, w, groups=C, padding=K//2), x [B,C,H,W], w [C,1,K,K],
              in NCHW ("nchw") and with x and w in torch.channels_last
              ("channels_last").
  conv1d      our out[i] = sum_j a[i-j] b[j], i in [0, M+N-1) (numpy.convolve).
              F.conv1d is a cross-correlation, so the kernel is flipped:
              F.conv1d(a.view(1,1,M), b.flip(0).view(1,1,N), padding=N-1),
              which gives M+N-1 outputs. The flip is done once, outside the
              timed region (the kernel is a constant of the problem).
  gemm        torch.matmul(A, B), A [M,K], B [K,N], fp32, TF32 off (cuBLAS SGEMM).
  conv2d      F.conv2d(x, w, padding=1), x [256,256,14,14], w [512,256,3,3],
              NCHW and channels_last (our app's layout is HWCN, which
              PyTorch does not have).
  rowsum      torch.sum(x, dim=1), x [8192, 8192] (our app sums each row of a
              W x H array stored x fastest: the same memory).
  tensorproduct  input [100000, 64], weight [27, 64, 64], imap and omap
              [27, 33333] int64 uniform in [0, 100000):
              gather_bmm_scatter:     g = input[imap] ([27, 33333, 64]);
                                      prod = torch.bmm(g, weight);
                                      out.zero_(); out.index_add_(0, omap.flatten(), prod.flatten(0, 1))
              gather_mm_scatter_loop: out.zero_(); for each offset n:
                                      out.index_add_(0, omap[n], input[imap[n]] @ weight[n])
              bmm_only:               torch.bmm(g, weight) on a pre-gathered g.
              (Zeroing the output is timed: our pipeline zeroes it too.)

Before timing, a small self-check runs the conv1d and tensor-product
formulations against a float64 reference on the CPU (--no-check skips it).

Usage (on the GPU machine, from the repository root):
  python3 bench/torch_bench.py [--json] [--runs 50] [--warmup 10] [--only SUBSTRING] [--seed 0]
  python3 bench/torch_bench.py --list      (the workloads; needs no torch)

--json prints a JSON list of {workload, variant, shape, median_ms, min_ms,
max_ms, runs, device, torch}; a variant that failed has "error" instead of
the times. Without --json, a table.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="Time PyTorch on our apps' workloads (CUDA events).")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--runs", type=int, default=50, help="timed runs per variant (default 50)")
    p.add_argument("--warmup", type=int, default=10, help="untimed runs first (default 10)")
    p.add_argument("--seed", type=int, default=0, help="torch.manual_seed of the inputs (default 0)")
    p.add_argument("--only", default="", help="run only workloads whose id contains this substring")
    p.add_argument("--device", default="cuda", help="CUDA device, e.g. cuda:1 (default cuda)")
    p.add_argument("--no-cudnn-benchmark", action="store_true",
                   help="leave torch.backends.cudnn.benchmark off (default: on, cuDNN autotunes in the warm-up)")
    p.add_argument("--no-check", action="store_true", help="skip the formulation self-check")
    p.add_argument("--list", action="store_true", help="list the workloads and exit (no torch needed)")
    a = p.parse_args(argv)
    if a.runs < 1:
        p.error("--runs must be >= 1")
    if a.warmup < 0:
        p.error("--warmup must be >= 0")
    return a


def summarize(times):
    """Median (index len//2 of the sorted times, as our Go side), min, max."""
    s = sorted(times)
    return {"median_ms": s[len(s) // 2], "min_ms": s[0], "max_ms": s[-1], "runs": len(s)}


def format_table(rows):
    head = ["workload", "variant", "median us", "min us", "max us", "runs", "graph us"]
    body = []
    for r in rows:
        if "error" in r:
            body.append([r["workload"], r["variant"], "error: " + r["error"][:60], "", "", "", ""])
        else:
            body.append([r["workload"], r["variant"], "%.1f" % (r["median_ms"] * 1e3),
                         "%.1f" % (r["min_ms"] * 1e3), "%.1f" % (r["max_ms"] * 1e3), str(r["runs"]),
                         "%.1f" % (r["graph_median_ms"] * 1e3) if "graph_median_ms" in r else "-"])
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [head] + body]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Everything below needs torch.
# ---------------------------------------------------------------------------

def time_cuda(torch, fn, runs, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return summarize(times)


GRAPH_CALLS = 10


def time_graph(torch, fn, runs):
    """The GPU time of one call without the Python and launch overhead: the
    call captured GRAPH_CALLS times in one CUDA graph (after time_cuda's
    warm-up), each replay timed between two CUDA events; the median per
    call (the replay's time / GRAPH_CALLS), as summarize gives it."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()  # allocations of the capture come from the graph pool
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(GRAPH_CALLS):
            fn()
    g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        g.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / GRAPH_CALLS)
    return summarize(times)


def uniform(torch, shape, dev):
    return torch.empty(shape, dtype=torch.float32, device=dev).uniform_(-1.0, 1.0)


def make_variants(torch, F, w, dev):
    """The (variant name, function) pairs of a workload, inputs made here."""
    p = w["params"]
    app = w["app"]
    if app == "depthwise":
        B, C, H, W, K = p["B"], p["C"], p["H"], p["W"], p["K"]
        x = uniform(torch, (B, C, H, W), dev)
        wt = uniform(torch, (C, 1, K, K), dev)
        xc = x.contiguous(memory_format=torch.channels_last)
        wc = wt.contiguous(memory_format=torch.channels_last)
        return {
            "nchw": lambda: F.conv2d(x, wt, groups=C, padding=K // 2),
            "channels_last": lambda: F.conv2d(xc, wc, groups=C, padding=K // 2),
        }
    if app == "conv1d":
        M, N = p["M"], p["N"]
        a = uniform(torch, (M,), dev)
        b = uniform(torch, (N,), dev)
        a3 = a.view(1, 1, M)
        bf = b.flip(0).contiguous().view(1, 1, N)  # conv1d is a cross-correlation
        return {"F.conv1d": lambda: F.conv1d(a3, bf, padding=N - 1)}
    if app == "gemm":
        M, K, N = p["M"], p["K"], p["N"]
        A = uniform(torch, (M, K), dev)
        Bm = uniform(torch, (K, N), dev)
        out = {"matmul_fp32": lambda: torch.matmul(A, Bm)}
        tb = triton_peers()
        if tb is not None:
            Cm = torch.empty((M, N), dtype=torch.float32, device=dev)
            out["triton_fp32"] = tb.checked(torch, "triton_fp32", lambda: tb.gemm(A, Bm, Cm),
                                            A.double() @ Bm.double(), 1e-4)
        return out
    if app == "conv2d":
        B, Ci, Co, H, W, K = p["B"], p["Cin"], p["Cout"], p["H"], p["W"], p["K"]
        x = uniform(torch, (B, Ci, H, W), dev)
        wt = uniform(torch, (Co, Ci, K, K), dev)
        xc = x.contiguous(memory_format=torch.channels_last)
        wc = wt.contiguous(memory_format=torch.channels_last)
        return {
            "nchw": lambda: F.conv2d(x, wt, padding=K // 2),
            "channels_last": lambda: F.conv2d(xc, wc, padding=K // 2),
        }
    if app == "tensorproduct":
        C, M, N, P, pts = p["C"], p["M"], p["N"], p["P"], p["points"]
        inp, weight, imap, omap = tp_inputs(torch, C, M, N, P, pts, pts, dev)
        if p.get("hotspot"):
            # The hot-spot maps of our app (algo.HotSpotMaps): every fifth
            # pair scatters to point 0, every seventh (not fifth) to its
            # neighbour's point.
            pidx = torch.arange(P, device=dev)
            omap[:, pidx % 5 == 1] = 0
            seventh = (pidx % 7 == 3) & (pidx % 5 != 1) & (pidx > 0)
            omap[:, seventh] = omap[:, (pidx - 1).clamp(min=0)][:, seventh]
        out = torch.zeros((pts, M), dtype=torch.float32, device=dev)
        g = inp[imap]  # pre-gathered, for bmm_only
        variants = {
            "gather_bmm_scatter": lambda: tp_bmm(torch, inp, weight, imap, omap, out),
            "gather_mm_scatter_loop": lambda: tp_loop(inp, weight, imap, omap, out),
            "bmm_only": lambda: torch.bmm(g, weight),
        }
        tb = triton_peers()
        if tb is not None and "triton_fused_fp32" in w["variants"]:
            i32, o32 = imap.to(torch.int32).contiguous(), omap.to(torch.int32).contiguous()
            want = torch.zeros((pts, M), dtype=torch.float64, device=dev)
            want.index_add_(0, omap.flatten(), torch.bmm(inp.double()[imap], weight.double()).flatten(0, 1))
            for name, prec, tol in [("triton_fused_fp32", "ieee", 1e-4), ("triton_fused_tf32", "tf32", 5e-2)]:
                variants[name] = tb.checked(torch, name, lambda prec=prec: tb.tp_fused(inp, weight, i32, o32, out, prec),
                                            want, tol, result=out)
            del want
        return variants
    if app == "rowsum":
        H, W = p["H"], p["W"]
        x = uniform(torch, (H, W), dev)
        return {"torch.sum": lambda: torch.sum(x, dim=1)}
    raise ValueError("unknown app " + app)


def triton_peers():
    """bench/triton_bench.py, or None where Triton is not installed."""
    try:
        import triton_bench
    except ImportError as e:
        print("torch_bench: no Triton peers (%s)" % e, file=sys.stderr)
        return None
    return triton_bench


def tp_inputs(torch, C, M, N, P, in_pts, out_pts, dev):
    inp = uniform(torch, (in_pts, C), dev)
    weight = uniform(torch, (N, C, M), dev)
    imap = torch.randint(0, in_pts, (N, P), dtype=torch.int64, device=dev)
    omap = torch.randint(0, out_pts, (N, P), dtype=torch.int64, device=dev)
    return inp, weight, imap, omap


def tp_bmm(torch, inp, weight, imap, omap, out):
    g = inp[imap]                      # [N, P, C]
    prod = torch.bmm(g, weight)        # [N, P, M]
    out.zero_()
    out.index_add_(0, omap.flatten(), prod.flatten(0, 1))
    return out


def tp_loop(inp, weight, imap, omap, out):
    out.zero_()
    for n in range(weight.shape[0]):
        out.index_add_(0, omap[n], inp[imap[n]] @ weight[n])
    return out


def self_check(torch, F, dev):
    """The formulations against a float64 CPU reference, at small sizes.
    Returns a list of failure messages."""
    bad = []
    # conv1d: out[i] = sum_j a[i-j] b[j], i in [0, M+N-1).
    M, N = 50, 7
    a = uniform(torch, (M,), dev)
    b = uniform(torch, (N,), dev)
    got = F.conv1d(a.view(1, 1, M), b.flip(0).contiguous().view(1, 1, N), padding=N - 1).view(-1).cpu().double()
    ad, bd = a.cpu().double().tolist(), b.cpu().double().tolist()
    want = [sum(ad[i - j] * bd[j] for j in range(N) if 0 <= i - j < M) for i in range(M + N - 1)]
    if got.numel() != M + N - 1:
        bad.append("conv1d: %d outputs, want %d" % (got.numel(), M + N - 1))
    else:
        err = max(abs(g - w) for g, w in zip(got.tolist(), want))
        if err > 1e-4:
            bad.append("conv1d: max error %g" % err)
    # tensor product: both formulations against a float64 loop.
    C = Mc = 8
    Nn, P, pts = 3, 40, 25
    inp, weight, imap, omap = tp_inputs(torch, C, Mc, Nn, P, pts, pts, dev)
    ref = torch.zeros((pts, Mc), dtype=torch.float64)
    i64, w64 = inp.cpu().double(), weight.cpu().double()
    for n in range(Nn):
        for q in range(P):
            ref[omap[n, q].item()] += i64[imap[n, q].item()] @ w64[n]
    for name, fn in (("gather_bmm_scatter", lambda o: tp_bmm(torch, inp, weight, imap, omap, o)),
                     ("gather_mm_scatter_loop", lambda o: tp_loop(inp, weight, imap, omap, o))):
        o = torch.full((pts, Mc), 7.0, dtype=torch.float32, device=dev)  # not zero: the zeroing is checked too
        err = (fn(o).cpu().double() - ref).abs().max().item()
        if err > 1e-4:
            bad.append("tensorproduct %s: max error %g" % (name, err))
    return bad


def run(args):
    import torch
    import torch.nn.functional as F

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit("torch_bench: CUDA is not available")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    if hasattr(torch, "set_float32_matmul_precision"):
        torch.set_float32_matmul_precision("highest")
    torch.backends.cudnn.benchmark = not args.no_cudnn_benchmark
    dev = torch.device(args.device)
    name = torch.cuda.get_device_name(dev)
    print("torch_bench: %s, torch %s, cuDNN %s, TF32 off, cudnn.benchmark %s, %d warm-up + %d timed runs"
          % (name, torch.__version__, torch.backends.cudnn.version(), torch.backends.cudnn.benchmark,
             args.warmup, args.runs), file=sys.stderr)

    rows = []
    with torch.inference_mode():
        torch.manual_seed(args.seed)
        if not args.no_check:
            try:
                bad = self_check(torch, F, dev)
            except Exception as e:
                bad = ["%s: %s" % (type(e).__name__, e)]
            for b in bad:
                print("torch_bench: self-check FAILED: " + b, file=sys.stderr)
            if not bad:
                print("torch_bench: self-check ok (conv1d flip, tensor-product gather/bmm/scatter and loop)",
                      file=sys.stderr)
        for w in workloads.WORKLOADS:
            if args.only and args.only not in w["id"]:
                continue
            torch.manual_seed(args.seed)
            base = {"workload": w["id"], "shape": w["shape"], "device": name, "torch": torch.__version__}
            try:
                variants = make_variants(torch, F, w, dev)
            except Exception as e:  # e.g. out of memory
                for v in w["variants"]:
                    rows.append(dict(base, variant=v, error="inputs: %s: %s" % (type(e).__name__, e)))
                continue
            for v in w["variants"]:
                try:
                    t = time_cuda(torch, variants[v], args.runs, args.warmup)
                    msg = "median %.1f us" % (t["median_ms"] * 1e3)
                    try:
                        gt = time_graph(torch, variants[v], args.runs)
                        t["graph_median_ms"] = gt["median_ms"]
                        msg += ", in a CUDA graph %.1f us per call" % (gt["median_ms"] * 1e3)
                    except Exception as e:  # some calls cannot be captured
                        t["graph_error"] = "%s: %s" % (type(e).__name__, e)
                        msg += ", no CUDA graph: %s" % t["graph_error"][:80]
                    rows.append(dict(base, variant=v, **t))
                except Exception as e:
                    rows.append(dict(base, variant=v, error="%s: %s" % (type(e).__name__, e)))
                    msg = "FAILED: %s: %s" % (type(e).__name__, e)
                print("torch_bench: %s %s: %s" % (w["id"], v, msg), file=sys.stderr)
            del variants
            torch.cuda.empty_cache()
    return rows


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        for w in workloads.WORKLOADS:
            print("%-32s %-14s %s  [%s]" % (w["id"], w["app"], w["shape"], ", ".join(w["variants"])))
        return 0
    rows = run(args)
    if args.json:
        json.dump(rows, sys.stdout, indent=2)
        print()
    else:
        print(format_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
