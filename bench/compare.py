#!/usr/bin/env python3
"""Side-by-side table of our apps' GPU times and PyTorch's.

Usage:
  python3 bench/compare.py [options] PATH...

PATH is a JSON file or a folder (every *.json and *.jsonl in it). Each
file is told apart by its content:
  - PyTorch: bench/torch_bench.py --json, a list of {workload, variant, ...};
  - Halide 14 (a .jsonl file): bench/halide14/run.sh's JSON lines {app,
    target, median_ms, ...}, the peers of the ports of Halide's apps (their
    variants halide14_cuda and halide14_cpu);
  - our apps (tensorproduct, depthwise, conv1d, gemm, conv2d, rowsum, ...;
    apps/internal/appkit's one schema): a list of Results {app, schedule,
    size, target, timing, gbps, tflops, floor_fraction, check, ...}.

How our results map to workloads (bench/workloads.py lists them):
  by app name, then by size: Result.size must name every param of the
  workload as key=value with equal values (keys without case: "M=1024
  K=2048 N=512"), or, when it does not name them all, contain every param
  value among its numbers ("64x32x112x112, 3x3" matches B=64 C=32 H=112
  W=112 K=3; 2^24, 1<<24 and 100_000 are read as numbers). Results with no
  workload are listed under "unmapped". Only results timed on the GPU
  (timing.clock "cuda events") count; of a workload's schedules, the
  fastest whose check is "ok" is the one in the table (--all-schedules
  lists them all).

Columns: workload; ours: schedule, median us (event timing of one run,
timing.median_ms), b2b us (back to back: the median time per run of 10
runs queued between one pair of events, timing.back_to_back_ms; "-" when
the app measured none or marked it invalid), throughput (GB/s or TFLOP/s,
whichever is nearer its H100 peak), % of floor (the app's
floor_fraction); PyTorch: variant, median us; ratio = PyTorch time / our
time (>1: we are faster; both event-timed, the targets read it); PyTorch
graph us (10 calls in a CUDA graph, per call); graph ratio = PyTorch graph
time / our b2b time, the like-for-like pair below ~100 us (where we have no
b2b time, / our event time instead, marked "*"); target: whether the
project's target is met (on the workload's first row):
  depthwise 64x32x112x112 k3  no slower than cuDNN channels_last (ratio >= 1)
  conv1d (both sizes)         no slower than F.conv1d (ratio >= 1)
  gemm 1024x2048x512          >= 0.8x cuBLAS SGEMM throughput (ratio >= 0.8)
  tensorproduct 8427          >= 4x faster than PyTorch gather/bmm/scatter,
                              the faster of its bmm and per-offset-loop forms
  conv2d 256x256x14x14->512   ours (HWCN) under 4 ms
  rowsum 8192x8192            ours at most 106 us (>= 85% of the memory floor)
Anything missing prints "-".

Options:
  --torch FILE         the PyTorch JSON (also found by content among PATHs)
  --markdown           print markdown (for docs/benchmarks.md) instead of text
  --markdown-out FILE  also write the markdown to FILE
  --all-schedules      also list every schedule of ours
"""

import argparse
import glob
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads  # noqa: E402

# H100 peaks, as apps/internal/appkit (for the throughput column's choice).
PEAK_BYTES_PER_SEC = 3.0e12
PEAK_FLOPS = 66.9e12

DASH = "-"


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

class Data:
    def __init__(self):
        self.ours = []      # dicts: app, schedule, size, check, ms, gbps, tflops, floor, workload, file
        self.torch = {}     # (workload, variant) -> row
        self.notes = []
        self.gpu = ""       # from nvidia-smi's gpu.txt
        self.torch_device = ""
        self.torch_version = ""
        self.runs = set()


def kind_of(doc):
    if not isinstance(doc, list):
        return None
    if not doc:
        return "empty"
    first = doc[0]
    if not isinstance(first, dict):
        return None
    if "workload" in first and "variant" in first:
        return "torch"
    if "app" in first:
        return "appkit"
    if "schedule" in first:
        return "old tensorproduct"
    return None


def load_halide14(path, data):
    """Halide 14's runner (bench/halide14/run.sh): JSON lines of {app,
    target, median_ms, ...}; each becomes a peer row of its workload
    (workloads.HALIDE14), variant "halide14_" + target."""
    name = os.path.basename(path)
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except ValueError as e:
                data.notes.append("%s:%d: not JSON (%s)" % (name, n, e))
                continue
            wid = workloads.HALIDE14.get(r.get("app"))
            if wid is None:
                data.notes.append("%s:%d: Halide 14 app %r has no workload" % (name, n, r.get("app")))
                continue
            add_baseline(data, "Halide 14", (wid, "halide14_" + str(r.get("target"))), r)


