package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// AllowRaceConditions: the refusal it lifts names it as the way out, and
// on a stage that does not exist it is refused like every directive.
func TestErrAllowRaceConditions(t *testing.T) {
	// scatter writes f(3r mod 16) = r: distinct points, which lowering
	// cannot prove.
	scatter := func() (*halide.Func, *halide.RDom) {
		r := halide.NewRDom("r", halide.Range(0, 16))
		f := halide.NewFunc("scatter")
		f.Define(x).Is(0)
		f.Define(r.X().Mul(3).Mod(16)).Is(r)
		return f, r
	}
	runCases(t, []errCase{
		{
			name: "parallel RVar without AllowRaceConditions",
			run: func() error {
				f, r := scatter()
				f.Update(0).Parallel(r.X())
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "scatter", directive: "parallel",
			mentions: []string{"race condition"},
			legal:    []string{"Atomic()", "AllowRaceConditions()"},
		},
		{
			name: "AllowRaceConditions on a missing update",
			run: func() error {
				f, r := scatter()
				f.Update(3).AllowRaceConditions().Parallel(r.X())
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "scatter", directive: "Update",
			mentions: []string{"no update 3"},
		},
	})
}
