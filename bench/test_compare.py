#!/usr/bin/env python3
"""Tests of compare.py on made-up results (no GPU, no torch needed):

  python3 bench/test_compare.py
"""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def ours(app, size, ms, b2b=None, invalid=None):
    timing = {"clock": "cuda events around each launch, queued behind a spin", "runs": 50,
              "median_ms": ms, "min_ms": ms, "max_ms": ms}
    if b2b is not None:
        timing.update({"back_to_back_ms": b2b, "back_to_back_runs": 50, "back_to_back_calls": 10,
                       "back_to_back_clock": "cuda events around 10 runs queued back to back"})
    if invalid:
        timing.update({"back_to_back_invalid": invalid, "back_to_back_clock": "cuda events around 10 runs"})
    return {"app": app, "schedule": "v1", "size": size, "target": "cuda", "check": "ok", "timing": timing,
            "gbps": 2000.0}


def torch(workload, variant, ms, graph_ms):
    return {"workload": workload, "variant": variant, "median_ms": ms, "graph_median_ms": graph_ms,
            "runs": 50, "device": "NVIDIA H100", "torch": "2.x"}


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, doc):
        with open(os.path.join(self.dir, name), "w") as f:
            json.dump(doc, f)

    def rows(self):
        data = compare.load([self.dir], None)
        rows, _ = compare.build_rows(data)
        return data, {r[0]: dict(zip(compare.HEAD, r)) for r in rows if r[0]}

    def test_graph_ratio_uses_back_to_back(self):
        self.write("rowsum.json", [ours("rowsum", "H=8192 W=8192", 0.110, b2b=0.100)])
        self.write("conv1d.json", [ours("conv1d", "M=16384 N=32", 0.020)])
        self.write("torch.json", [torch("rowsum 8192x8192", "torch.sum", 0.150, 0.120),
                                  torch("conv1d M=16384 N=32", "F.conv1d", 0.030, 0.010)])
        data, rows = self.rows()
        r = rows["rowsum 8192x8192"]
        self.assertEqual(r["ours us"], "110.0")
        self.assertEqual(r["ours b2b us"], "100.0")
        self.assertEqual(r["ratio"], "1.36x")        # 150 / 110: unchanged
        self.assertEqual(r["graph ratio"], "1.20x")  # 120 / 100: against b2b
        c = rows["conv1d M=16384 N=32"]
        self.assertEqual(c["ours b2b us"], "-")
        self.assertEqual(c["graph ratio"], "0.50x*")  # 10 / 20: event time, marked
        header = "\n".join(compare.header_lines(data))
        self.assertIn("marked *", header)
        out = io.StringIO()
        with redirect_stdout(out):
            compare.main([self.dir])
        self.assertIn("ours b2b us", out.getvalue())

    def test_invalid_back_to_back(self):
        self.write("rowsum.json", [ours("rowsum", "H=8192 W=8192", 0.110, invalid="the host fell behind")])
        self.write("torch.json", [torch("rowsum 8192x8192", "torch.sum", 0.150, 0.120)])
        data, rows = self.rows()
        r = rows["rowsum 8192x8192"]
        self.assertEqual(r["ours b2b us"], "-")
        self.assertEqual(r["graph ratio"], "1.09x*")
        self.assertTrue(any("no back-to-back time: the host fell behind" in n for n in compare.extra_notes(data)))

    def test_all_have_back_to_back(self):
        self.write("rowsum.json", [ours("rowsum", "H=8192 W=8192", 0.110, b2b=0.100)])
        data, _ = self.rows()
        self.assertIn("every one of ours has a back-to-back time", "\n".join(compare.header_lines(data)))


if __name__ == "__main__":
    unittest.main()
