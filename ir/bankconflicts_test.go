package ir

import "testing"

// TestBankConflicts checks the conflict degree of shared accesses by the
// first warp against counts done by hand.
func TestBankConflicts(t *testing.T) {
	tx, ty := NewVar(ThreadID[0]), NewVar(ThreadID[1])
	s := NewVar("s") // a serial loop's var: the same for every lane
	cases := []struct {
		name      string
		bx, by    int64
		t         Type
		index     Expr
		want      int // 0: not analyzable
		viaLetVar bool
	}{
		{"unit stride", 32, 1, Float32, AddE(tx, MulE(s, Int(32))), 1, false},
		{"stride 2", 32, 1, Float32, MulE(tx, Int(2)), 2, false},
		{"stride 32", 32, 1, Float32, MulE(tx, Int(32)), 32, false},
		{"stride 33 (padded)", 32, 1, Float32, MulE(tx, Int(33)), 1, false},
		{"broadcast", 32, 1, Float32, MulE(s, Int(7)), 1, false},
		{"float64 unit stride: two words per lane", 32, 1, Float64, tx, 2, false},
		{"rows of 10, block 8 x 4", 8, 4, Float32, AddE(tx, MulE(ty, Int(10))), 2, false},
		{"rows of 8, block 8 x 4", 8, 4, Float32, AddE(tx, MulE(ty, Int(8))), 1, false},
		{"column walk of a 16 x 16 tile: two rows per warp", 16, 16, Float32, AddE(MulE(tx, Int(16)), ty), 8, false},
		{"through a let", 32, 1, Float32, NewVar("i"), 4, true},
		{"data-dependent", 32, 1, Float32, &Load{T: Int32, Buf: "idx", Index: tx}, 0, false},
		{"block smaller than a warp", 4, 1, Float32, MulE(tx, Int(32)), 4, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body Stmt = &Store{Buf: "sh", Index: c.index, Value: &FloatImm{T: c.t, V: 1}}
			if c.viaLetVar {
				body = &LetStmt{Name: "i", Value: MulE(tx, Int(4)), Body: body}
			}
			k := &Kernel{
				Name:  "k",
				Block: [3]Expr{Int(c.bx), Int(c.by), Int(1)},
				Body:  &Allocate{Name: "sh", T: c.t, Memory: GPUShared, Extents: []Expr{Int(4096)}, Body: body},
			}
			got := BankConflicts(k)["sh"]
			if got != c.want {
				t.Errorf("BankConflicts = %d-way, want %d", got, c.want)
			}
		})
	}
}
