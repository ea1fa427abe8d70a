// Command intenthook is the hook binary that keeps AI coding agents inside the
// intents they were given and records why each line changed.
//
// It links only what the hooks need (an agent runs one on every tool call,
// and Go runs every linked package's initialisation on every start); every
// other command line is handed to intenthook-full, in this process's place.
package main

import (
	"os"

	"github.com/intenthook/intenthook/internal/hookcmd"
	// Its initialiser backs the heap with a huge page before the other
	// packages' initialisers and the call fault its pages in one by one.
	_ "github.com/intenthook/intenthook/internal/hugeheap"
	"github.com/intenthook/intenthook/internal/runner"
)

func main() {
	growStack()
	if code, ok := hookcmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(hookcmd.Delegate(os.Args[1:], runner.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

// stackFrame is the frame growStack takes: more than half of a 16 KiB
// stack, so that the runtime's one growth for it lands on 32 KiB.
const stackFrame = 16 << 10

// growStack grows the main goroutine's stack to 32 KiB in one step while
// it is shallow. A hook call otherwise grows it from 8 KiB to 16 KiB deep
// in its work, a selection on to 32 KiB, and each growth copies every
// frame on the stack, reading the function table's entries for each: on a
// binary whose pages have sat in the page cache a while, as an installed
// one has, those reads fault. Measured on such copies (docs/performance.md),
// a Write's pre is about 0.04x of the floor faster, its post 0.05x, a
// selection 0.12x.
//
//go:noinline
func growStack() {
	var frame [stackFrame]byte
	holdFrame(&frame)
}

//go:noinline
func holdFrame(*[stackFrame]byte) {}
