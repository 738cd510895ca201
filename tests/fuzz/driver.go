package fuzz

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// Counts are the outcomes of one algorithm on one target.
type Counts [numClasses]int

// Finding is one group of minimized failures with the same Signature.
type Finding struct {
	Signature string
	Class     Class
	Count     int    // minimized failures with this signature
	File      string // the saved repro, if any
	Repro     string
}

// Driver runs a stream of cases and keeps the statistics.
type Driver struct {
	Seed    int64
	Algos   []*Algo
	Opt     Options
	OutDir  string // where repros go ("" to keep them only in memory)
	Workers int
	// MinimizeBudget is the number of runs one minimization may spend;
	// MinimizePerKey caps the minimizations per (class, algorithm,
	// target, error key), so that one frequent bug does not eat the run.
	MinimizeBudget, MinimizePerKey int
	// Skip lists schedule indices not to run (known failures).
	Skip map[int]string
	// Grep, if set, collects up to 5 case indices per target whose outcome
	// message contains it (in Grepped).
	Grep    string
	Grepped []int
	// Progress, if set, receives a line every ProgressEvery cases.
	Progress      io.Writer
	ProgressEvery int

	mu sync.Mutex
	// Reasons counts the rejections at Lower by error key.
	Reasons  map[string]int
	counts   map[string]*Counts // by algo + "/" + target
	findings map[string]*Finding
	perKey   map[string]int
	// Failures are the indices of defect cases, by class.
	Failures map[Class][]int
	slowest  time.Duration
	done     int
}

// Run runs cases [from, from+n).
func (d *Driver) Run(from, n int) {
	if d.counts == nil {
		d.counts = map[string]*Counts{}
		d.findings = map[string]*Finding{}
		d.perKey = map[string]int{}
		d.Failures = map[Class][]int{}
		d.Reasons = map[string]int{}
	}
	if d.Workers < 1 {
		d.Workers = 1
	}
	if d.MinimizeBudget == 0 {
		d.MinimizeBudget = 150
	}
	if d.MinimizePerKey == 0 {
		d.MinimizePerKey = 3
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < d.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				d.one(i)
			}
		}()
	}
	for i := from; i < from+n; i++ {
		if _, skip := d.Skip[i]; skip {
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
}

func (d *Driver) one(i int) {
	c := MakeCase(d.Seed, i, d.Algos)
	r := Run(c, d.Opt)
	key := c.Algo + "/" + c.Target()
	d.mu.Lock()
	if d.counts[key] == nil {
		d.counts[key] = &Counts{}
	}
	d.counts[key][r.Class]++
	if d.Grep != "" && strings.Contains(r.Msg, d.Grep) && len(d.Grepped) < 10 {
		d.Grepped = append(d.Grepped, i)
	}
	if r.Class == RejectLower || r.Class == RejectSize {
		d.Reasons[c.Target()+" "+r.Code+" "+msgKey(r.Msg)]++
	}
	if r.Elapsed > d.slowest {
		d.slowest = r.Elapsed
	}
	d.done++
	if d.Progress != nil && d.ProgressEvery > 0 && d.done%d.ProgressEvery == 0 {
		fmt.Fprintf(d.Progress, "%d schedules, %d findings, slowest %v\n", d.done, len(d.findings), d.slowest.Round(time.Millisecond))
	}
	minimize := false
	if r.Class.IsDefect() {
		d.Failures[r.Class] = append(d.Failures[r.Class], i)
		pk := r.Class.String() + "/" + key + "/" + r.Code + "/" + msgKey(r.Msg)
		limit := d.MinimizePerKey
		if r.Class == Wrong {
			limit *= 5
		}
		if d.perKey[pk] < limit {
			d.perKey[pk]++
			minimize = true
		}
	}
	d.mu.Unlock()
	if !minimize {
		return
	}
	orig := len(r.Applied)
	mc, mr := c, r
	if r.Class != Timeout {
		mc, mr = Minimize(c, r, d.Opt, d.MinimizeBudget)
	}
	sig := Signature(mc, mr)
	text := Repro(mc, mr, orig)
	d.mu.Lock()
	defer d.mu.Unlock()
	f := d.findings[sig]
	if f == nil {
		f = &Finding{Signature: sig, Class: mr.Class, Repro: text}
		d.findings[sig] = f
		if d.OutDir != "" {
			name := fmt.Sprintf("%s-%s-%s-%d.go.txt", mr.Class, c.Algo, c.Target(), i)
			path := filepath.Join(d.OutDir, name)
			if err := os.WriteFile(path, []byte(text), 0o644); err == nil {
				f.File = path
			}
		}
	}
	f.Count++
}

// Findings returns the findings, defects first by class, then by count.
func (d *Driver) Findings() []*Finding {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*Finding
	for _, f := range d.findings {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Class != out[j].Class {
			return out[i].Class > out[j].Class
		}
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Signature < out[j].Signature
	})
	return out
}

// Total returns the counts of all algorithms and targets.
func (d *Driver) Total() Counts {
	d.mu.Lock()
	defer d.mu.Unlock()
	var t Counts
	for _, c := range d.counts {
		for k := range c {
			t[k] += c[k]
		}
	}
	return t
}

// WriteTable prints one row per algorithm and target and a total row.
func (d *Driver) WriteTable(w io.Writer) {
	d.mu.Lock()
	keys := make([]string, 0, len(d.counts))
	for k := range d.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "algorithm\ttarget\ttried\trejected at Lower\trejected for size\trejected at Realize\twrong\tpanics\tinternal\ttimeouts\tok\tran\t")
	var tot Counts
	row := func(name, target string, c Counts) {
		n := 0
		for _, v := range c {
			n += v
		}
		ran := 0.0
		if n > 0 {
			ran = 100 * float64(n-c[RejectLower]-c[RejectSize]) / float64(n)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.0f%%\t\n", name, target, n,
			c[RejectLower], c[RejectSize], c[RejectRealize], c[Wrong], c[Panic], c[Internal], c[Timeout], c[OK], ran)
	}
	for _, k := range keys {
		c := *d.counts[k]
		for i := range c {
			tot[i] += c[i]
		}
		a, t, _ := strings.Cut(k, "/")
		row(a, t, c)
	}
	d.mu.Unlock()
	row("total", "", tot)
	tw.Flush()
}
