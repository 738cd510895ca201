// Package differential_test realizes the algorithms of apps/algo under many
// CPU schedules on random inputs and compares every output with the
// plain-Go reference of the algorithm (algo.Tol).
//
// The sizes are deliberately not multiples of the split factors, so every
// tail strategy really has a tail.
package differential_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// schedCase is one schedule of an algorithm of type A.
type schedCase[A algo.Algorithm] struct {
	name  string
	sched func(a A)
}

// runCases builds a fresh algorithm for every case, applies its schedule,
// realizes it on random inputs and checks the output.
func runCases[A algo.Algorithm](t *testing.T, build func() A, cases []schedCase[A]) {
	t.Helper()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := build()
			tc.sched(a)
			realizeAndCheck(t, a, int64(1000+i))
		})
	}
}

// realizeAndCheck realizes a (already scheduled) with Verify on and
// compares with the reference.
func realizeAndCheck(t *testing.T, a algo.Algorithm, seed int64) {
	t.Helper()
	a.Inputs(rand.New(rand.NewSource(seed)))
	p := halide.NewPipeline(a.Out()).WithOptions(halide.Options{Verify: true})
	out, err := a.Run(p)
	if err != nil {
		t.Fatalf("Realize: %v\n%s", err, describe(a))
	}
	maxErr, err := a.Check(out)
	if err != nil {
		t.Fatalf("max relative error %.3g exceeds %g: %v\n%s", maxErr, algo.Tol, err, describe(a))
	}
	t.Logf("max relative error %.3g", maxErr)
}

// describe returns the loop nest and lowered statement of a's pipeline, for
// failure messages.
func describe(a algo.Algorithm) string {
	l, err := halide.NewPipeline(a.Out()).Lower()
	if err != nil {
		return "(Lower: " + err.Error() + ")"
	}
	return "loop nest:\n" + l.LoopNest + "\nlowered:\n" + l.String()
}

// Short constructors of loop variables.
func v(name string) halide.Var   { return halide.NewVar(name) }
func rv(name string) halide.RVar { return halide.NewRVar(name) }
