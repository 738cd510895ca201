package fuzz

import (
	"math/rand"
	"testing"
)

// TestCloneInDrawn checks that the schedule generator draws CloneIn for
// the algorithms that have a Func with two consumers.
func TestCloneInDrawn(t *testing.T) {
	n := 0
	for _, a := range Algos {
		for i := 0; i < 300; i++ {
			for _, d := range Generate(a, i%2 == 1, rand.New(rand.NewSource(int64(i)))) {
				if d.Op == OpCloneIn {
					n++
				}
			}
		}
	}
	t.Logf("%d CloneIn draws", n)
	if n == 0 {
		t.Error("no schedule draws CloneIn")
	}
}
