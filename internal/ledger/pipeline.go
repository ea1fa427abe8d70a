package ledger

import (
	"crypto/sha256"
	"runtime"
)

// checked is one ledger line with the work verify does on each line alone
// (its digest, its validity and chain fields) already done.
type checked struct {
	n        int
	line     []byte
	complete bool
	sum      [sha256.Size]byte
	chain    chain
	err      error
}

// batchLines is how many lines travel together between the stages.
const batchLines = 2048

type batch struct {
	lines []checked
	done  chan struct{}
}

// scanChecked streams the ledger's lines to fn in file order, each checked
// by a pool of workers (one per CPU) while the file is read: hashing and
// validating a million lines is most of what verify costs, and each line
// needs only itself.
func scanChecked(root string, from int64, fn func(c *checked)) error {
	return scanCheckedOf(func(emit func(n int, line []byte, complete bool) error) error {
		return scanLinesFrom(root, from, emit)
	}, fn)
}

// scanCheckedOf is scanChecked over the lines source hands to its emit.
func scanCheckedOf(source func(emit func(n int, line []byte, complete bool) error) error, fn func(c *checked)) error {
	work := make(chan *batch, 4)
	ordered := make(chan *batch, 8)
	for range max(1, runtime.GOMAXPROCS(0)) {
		go func() {
			for b := range work {
				for i := range b.lines {
					c := &b.lines[i]
					if c.complete {
						c.sum = sha256.Sum256(c.line)
						c.chain, c.err = chainFields(c.line)
					}
				}
				close(b.done)
			}
		}()
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(ordered)
		defer close(work)
		cur := &batch{done: make(chan struct{})}
		send := func() {
			work <- cur
			ordered <- cur
			cur = &batch{done: make(chan struct{})}
		}
		err := source(func(n int, line []byte, complete bool) error {
			cur.lines = append(cur.lines, checked{n: n, line: append([]byte(nil), line...), complete: complete})
			if len(cur.lines) == batchLines {
				send()
			}
			return nil
		})
		if len(cur.lines) > 0 {
			send()
		}
		readErr <- err
	}()
	for b := range ordered {
		<-b.done
		for i := range b.lines {
			fn(&b.lines[i])
		}
	}
	return <-readErr
}
