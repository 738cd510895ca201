package ir

// IntrinsicShuffleDown is gpu_shuffle_down(value, delta), a warp shuffle
// in a kernel body: the value of its first argument in the thread whose
// lane is this thread's lane plus delta (a constant from 1 to 31), or the
// thread's own value when that lane is past the warp's last thread. A
// warp is 32 threads of consecutive linear index in the block (x fastest,
// then y, then z), its lane the linear index mod 32; the last warp of a
// block whose size is not a multiple of 32 is partial. Every thread of the
// warp evaluates the same call together, like a barrier of the warp (the
// emulator reports a thread that does not as divergent); lowering binds
// each call to a let of its own and never puts one under a
// thread-dependent condition. CUDA: __shfl_down_sync(0xffffffff, value,
// delta). Lowering's gpu_thread_reduce makes them (the warp stage of an
// all-reduce across a block's threads).
const IntrinsicShuffleDown = "gpu_shuffle_down"

// WarpSize is the number of threads of a warp.
const WarpSize = 32

// ShuffleDown returns gpu_shuffle_down(value, delta).
func ShuffleDown(value Expr, delta int) *Call {
	return &Call{T: value.Type(), Kind: CallIntrinsic, Name: IntrinsicShuffleDown, Args: []Expr{value, Int(int64(delta))}}
}

// IsShuffle reports whether e is a warp shuffle call.
func IsShuffle(e Expr) bool {
	c, ok := e.(*Call)
	return ok && c.Kind == CallIntrinsic && c.Name == IntrinsicShuffleDown
}

// HasShuffle reports whether s evaluates a warp shuffle.
func HasShuffle(s Stmt) bool {
	found := false
	WalkStmt(s, func(Stmt) bool { return !found }, func(e Expr) bool {
		if IsShuffle(e) {
			found = true
		}
		return !found
	})
	return found
}