def add_baseline(data, who, key, r):
    """Stores r, who's result for key (workload, variant), with the
    baselines; False, leaving it out, when it has no time (with a note
    when it is an error)."""
    if "error" in r:
        data.notes.append("%s %s %s: %s" % (who, key[0], key[1], r["error"]))
        return False
    if r.get("median_ms") is None:
        return False
    data.torch[key] = r
    return True


def load_file(path, data):
    name = os.path.basename(path)
    if name.endswith(".jsonl"):
        load_halide14(path, data)
        return
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        data.notes.append("%s: %s" % (name, e))
        return
    if not text.strip():
        data.notes.append("%s: empty (the run failed? see %s)" % (name, os.path.splitext(name)[0] + ".err"))
        return
    try:
        doc = json.loads(text)
    except ValueError as e:
        data.notes.append("%s: not JSON (%s)" % (name, e))
        return
    kind = kind_of(doc)
    if kind == "empty":
        data.notes.append("%s: no results" % name)
        return
    if kind is None:
        data.notes.append("%s: not a result list, skipped" % name)
        return
    if kind == "old tensorproduct":
        data.notes.append("%s: the tensor product's JSON from before apps/internal/appkit "
                          "(no app, no size), skipped: run apps/tensorproduct again" % name)
        return
    if kind == "torch":
        for r in doc:
            if not add_baseline(data, "PyTorch", (r.get("workload"), r.get("variant")), r):
                continue
            data.torch_device = data.torch_device or r.get("device", "")
            data.torch_version = data.torch_version or r.get("torch", "")
            if r.get("runs"):
                data.runs.add(r["runs"])
        return
    stem = os.path.splitext(name)[0]
    for r in doc:
        if not isinstance(r, dict):
            continue
        timing = r.get("timing") or {}
        cuda = "cuda" in str(timing.get("clock", ""))
        ms = timing.get("median_ms") if cuda else None
        b2b = timing.get("back_to_back_ms") if cuda else None
        row = {
            "file": name,
            "schedule": str(r.get("schedule", "?")),
            "check": str(r.get("check", "?")),
            "ms": ms if (ms is not None and ms > 0) else None,
            "b2b_ms": b2b if (b2b is not None and b2b > 0 and not timing.get("back_to_back_invalid")) else None,
            "b2b_invalid": str(timing.get("back_to_back_invalid") or "") if cuda else "",
            "runs": timing.get("runs"),
            "gbps": r.get("gbps") or 0.0,
            "tflops": r.get("tflops") or 0.0,
            "floor": r.get("floor_fraction") or 0.0,
        }
        row["app"] = str(r.get("app", stem))
        row["size"] = str(r.get("size", ""))
        if r.get("target") not in (None, "cuda"):
            row["ms"] = row["b2b_ms"] = None
        if row["runs"]:
            data.runs.add(row["runs"])
        row["workload"] = workloads.find_workload(row["app"], row["size"])
        data.ours.append(row)


def read_gpu_txt(folder, data):
    """The GPU's name from run.sh's gpu.txt (nvidia-smi), if there is one."""
    path = os.path.join(folder, "gpu.txt")
    if data.gpu or not os.path.exists(path):
        return
    with open(path) as f:
        lines = f.read().strip().splitlines()
    data.gpu = lines[0].strip() if lines else ""


def load(paths, torch_path):
    data = Data()
    files = []
    for p in paths:
        if os.path.isdir(p):
            files.extend(sorted(glob.glob(os.path.join(p, "*.json")) + glob.glob(os.path.join(p, "*.jsonl"))))
            read_gpu_txt(p, data)
        elif os.path.exists(p):
            files.append(p)
            read_gpu_txt(os.path.dirname(p) or ".", data)
        else:
            data.notes.append("%s: no such file" % p)
    if torch_path:
        if os.path.exists(torch_path):
            if os.path.abspath(torch_path) not in [os.path.abspath(f) for f in files]:
                files.append(torch_path)
        else:
            data.notes.append("%s: no such file (no PyTorch times)" % torch_path)
    for f in files:
        load_file(f, data)
    return data


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

def fmt_us(ms):
    return DASH if ms is None else "%.1f" % (ms * 1e3)


def fmt_throughput(row):
    if not row or row.get("ms") is None:
        return DASH
    g, t = row.get("gbps") or 0.0, row.get("tflops") or 0.0
    if g <= 0 and t <= 0:
        return DASH
    if g * 1e9 / PEAK_BYTES_PER_SEC >= t * 1e12 / PEAK_FLOPS:
        return "%.0f GB/s" % g
    return "%.2f TFLOP/s" % t


def fmt_floor(row):
    if not row or row.get("ms") is None or not row.get("floor"):
        return DASH
    return "%.0f%%" % (100 * row["floor"])


def fmt_ratio(r, mark=""):
    return DASH if r is None else "%.2fx%s" % (r, mark)


