package ir

// Shared-memory bank conflicts of a kernel, as the report shows them.
//
// Shared memory has 32 banks of 4-byte words; word w is in bank w mod 32.
// When the lanes of a warp access different words of one bank in one
// instruction, the access is replayed once per word: an n-way conflict.
// Lanes that read the same word are served together (a broadcast).
//
// BankConflicts looks at every load and store of a shared allocation in
// the kernel's body, evaluates its index for the lanes of the block's
// first warp (lane l is the thread of linear id l: x fastest, then y, then
// z, as CUDA numbers them; the body names the thread's coordinates
// ThreadID[d], gpu_thread_loops), and counts, per bank, the distinct words the
// lanes touch. The index may depend on anything else (block loops, serial
// loops, lets): those are the same for every lane of the warp and cancel
// in the difference between two lanes' indices. An access whose
// differences are not constants (an index read from memory, a thread
// extent known only at launch) is not counted. An element of more than 4
// bytes touches several words; each is counted (the hardware splits such
// accesses into phases, so the count is an upper bound there).

// WarpLanes is the number of threads of a warp; SharedBanks the number of
// shared-memory banks, each 4 bytes wide.
const (
	WarpLanes   = 32
	SharedBanks = 32
)

// BankConflicts returns, for each shared allocation of k that some access
// could be analyzed for, the largest number of distinct words of one bank
// that the first warp's lanes touch in one access (1: no conflict).
func BankConflicts(k *Kernel) map[string]int {
	if k == nil || k.Body == nil {
		return nil
	}
	block := [3]int64{1, 1, 1}
	for d := 0; d < 3; d++ {
		if k.Block[d] == nil {
			continue
		}
		n, ok := AsInt(Simplify(k.Block[d]))
		if !ok || n < 1 {
			return nil
		}
		block[d] = n
	}
	lanes := min(int64(WarpLanes), block[0]*block[1]*block[2])
	shared := map[string]Type{}
	WalkStmt(k.Body, func(s Stmt) bool {
		if a, ok := s.(*Allocate); ok && a.Memory == GPUShared {
			shared[a.Name] = a.T
		}
		return true
	}, nil)
	for _, a := range k.Allocs {
		if a.Memory == GPUShared {
			shared[a.Func] = a.T
		}
	}
	if len(shared) == 0 {
		return nil
	}
	b := &bankScan{block: block, lanes: lanes, shared: shared, lets: map[string]Expr{}, worst: map[string]int{}}
	b.stmt(k.Body)
	return b.worst
}

type bankScan struct {
	block  [3]int64
	lanes  int64
	shared map[string]Type
	lets   map[string]Expr // LetStmt values in scope, lets already inlined
	worst  map[string]int
}

func (b *bankScan) stmt(s Stmt) {
	switch n := s.(type) {
	case nil:
		return
	case *LetStmt:
		b.exprs(n.Value)
		old, had := b.lets[n.Name]
		b.lets[n.Name] = Substitute(n.Value, b.lets)
		b.stmt(n.Body)
		if had {
			b.lets[n.Name] = old
		} else {
			delete(b.lets, n.Name)
		}
		return
	case *Store:
		if t, ok := b.shared[n.Buf]; ok {
			b.access(n.Buf, t, n.Index)
		}
	}
	VisitStmt(s, b.stmt, func(e Expr) { b.exprs(e) })
}

func (b *bankScan) exprs(es ...Expr) {
	for _, e := range es {
		WalkExpr(e, func(x Expr) bool {
			if l, ok := x.(*Load); ok {
				if t, ok := b.shared[l.Buf]; ok {
					b.access(l.Buf, t, l.Index)
				}
			}
			return true
		})
	}
}

// access records the conflict degree of one access to buf.
func (b *bankScan) access(buf string, t Type, index Expr) {
	idx := Substitute(index, b.lets)
	at := func(lane int64) Expr {
		c := [3]int64{lane % b.block[0], lane / b.block[0] % b.block[1], lane / (b.block[0] * b.block[1])}
		m := map[string]Expr{}
		for d, name := range ThreadID {
			m[name] = Int(c[d])
		}
		return Substitute(idx, m)
	}
	base := at(0)
	bytes := int64(t.Bytes())
	if bytes < 1 {
		return
	}
	words := (bytes + 3) / 4
	perBank := map[int64]map[int64]bool{}
	for lane := int64(0); lane < b.lanes; lane++ {
		d, ok := AsInt(Simplify(SubE(at(lane), base)))
		if !ok {
			return // not analyzable
		}
		first := floorDiv(d*bytes, 4)
		for w := first; w < first+words; w++ {
			bank := ((w % SharedBanks) + SharedBanks) % SharedBanks
			if perBank[bank] == nil {
				perBank[bank] = map[int64]bool{}
			}
			perBank[bank][w] = true
		}
	}
	ways := 1
	for _, ws := range perBank {
		ways = max(ways, len(ws))
	}
	b.worst[buf] = max(b.worst[buf], ways)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
