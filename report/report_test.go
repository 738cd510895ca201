package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/report"
)

// compiledReports are two kernel reports made by hand: one measured on a
// GPU (Compiled set) and one from the emulator (nothing measured). The
// numbers are made up, in the range an H100 reports for a tiled GEMM.
func compiledReports() []report.KernelReport {
	off := int64(0)
	return []report.KernelReport{
		{
			Name: "kernel_gemm_s0", Grid: [3]string{"8", "8", "1"}, Block: [3]string{"16", "16", "1"},
			Shared:      []report.Alloc{{Func: "a_tile", Type: "float32", Elements: 8192, Bytes: 32768, Offset: &off, SharedAcross: []string{"x", "y"}}},
			Registers:   []report.Alloc{{Func: "acc", Type: "float32", Elements: 16, Bytes: 64}},
			SharedBytes: 32768, SharedBytesUnshared: 32768, Barriers: 2,
			Compiled: &report.CompiledInfo{Registers: 48, LocalBytes: 0, SharedBytes: 32768, MaxThreadsPerBlock: 1024},
		},
		{
			Name: "kernel_out_s0", Grid: [3]string{"4", "1", "1"}, Block: [3]string{"32", "1", "1"},
			Shared: []report.Alloc{}, Registers: []report.Alloc{},
		},
	}
}

// WriteTable prints what a kernel measured on a GPU uses in a last column,
// "-" for a kernel not measured; without any measured kernel (the
// emulator's reports) the table has no such column.
func TestWriteTableCompiled(t *testing.T) {
	var sb strings.Builder
	if err := report.WriteTable(&sb, compiledReports()); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	want := []string{
		"kernel grid block memory func type elements bytes offset shared across bank conflicts barriers shared total compiled (GPU)",
		"kernel_gemm_s0 8 x 8 16 x 16 shared a_tile float32 8192 32768 0 x,y 2 32768 48 registers, 0 B local, 32768 B shared, max 1024 threads",
		"register acc float32 16 64",
		"kernel_out_s0 4 32 - 0 0 -",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got (spaces squeezed)\n%s\nwant\n%s\n\ntable:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"), sb.String())
	}
	sb.Reset()
	emulated := compiledReports()
	emulated[0].Compiled = nil
	if err := report.WriteTable(&sb, emulated); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sb.String(), "compiled") {
		t.Errorf("a table of reports without Compiled has a compiled column:\n%s", sb.String())
	}
}

// WriteJSON writes Compiled as "compiled" with its four fields, and leaves
// the key out for a kernel nothing measured.
func TestWriteJSONCompiled(t *testing.T) {
	var sb strings.Builder
	if err := report.WriteJSON(&sb, compiledReports()); err != nil {
		t.Fatal(err)
	}
	var got []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(sb.String()), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d kernels in the JSON, want 2:\n%s", len(got), sb.String())
	}
	var c map[string]int64
	if err := json.Unmarshal(got[0]["compiled"], &c); err != nil {
		t.Fatalf("kernel 0's compiled: %v\n%s", err, sb.String())
	}
	wantC := map[string]int64{"registers": 48, "local_bytes": 0, "shared_bytes": 32768, "max_threads_per_block": 1024}
	if len(c) != len(wantC) {
		t.Errorf("compiled has fields %v, want %v", c, wantC)
	}
	for k, v := range wantC {
		if n, ok := c[k]; !ok || n != v {
			t.Errorf("compiled.%s = %d (present %v), want %d", k, n, ok, v)
		}
	}
	if _, ok := got[1]["compiled"]; ok {
		t.Errorf("kernel 1 was not measured but its JSON has compiled:\n%s", sb.String())
	}
	// A round trip keeps the values.
	var back []report.KernelReport
	if err := json.Unmarshal([]byte(sb.String()), &back); err != nil {
		t.Fatal(err)
	}
	if back[0].Compiled == nil || *back[0].Compiled != *compiledReports()[0].Compiled || back[1].Compiled != nil {
		t.Errorf("round trip: compiled %+v and %+v", back[0].Compiled, back[1].Compiled)
	}
}
