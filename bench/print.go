package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Format formats a figure in its unit with as many digits as it needs.
func Format(v float64, unit string) string {
	var digits int
	switch {
	case v == 0:
		digits = 0
	case v < 1:
		digits = 3
	case v < 10:
		digits = 2
	case v < 100:
		digits = 1
	}
	return strconv.FormatFloat(v, 'f', digits, 64) + " " + unit
}

// cells returns a row's table cells: before, now, peer, speedup (now and
// before), target.
func (r *Row) cells(base *Row) []string {
	before, speedBefore := "-", ""
	if base != nil {
		before = Format(base.Value, base.Unit)
		if base.Peer != nil {
			speedBefore = fmt.Sprintf(" (was %.2fx)", base.Peer.Speedup)
		}
	}
	peer, speed := "", ""
	if r.Peer != nil {
		peer = Format(r.Peer.Value, r.Peer.Unit) + " " + r.Peer.Name
		speed = fmt.Sprintf("%.2fx", r.Peer.Speedup) + speedBefore
	}
	target := ""
	if r.Target != nil {
		mark := "missed"
		if r.Target.Met {
			mark = "met"
		}
		target = r.Target.Text + ": " + mark
	}
	return []string{r.What, before, Format(r.Value, r.Unit), peer, speed, target}
}

// WriteText prints the report as an aligned table, each row's notes
// below it, every row beside its figure in base (nil: none).
func (rep *Report) WriteText(w io.Writer, base *Report) error {
	fmt.Fprintf(w, "gravf-tui bench, revision %s, %s, %d CPUs, load %.1f at the start", rep.Revision, rep.Go, rep.CPUs, rep.Load)
	if base != nil {
		fmt.Fprintf(w, "; before: revision %s", base.Revision)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "(speedup = the peer's median time over ours, timed alternately in this run)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "what\tbefore\tnow\tpeer\tspeedup\ttarget")
	for i := range rep.Rows {
		r := &rep.Rows[i]
		fmt.Fprintln(tw, strings.Join(r.cells(base.Find(r.ID)), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Notes below the table, so that they do not widen its first column.
	for i := range rep.Rows {
		r := &rep.Rows[i]
		for j, n := range r.Notes {
			if j == 0 {
				fmt.Fprintf(w, "\n%s:\n", r.ID)
			}
			fmt.Fprintf(w, "    %s\n", n)
		}
	}
	return nil
}

// WriteMarkdown prints the report as the table of docs/PERFORMANCE.md.
func (rep *Report) WriteMarkdown(w io.Writer, base *Report) error {
	fmt.Fprintln(w, "| what | before | now | peer | speedup | target | notes |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for i := range rep.Rows {
		r := &rep.Rows[i]
		c := r.cells(base.Find(r.ID))
		c = append(c, strings.Join(r.Notes, "; "))
		for j := range c {
			c[j] = strings.ReplaceAll(c[j], "|", "\\|")
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(c, " | ")); err != nil {
			return err
		}
	}
	return nil
}