def fmt_num(x):
    return ("%g" % x)


def best_ours(data, wid):
    rows = [r for r in data.ours if r["workload"] == wid]
    ok = [r for r in rows if r["check"] == "ok" and r["ms"] is not None]
    if ok:
        return min(ok, key=lambda r: r["ms"]), rows
    return None, rows


def evaluate_target(w, ours, data):
    """(cell, sentence) for the workload's target."""
    t = w.get("target")
    if not t:
        return "", None
    if t["kind"] == "ours_ms_lt":
        if ours is None:
            return DASH, "%s: %s: no result of ours" % (w["id"], t["text"])
        met = ours["ms"] < t["value"]
        if t["value"] < 0.1:  # microseconds read better
            cell = "%s (%.1f us %s %s us)" % ("yes" if met else "NO", ours["ms"] * 1e3, "<" if met else ">=", fmt_num(t["value"] * 1e3))
        else:
            cell = "%s (%.2f ms %s %s ms)" % ("yes" if met else "NO", ours["ms"], "<" if met else ">=", fmt_num(t["value"]))
        return cell, "%s: %s: %s" % (w["id"], t["text"], cell)
    # ratio_ge against the fastest of the target's variants
    theirs = [data.torch[(w["id"], v)] for v in t["variants"] if (w["id"], v) in data.torch]
    if ours is None or not theirs:
        missing = "no result of ours" if ours is None else "no PyTorch time"
        return DASH, "%s: %s: %s" % (w["id"], t["text"], missing)
    ref = min(theirs, key=lambda r: r["median_ms"])
    ratio = ref["median_ms"] / ours["ms"]
    met = ratio >= t["value"]
    cell = "%s (%.2fx %s %sx)" % ("yes" if met else "NO", ratio, ">=" if met else "<", fmt_num(t["value"]))
    return cell, "%s: %s: %s against %s" % (w["id"], t["text"], cell, ref["variant"])


HEAD = ["workload", "ours", "ours us", "ours b2b us", "ours throughput", "of floor",
        "PyTorch", "PyTorch us", "ratio", "PyTorch graph us", "graph ratio", "target met"]


def build_rows(data):
    """The main table's rows (lists of strings) and the target sentences."""
    rows, sentences = [], []
    for w in workloads.WORKLOADS:
        ours, _ = best_ours(data, w["id"])
        cell, sentence = evaluate_target(w, ours, data)
        if sentence:
            sentences.append(sentence)
        for i, v in enumerate(w["variants"]):
            th = data.torch.get((w["id"], v))
            ratio = gratio = None
            gmark = ""
            if th is not None and ours is not None:
                ratio = th["median_ms"] / ours["ms"]
                if th.get("graph_median_ms"):
                    # Like for like: their graph against our back to
                    # back; our event time (marked) when we have none.
                    if ours.get("b2b_ms"):
                        gratio = th["graph_median_ms"] / ours["b2b_ms"]
                    else:
                        gratio, gmark = th["graph_median_ms"] / ours["ms"], "*"
            first = i == 0
            rows.append([
                w["id"] if first else "",
                (ours["schedule"] if ours else DASH) if first else "",
                fmt_us(ours["ms"] if ours else None) if first else "",
                fmt_us(ours.get("b2b_ms") if ours else None) if first else "",
                fmt_throughput(ours) if first else "",
                fmt_floor(ours) if first else "",
                v,
                fmt_us(th["median_ms"] if th else None),
                fmt_ratio(ratio),
                fmt_us(th.get("graph_median_ms") if th else None),
                fmt_ratio(gratio, gmark),
                (cell if w.get("target") else "") if first else "",
            ])
    return rows, sentences


ALL_HEAD = ["app", "schedule", "size", "workload", "check", "us", "b2b us", "throughput", "of floor",
            "ratio"]


def build_all_rows(data):
    """Every schedule of ours; ratio against the workload's first variant."""
    rows = []
    for r in data.ours:
        ratio = None
        if r["workload"] and r["ms"]:
            w = workloads.BY_ID[r["workload"]]
            th = data.torch.get((w["id"], w["variants"][0]))
            if th:
                ratio = th["median_ms"] / r["ms"]
        check = r["check"] if len(r["check"]) <= 40 else r["check"][:37] + "..."
        rows.append([r["app"], r["schedule"], r["size"], r["workload"] or "(unmapped)", check,
                     fmt_us(r["ms"]), fmt_us(r.get("b2b_ms")), fmt_throughput(r), fmt_floor(r), fmt_ratio(ratio)])
    return rows


