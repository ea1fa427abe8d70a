// Command gitgrowth measures what the ledger costs a repository (make
// bench-ledger-git): for a number of records written over a number of
// commits, the .git directory's growth and the time git add and git commit
// take, with the single-file ledger of before segments against segments
// (a new one each commit, as a writer seals its segment when HEAD moves,
// and at the segment size). The records are generated, shaped as post
// writes them; git does the rest. It measures git, not intenthook.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/bench"
)

func main() {
	records := flag.String("records", "50000,500000", "comma-separated totals of records")
	commits := flag.Int("commits", 100, "commits the records are spread over")
	dir := flag.String("dir", "", "where to build the repositories (default: a temporary directory, removed after)")
	flag.Parse()
	if err := run(*records, *commits, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "gitgrowth:", err)
		os.Exit(1)
	}
}

func run(list string, commits int, dir string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "gitgrowth-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	fmt.Printf("%-10s %-9s %8s %14s %14s %12s %14s\n", "records", "layout", "commits", ".git growth", "per commit", "add+commit", "ledger in tree")
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return err
		}
		for _, layout := range []string{"single", "segments"} {
			ws := filepath.Join(dir, fmt.Sprintf("%s-%d", layout, n))
			r, err := measure(ws, layout, n, commits)
			if err != nil {
				return err
			}
			fmt.Printf("%-10d %-9s %8d %14s %14s %12s %14s\n", n, layout, commits, mib(r.growth), kib(r.growth/int64(commits)), r.took.Round(10*time.Millisecond), mib(r.ledger))
			os.RemoveAll(ws)
		}
	}
	return nil
}

type result struct {
	growth int64 // bytes .git grew by over the commits
	took   time.Duration
	ledger int64 // the ledger's bytes in the last tree
}

func measure(ws, layout string, n, commits int) (result, error) {
	var r result
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return r, err
	}
	if err := os.WriteFile(filepath.Join(ws, "README"), []byte("bench\n"), 0o644); err != nil {
		return r, err
	}
	if err := bench.GitIn(ws, nil, "init", "-q", "-b", "main"); err != nil {
		return r, err
	}
	// No automatic gc: the growth is what commits leave until one runs.
	if err := bench.GitIn(ws, nil, "config", "gc.auto", "0"); err != nil {
		return r, err
	}
	if err := bench.GitIn(ws, nil, "add", "-A"); err != nil {
		return r, err
	}
	if err := bench.GitIn(ws, nil, "commit", "-qm", "base"); err != nil {
		return r, err
	}
	before, err := size(filepath.Join(ws, ".git"))
	if err != nil {
		return r, err
	}
	g := bench.NewGenerator(ws, layout == "segments")
	per := n / commits
	for c := 1; c <= commits; c++ {
		if err := g.Write(per); err != nil {
			return r, err
		}
		start := time.Now()
		if err := bench.GitIn(ws, nil, "add", "-A"); err != nil {
			return r, err
		}
		if err := bench.GitIn(ws, nil, "commit", "-qm", fmt.Sprintf("commit %d", c)); err != nil {
			return r, err
		}
		r.took += time.Since(start)
		g.Seal() // HEAD moved: the next records start a segment
	}
	after, err := size(filepath.Join(ws, ".git"))
	if err != nil {
		return r, err
	}
	r.growth = after - before
	r.ledger, err = size(filepath.Join(ws, ".orchestration"))
	return r, err
}

// size is the bytes of the regular files under dir.
func size(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	return n, err
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func kib(b int64) string { return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10)) }
