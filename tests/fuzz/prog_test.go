package fuzz

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// progQuickSeed and progQuickN are the seeded quick run of random
// programs in `go test ./...`: the same programs and schedules every time
// (a case depends only on the seed and its index), a few seconds.
const (
	progQuickSeed = 1
	progQuickN    = 300
)

// knownProgFailures are programs of the quick run that fail because of
// open library bugs, by index, with their class. The quick run skips them
// so that CI stays green while the bug is open;
// TestProgKnownFailuresStillFail says when one is fixed.
//
// None is open.
var knownProgFailures = map[int]Class{}

// TestProgQuick runs the seeded quick run of random programs: it fails on
// any wrong result, panic, internal error or timeout not in
// knownProgFailures, and logs the refusals at Realize.
func TestProgQuick(t *testing.T) {
	skip := map[int]string{}
	for i, c := range knownProgFailures {
		skip[i] = c.String()
	}
	d := &Driver{Seed: progQuickSeed, Make: MakeProgCase, Opt: Options{Verify: true, Timeout: 20 * time.Second},
		Workers: 2, MinimizeBudget: 40, MinimizePerKey: 1, Skip: skip}
	d.Run(0, progQuickN)
	var sb strings.Builder
	d.WriteTable(&sb)
	t.Logf("progfuzz -seed %d -n %d:\n%s", progQuickSeed, progQuickN, sb.String())
	tot := d.Total()
	if tot[OK] < progQuickN/10 {
		t.Errorf("only %d of %d programs ran to a checked result (the generators should make at least 10%%)", tot[OK], progQuickN)
	}
	for _, f := range d.Findings() {
		switch {
		case f.Class.IsWrong(), f.Class == Panic, f.Class == Internal, f.Class == Timeout:
			t.Errorf("%s (%d): programs %v\n%s", f.Class, f.Count, d.Failures[f.Class], f.Repro)
		default:
			t.Logf("%s (%d), a defect unless the bounds of a data-dependent index explain it:\n%s", f.Class, f.Count, f.Repro)
		}
	}
}

// TestProgKnownFailuresStillFail says which known failures have been
// fixed, so that their entries can go.
func TestProgKnownFailuresStillFail(t *testing.T) {
	for i, want := range knownProgFailures {
		r := Run(MakeProgCase(progQuickSeed, i), Options{Verify: true})
		if r.Class != want {
			t.Errorf("program %d (%s) now gives %s: remove it from knownProgFailures", i, want, r.Class)
		}
	}
}

// TestProgDeterministic checks that a program case depends only on the
// seed and its index, that the generator keeps its type rules, and that a
// reproduction replays.
func TestProgDeterministic(t *testing.T) {
	for i := 0; i < 300; i++ {
		a, b := MakeProgCase(7, i), MakeProgCase(7, i)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("program %d differs between two draws", i)
		}
		if e := a.Prog.typeErr(); e != "" {
			t.Fatalf("program %d: %s", i, e)
		}
		if i%10 != 0 {
			continue
		}
		r := Run(a, Options{})
		c, err := ParseRepro(Repro(a, r, len(a.Sched)))
		if err != nil {
			t.Fatal(err)
		}
		if r2 := Run(c, Options{}); r2.Class != r.Class {
			t.Fatalf("program %d: %s, replayed %s", i, r.Class, r2.Class)
		}
	}
}