def extra_notes(data):
    notes = list(data.notes)
    seen = {r["app"] for r in data.ours}
    for app in workloads.APPS:
        if app not in seen:
            notes.append("no results of ours for %s" % app)
    unmapped = sorted({(r["app"], r["size"]) for r in data.ours if r["workload"] is None})
    for app, size in unmapped:
        notes.append("unmapped: %s at %r (no workload of bench/workloads.py matches)" % (app, size))
    for w in workloads.WORKLOADS:
        ours, rows = best_ours(data, w["id"])
        bad = [r for r in rows if r["check"] != "ok"]
        for r in bad:
            notes.append("ours %s %s: check %s" % (r["app"], r["schedule"], r["check"]))
        if ours is None and rows and not bad:
            notes.append("ours %s: no GPU timing (run with -target=cuda and -bench)" % w["id"])
        if ours is not None and ours.get("b2b_invalid"):
            notes.append("ours %s %s: no back-to-back time: %s" % (ours["app"], ours["schedule"], ours["b2b_invalid"]))
    return notes


def header_lines(data):
    lines = []
    dev = data.gpu or data.torch_device
    if dev:
        lines.append("GPU: %s" % dev + (" (PyTorch %s)" % data.torch_version if data.torch_version else ""))
    runs = ", ".join(str(r) for r in sorted(data.runs)) or "?"
    lines.append("Times: median of %s runs after a warm-up, each run between CUDA events, inputs on the GPU, fp32 "
                 "(PyTorch with TF32 off). ratio = PyTorch time / our time: > 1 means we are faster." % runs)
    ours = [r for r in data.ours if r.get("ms") is not None]
    with_b2b = [r for r in ours if r.get("b2b_ms")]
    how = ("every one of ours has a back-to-back time" if ours and len(with_b2b) == len(ours) else
           "where ours has no back-to-back time, PyTorch graph us / ours us instead, marked *")
    lines.append("Back to back: ours b2b us is our median time per run of 10 runs queued between one pair of events; "
                 "graph ratio = PyTorch graph us / ours b2b us (%s). Below ~100 us compare these two." % how)
    return lines


def text_table(head, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    out = ["  ".join(str(c).ljust(w) for c, w in zip(head, widths)).rstrip(),
           "  ".join("-" * w for w in widths)]
    for row in rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    return "\n".join(out)


def md_cell(c):
    return str(c).replace("|", "\\|")


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for row in rows:
        out.append("| " + " | ".join(md_cell(c) for c in row) + " |")
    return "\n".join(out)


def render_text(data, all_schedules):
    rows, sentences = build_rows(data)
    parts = []
    if all_schedules:
        parts += ["every schedule of ours (ratio against the workload's first PyTorch variant):", "",
                  text_table(ALL_HEAD, build_all_rows(data)), ""]
    parts += header_lines(data) + ["", text_table(HEAD, rows)]
    if sentences:
        parts += ["", "targets:"] + ["  " + s for s in sentences]
    notes = extra_notes(data)
    if notes:
        parts += ["", "notes:"] + ["  " + n for n in notes]
    return "\n".join(parts) + "\n"


def render_markdown(data, all_schedules):
    rows, sentences = build_rows(data)
    parts = ["## Ours against PyTorch", ""] + header_lines(data) + ["", md_table(HEAD, rows)]
    if all_schedules:
        parts += ["", "Every schedule of ours (ratio against the workload's first PyTorch variant):", "",
                  md_table(ALL_HEAD, build_all_rows(data))]
    if sentences:
        parts += ["", "Targets:", ""] + ["- " + md_cell(s) for s in sentences]
    notes = extra_notes(data)
    if notes:
        parts += ["", "Notes:", ""] + ["- " + md_cell(n) for n in notes]
    parts += ["", "Workloads (PyTorch side, bench/torch_bench.py):", ""]
    for w in workloads.WORKLOADS:
        parts.append("- %s: %s; PyTorch: %s" % (w["id"], w["shape"], ", ".join(w["variants"])))
    return "\n".join(parts) + "\n"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="Compare our apps' GPU times with PyTorch's.",
                                epilog="See the module docstring for the mapping and the targets.")
    p.add_argument("paths", nargs="*", help="JSON files or folders of them")
    p.add_argument("--torch", help="the PyTorch JSON (bench/torch_bench.py --json)")
    p.add_argument("--markdown", action="store_true", help="print markdown instead of a text table")
    p.add_argument("--markdown-out", help="also write the markdown to this file")
    p.add_argument("--all-schedules", action="store_true", help="also list every schedule of ours")
    a = p.parse_args(argv)
    if not a.paths and not a.torch:
        p.error("give JSON files or folders")
    return a


def main(argv=None):
    a = parse_args(argv)
    data = load(a.paths, a.torch)
    md = render_markdown(data, a.all_schedules)
    if a.markdown_out:
        with open(a.markdown_out, "w") as f:
            f.write(md)
    sys.stdout.write(md if a.markdown else render_text(data, a.all_schedules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
