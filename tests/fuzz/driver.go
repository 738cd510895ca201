package fuzz

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
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
	// Make, if set, draws case i (MakeProgCase for random programs);
	// otherwise cases are MakeCase over Algos.
	Make func(seed int64, i int) Case

	mu sync.Mutex
	// Reasons counts the rejections at Lower by error key.
	Reasons map[string]int
	counts  map[string]*Counts // by algo + "/" + target
	// windows counts, by algo + "/" + target, the cases that slid and
	// that folded (with Opt.Windows).
	windows  map[string]*[3]int
	findings map[string]*Finding
	perKey   map[string]int
	// Failures are the indices of defect cases, by class.
	Failures map[Class][]int
	slowest  time.Duration
	done     int
	// SlowLower are the cases with the slowest Lower, slowest first.
	SlowLower []Slow
}

// Slow is a case and the time its Lower took.
type Slow struct {
	Index int
	Lower time.Duration
	Class Class
	Funcs int // the program's Funcs (0 for fixed algorithms)
}

// keepSlow is how many slow Lowers the Driver keeps.
const keepSlow = 10

// Run runs cases [from, from+n).
func (d *Driver) Run(from, n int) {
	if d.counts == nil {
		d.counts = map[string]*Counts{}
		d.windows = map[string]*[3]int{}
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

// makeCase draws case i: Make's, or MakeCase's over Algos.
func (d *Driver) makeCase(i int) Case {
	if d.Make != nil {
		return d.Make(d.Seed, i)
	}
	return MakeCase(d.Seed, i, d.Algos)
}

func (d *Driver) one(i int) {
	c := d.makeCase(i)
	r := Run(c, d.Opt)
	algo := c.Algo
	if c.Prog != nil && len(c.Prog.Outputs) > 0 {
		algo = "outputs" // a program with several outputs: a row of its own
	}
	key := algo + "/" + c.Target()
	d.mu.Lock()
	if d.counts[key] == nil {
		d.counts[key] = &Counts{}
	}
	d.counts[key][r.Class]++
	if d.windows[key] == nil {
		d.windows[key] = &[3]int{}
	}
	if r.Slid {
		d.windows[key][0]++
	}
	if r.Folded {
		d.windows[key][1]++
	}
	if r.Nested {
		d.windows[key][2]++
	}
	if d.Grep != "" && strings.Contains(r.Msg, d.Grep) && len(d.Grepped) < 10 {
		d.Grepped = append(d.Grepped, i)
	}
	switch {
	case d.Make == nil && (r.Class == RejectLower || r.Class == RejectSize):
		d.Reasons[c.Target()+" "+r.Code+" "+msgKey(r.Msg)]++
	case d.Make != nil && !r.Class.IsWrong() && r.Class != OK && r.Class != Panic:
		d.Reasons[r.Class.String()+" | "+c.Target()+" | "+r.Code+" | "+normalize(r.Msg)]++
	}
	lower := r.Lower
	if r.Class == Timeout {
		lower = r.Elapsed
	}
	if n := len(d.SlowLower); n < keepSlow || lower > d.SlowLower[n-1].Lower {
		s := Slow{Index: i, Lower: lower, Class: r.Class}
		if c.Prog != nil {
			s.Funcs = len(c.Prog.Funcs)
		}
		d.SlowLower = append(d.SlowLower, s)
		sort.Slice(d.SlowLower, func(a, b int) bool { return d.SlowLower[a].Lower > d.SlowLower[b].Lower })
		if len(d.SlowLower) > keepSlow {
			d.SlowLower = d.SlowLower[:keepSlow]
		}
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
		if r.Class.IsWrong() {
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
			if c.Prog != nil {
				name = fmt.Sprintf("%s-%s-%d.go", mr.Class, c.Target(), i)
				if len(c.Prog.Outputs) > 0 {
					name = fmt.Sprintf("%s-outputs-%s-%d.go", mr.Class, c.Target(), i)
				}
			}
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
// A program run (Make set) has the program classes' columns too.
func (d *Driver) WriteTable(w io.Writer) {
	d.mu.Lock()
	keys := make([]string, 0, len(d.counts))
	for k := range d.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	type col struct {
		name string
		cl   Class
	}
	cols := []col{{"rejected at Lower", RejectLower}, {"rejected for size", RejectSize}, {"rejected at Realize", RejectRealize},
		{"out-of-bounds accesses", BadAccess}, {"wrong", Wrong}, {"panics", Panic}, {"internal", Internal}, {"timeouts", Timeout}, {"slow runs", SlowRun}, {"ok", OK}}
	first := "algorithm"
	if d.Make != nil {
		first = "programs"
		cols = []col{{"invalid", Invalid}, {"refused (expected)", RejectExpected}, {"refused at Lower", RejectLower},
			{"refused for size", RejectSize}, {"refused at Realize", RejectRealize},
			{"out-of-bounds accesses", BadAccess}, {"wrong", Wrong}, {"wrong (neg. divisor)", WrongDiv}, {"wrong (RVar order)", WrongRVar},
			{"panics", Panic}, {"internal", Internal}, {"timeouts", Timeout}, {"slow runs", SlowRun}, {"ok", OK}}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\ttarget\ttried\t", first)
	for _, c := range cols {
		fmt.Fprintf(tw, "%s\t", c.name)
	}
	fmt.Fprint(tw, "ran\t")
	if d.Opt.Windows {
		fmt.Fprint(tw, "slid\tfolded\tnested\t")
	}
	fmt.Fprintln(tw)
	var tot Counts
	var totW [3]int
	row := func(name, target string, c Counts, w [3]int) {
		n := 0
		for _, v := range c {
			n += v
		}
		ran := 0.0
		if n > 0 {
			ran = 100 * float64(n-c[RejectLower]-c[RejectSize]-c[Invalid]-c[RejectExpected]) / float64(n)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t", name, target, n)
		for _, col := range cols {
			fmt.Fprintf(tw, "%d\t", c[col.cl])
		}
		fmt.Fprintf(tw, "%.0f%%\t", ran)
		if d.Opt.Windows {
			fmt.Fprintf(tw, "%d\t%d\t%d\t", w[0], w[1], w[2])
		}
		fmt.Fprintln(tw)
	}
	for _, k := range keys {
		c := *d.counts[k]
		for i := range c {
			tot[i] += c[i]
		}
		var w [3]int
		if d.windows[k] != nil {
			w = *d.windows[k]
		}
		totW[0] += w[0]
		totW[1] += w[1]
		totW[2] += w[2]
		a, t, _ := strings.Cut(k, "/")
		row(a, t, c, w)
	}
	d.mu.Unlock()
	row("total", "", tot, totW)
	tw.Flush()
}

// normalize is an error message's first line with numbers and names of
// the program's own objects replaced, so that one refusal at different
// sizes and in different programs gives one key.
func normalize(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	line = progNames.ReplaceAllString(line, "$1")
	line = digits.ReplaceAllString(line, "#")
	if len(line) > 180 {
		line = line[:180]
	}
	return line
}

// progNames matches the names the program generator gives (f0, b1, in0,
// r2$x, pi, pf), the fresh loop names of the schedule generator, and the
// pipeline's names of wrappers and anonymous Funcs, keeping the kind.
var progNames = regexp.MustCompile(`\b(f|b|in|r|sum|maximum|minimum|in_repeat_edge|in_constant_exterior)[0-9]+(\$[xyzw])?\b`)