// TestProgCoverage checks that the program generator draws every feature
// the issue lists.
func TestProgCoverage(t *testing.T) {
	seen := map[string]int{}
	for i := 0; i < progQuickN; i++ {
		c := MakeProgCase(progQuickSeed, i)
		p := c.Prog
		seen[fmt.Sprintf("%d funcs", len(p.Funcs))]++
		seen[fmt.Sprintf("%d-D output", len(p.OutMin))]++
		for _, m := range p.OutMin {
			if m != 0 {
				seen["nonzero output min"]++
			}
		}
		for _, s := range c.Sizes {
			seen[fmt.Sprintf("extent %d", min(s, 2))]++
		}
		for _, in := range p.Inputs {
			for _, m := range in.Mins {
				if m != 0 {
					seen["nonzero input min"]++
				}
			}
		}
		if len(p.Bounds) > 0 {
			seen["bound"]++
		}
		if p.Chain {
			seen[fmt.Sprintf("stencil chain of %d", len(p.Funcs))]++
			seen["stencil chain"]++
		}
		for _, f := range p.Funcs {
			if f.BC != "" {
				seen["bc "+f.BC]++
				if f.Region != nil {
					seen["bc region"]++
				}
				for d := range f.Dims {
					if f.Region != nil && (d >= len(f.Region) || len(f.Region[d]) != 2) {
						seen["bc unbounded dim"]++
					}
				}
			}
			if f.Float {
				seen["float func"]++
			} else {
				seen["int func"]++
			}
			if len(f.Updates) > 1 {
				seen["several updates"]++
			}
			for _, u := range f.Updates {
				if u.RDom >= 0 {
					seen[fmt.Sprintf("%d-D rdom update", len(p.RDoms[u.RDom].Mins))]++
				}
				if u.Op != "=" {
					seen["update "+u.Op]++
				}
				for i, a := range u.Args {
					switch {
					case hasOp(a, "call", "in"):
						seen["histogram"]++
					case a.Op == "r" && callsSelfAt(u.Value, f.Name, i, -1):
						seen["scan"]++
					case a.Op == "r" && callsSelfAt(u.Value, f.Name, i, 1):
						seen["loop-carried"]++
					}
				}
			}
			for s := 0; s <= len(f.Updates); s++ {
				for _, e := range f.stageExprs(s) {
					e.walk(func(x *PExpr) bool {
						seen["op "+x.Op]++
						if (x.Op == "/" || x.Op == "%") && x.A[1].Op == "c" && x.A[1].V < 0 {
							seen["negative divisor"]++
						}
						if (x.Op == "/" || x.Op == "%") && x.A[1].Op != "c" {
							seen["divisor expression"]++
						}
						if x.Op == "lerp" && !x.F {
							seen["integer lerp"]++
						}
						if (x.Op == "<<" || x.Op == ">>") && x.A[1].Op == "c" && (x.A[1].V < 0 || x.A[1].V >= 32) {
							seen["shift out of [0, 32)"]++
						}
						if x.Op == "cast" && !x.F && x.A[0].Op == "*" && len(x.A[0].A) == 2 && x.A[0].A[1].Op == "p" {
							seen["int32(clamp(f, 0, 1) * pf)"]++
						}
						return true
					})
				}
			}
		}
		for _, d := range c.Sched {
			seen["directive "+string(d.Op)]++
		}
		seen["target "+c.Target()]++
	}
	want := []string{"1 funcs", "2 funcs", "3 funcs", "4 funcs", "5 funcs", "6 funcs", "1-D output", "2-D output", "3-D output",
		"nonzero output min", "extent 1", "stencil chain", "nonzero input min", "bound", "bc repeat", "bc const", "bc tile", "bc mirror", "bc mirror_int", "bc region", "bc unbounded dim", "float func", "int func",
		"several updates", "1-D rdom update", "2-D rdom update", "update +=", "update max=", "update min=",
		"histogram", "scan", "loop-carried", "negative divisor", "divisor expression", "int32(clamp(f, 0, 1) * pf)",
		"op sel", "op min", "op max", "op clamp", "op cast", "op %", "op /", "op sum", "op maximum", "op minimum", "op p",
		"op &", "op |", "op ^", "op ~", "op <<", "op >>", "op mux", "op absd", "op lerp", "op sat", "integer lerp", "shift out of [0, 32)",
		"op fx", "op trunc", "op fract",
		"directive in", "directive reorder", "directive split", "directive compute_at", "directive gpu_blocks",
		"target cpu", "target gpu"}
	var miss []string
	for _, w := range want {
		if seen[w] == 0 {
			miss = append(miss, w)
		}
	}
	if len(miss) > 0 {
		t.Errorf("the first %d programs never have: %s", progQuickN, strings.Join(miss, ", "))
	}
	var keys []string
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%6d  %s", seen[k], k)
	}
}

// callsSelfAt says whether e reads f at argument i plus off (a scan
// reads r - 1, a loop-carried update r + 1).
func callsSelfAt(e *PExpr, f string, i int, off float64) bool {
	found := false
	e.walk(func(x *PExpr) bool {
		if x.Op == "call" && x.N == f && i < len(x.A) && x.A[i].Op == "+" && x.A[i].A[1].Op == "c" && x.A[i].A[1].V == off {
			found = true
		}
		return !found
	})
	return found
}
