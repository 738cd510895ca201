package cfamily

// Checking CUDA C with nvcc (no GPU needed): compile errors and warnings,
// and what ptxas reports for each kernel.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// PtxasInfo is what ptxas -v reports for one kernel.
type PtxasInfo struct {
	Registers   int   `json:"registers"`
	SharedBytes int64 `json:"shared_bytes"` // static shared memory ("bytes smem")
	ConstBytes  int64 `json:"const_bytes"`  // "bytes cmem[0]": the kernel's parameters
	StackFrame  int64 `json:"stack_bytes"`
	SpillStores int64 `json:"spill_store_bytes"`
	SpillLoads  int64 `json:"spill_load_bytes"`
}

// NVCCPath returns the nvcc to use: the one on PATH, else the one of
// Debian's nvidia-cuda-toolkit, else /usr/local/cuda's.
func NVCCPath() (string, bool) {
	if p, err := exec.LookPath("nvcc"); err == nil {
		return p, true
	}
	for _, p := range []string{"/usr/lib/nvidia-cuda-toolkit/bin/nvcc", "/usr/local/cuda/bin/nvcc"} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, true
		}
	}
	return "", false
}

// ErrNoNVCC is returned by CheckWithNVCC when no nvcc is installed.
var ErrNoNVCC = errors.New("nvcc not found (install the CUDA toolkit with scripts/install-cuda-toolkit.sh)")

var (
	ptxasEntry = regexp.MustCompile(`Compiling entry function '([^']+)'`)
	ptxasProps = regexp.MustCompile(`Function properties for (\S+)`)
	ptxasStack = regexp.MustCompile(`(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads`)
	ptxasUsed  = regexp.MustCompile(`Used (\d+) registers`)
	ptxasSmem  = regexp.MustCompile(`(\d+) bytes smem`)
	ptxasCmem  = regexp.MustCompile(`(\d+) bytes cmem\[0\]`)
)

// CheckWithNVCC compiles a translation unit with `nvcc -arch=sm_90 -cubin
// -Xptxas -v` and returns what ptxas reports for each kernel. A compile
// error, or any warning, is an error that quotes nvcc's output. Note that
// ptxas counts only the shared memory the code can reach: an array that is
// never accessed, or only at constant indices, may count for less.
func CheckWithNVCC(src string) (map[string]PtxasInfo, error) {
	nvcc, ok := NVCCPath()
	if !ok {
		return nil, ErrNoNVCC
	}
	dir, err := os.MkdirTemp("", "gohalide-nvcc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cu := filepath.Join(dir, "kernels.cu")
	if err := os.WriteFile(cu, []byte(src), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", filepath.Join(dir, "kernels.cubin"), cu)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil {
		return nil, fmt.Errorf("nvcc failed: %v\n%s", err, text)
	}
	if strings.Contains(strings.ToLower(text), "warning") {
		return nil, fmt.Errorf("nvcc warned:\n%s", text)
	}
	return parsePtxas(text), nil
}

// parsePtxas reads ptxas -v output: a "Compiling entry function" line, then
// "Function properties" with the stack line, then "Used N registers".
func parsePtxas(text string) map[string]PtxasInfo {
	res := map[string]PtxasInfo{}
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		if m := ptxasEntry.FindStringSubmatch(l); m != nil {
			cur = m[1]
			res[cur] = PtxasInfo{}
			continue
		}
		if m := ptxasProps.FindStringSubmatch(l); m != nil {
			cur = m[1]
			if _, ok := res[cur]; !ok {
				res[cur] = PtxasInfo{}
			}
			continue
		}
		if cur == "" {
			continue
		}
		info := res[cur]
		if m := ptxasStack.FindStringSubmatch(l); m != nil {
			info.StackFrame, _ = strconv.ParseInt(m[1], 10, 64)
			info.SpillStores, _ = strconv.ParseInt(m[2], 10, 64)
			info.SpillLoads, _ = strconv.ParseInt(m[3], 10, 64)
		}
		if m := ptxasUsed.FindStringSubmatch(l); m != nil {
			info.Registers, _ = strconv.Atoi(m[1])
			if m := ptxasSmem.FindStringSubmatch(l); m != nil {
				info.SharedBytes, _ = strconv.ParseInt(m[1], 10, 64)
			}
			if m := ptxasCmem.FindStringSubmatch(l); m != nil {
				info.ConstBytes, _ = strconv.ParseInt(m[1], 10, 64)
			}
		}
		res[cur] = info
	}
	return res
}
