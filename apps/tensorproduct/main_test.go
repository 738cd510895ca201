package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The app as a user runs it, on the emulator: the schedules and
// ours, each checked at the small size, with GatherWeight's shared
// allocation of Halide issue #8427 (512, 2048 and 512 floats where Halide
// gives 16384, 2048 and 512), the benchmark size named as
// bench/workloads.py names the workload.
func TestAppTensorProduct(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := appkit.Command(App, []string{"-json", "-no-ptxas", "-quiet"}, &stdout, &stderr); code != appkit.ExitOK {
		t.Fatalf("exit status %d:\n%s\n%s", code, stderr.String(), stdout.String())
	}
	var rs []appkit.Result
	if err := json.Unmarshal(stdout.Bytes(), &rs); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"A": 512, "B": 2048, "C": 512, "best": 4096, "best_p128": 4096, "best_hotspot": 4096}
	var names []string
	for _, r := range rs {
		names = append(names, r.Schedule)
		if r.App != "tensorproduct" || r.Target != "emulator" || r.Check != "ok" {
			t.Errorf("%s: app %q target %q check %q", r.Schedule, r.App, r.Target, r.Check)
		}
		// Timed on uniform maps (best_hotspot on the hot-spot maps),
		// checked on the hot-spot maps (collisions).
		size := "C=64 M=64 N=27 P=33333 points=100000 hotspot=0"
		if r.Schedule == "best_hotspot" {
			size = "C=64 M=64 N=27 P=33333 points=100000 hotspot=1"
		}
		if r.Size != size || r.CheckSize != "C=64 M=64 N=2 P=300 points=200 hotspot=1" {
			t.Errorf("%s: size %q, check size %q", r.Schedule, r.Size, r.CheckSize)
		}
		var got int64 = -1
		for _, k := range r.Kernels {
			for _, a := range k.Shared {
				if a.Func == "GatherWeight" {
					got = a.Elements
				}
			}
		}
		if got != want[r.Schedule] {
			t.Errorf("%s: GatherWeight has %d shared floats, want %d", r.Schedule, got, want[r.Schedule])
		}
	}
	if strings.Join(names, ",") != "A,B,C,best,best_p128,best_hotspot" {
		t.Errorf("schedules %v", names)
	}
}

// -target=cpu runs the CPU versions of A, B and C (best has none).
func TestAppTensorProductCPU(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := appkit.Command(App, []string{"-target=cpu", "-json", "-quiet"}, &stdout, &stderr); code != appkit.ExitOK {
		t.Fatalf("exit status %d:\n%s\n%s", code, stderr.String(), stdout.String())
	}
	var rs []appkit.Result
	if err := json.Unmarshal(stdout.Bytes(), &rs); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Schedule+":"+r.Check)
		if len(r.Kernels) != 0 {
			t.Errorf("%s: %d kernels on the CPU", r.Schedule, len(r.Kernels))
		}
	}
	if strings.Join(names, ",") != "A:ok,B:ok,C:ok" {
		t.Errorf("got %v", names)
	}
}
