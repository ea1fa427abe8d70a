//go:build amd64 || arm64

package hugeheap

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestHeapCollapsed looks, in the kernel's own account of this process's
// memory, at the mapping that holds the initialiser's anchor: it must hold
// a huge page.
func TestHeapCollapsed(t *testing.T) {
	if os.Getenv("HUGEHEAP_REPORT") != "" {
		kb, _ := anonHugeKB(t, uint64(uintptr(unsafe.Pointer(anchor))))
		fmt.Printf("collapsed=%d kB=%d\n", collapsed, kb)
		return
	}
	skipUnlessCollapses(t)
	switch collapsed {
	case 0:
	case syscall.EAGAIN, syscall.ENOMEM:
		t.Skipf("the kernel had no huge page to give: %v", collapsed)
	default:
		t.Fatalf("the collapse failed: %v", collapsed)
	}
	addr := uint64(uintptr(unsafe.Pointer(anchor)))
	kb, found := anonHugeKB(t, addr)
	if !found {
		t.Fatalf("no mapping holds the anchor at %#x", addr)
	}
	if kb < hugePage>>10 {
		t.Errorf("the anchor's mapping holds %d kB of huge pages, want %d", kb, hugePage>>10)
	}
}

// TestRuntimeSaysNo runs this test binary again under GODEBUG=disablethp=1,
// under which the runtime maps its heap as not to have huge pages: the
// kernel refuses the collapse, and the heap has none.
func TestRuntimeSaysNo(t *testing.T) {
	skipUnlessCollapses(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHeapCollapsed$")
	cmd.Env = append(os.Environ(), "HUGEHEAP_REPORT=1", "GODEBUG=disablethp=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := fmt.Sprintf("collapsed=%d kB=0\n", syscall.EINVAL); !bytes.HasPrefix(out, []byte(want)) {
		t.Errorf("under GODEBUG=disablethp=1: %q, want %q", out, want)
	}
}

func skipUnlessCollapses(t *testing.T) {
	t.Helper()
	var buf [64]byte
	if !allowed(thpEnabled(&buf)) {
		t.Skip("transparent huge pages are off here")
	}
	if !kernelAtLeast(t, 6, 1) {
		t.Skip("MADV_COLLAPSE came in Linux 6.1")
	}
	if os.Getenv("GODEBUG") != "" {
		t.Skip("GODEBUG is set")
	}
}

// anonHugeKB returns the AnonHugePages of the mapping in /proc/self/smaps
// that holds addr.
func anonHugeKB(t *testing.T, addr uint64) (int, bool) {
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); in && ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatalf("smaps: %q", line)
			}
			return kb, true
		}
	}
	return 0, false
}

// mappingRange reads a mapping's first line, "lo-hi perms ...".
func mappingRange(line string) (lo, hi uint64, ok bool) {
	span, _, _ := strings.Cut(line, " ")
	l, h, ok := strings.Cut(span, "-")
	if !ok {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseUint(l, 16, 64)
	hi, err2 := strconv.ParseUint(h, 16, 64)
	return lo, hi, err1 == nil && err2 == nil
}

func kernelAtLeast(t *testing.T, major, minor int) bool {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, c := range u.Release {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	parts := strings.SplitN(string(b), ".", 3)
	if len(parts) < 2 {
		t.Fatalf("kernel release %q", b)
	}
	ma, _ := strconv.Atoi(parts[0])
	mi, _ := strconv.Atoi(strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	return ma > major || ma == major && mi >= minor
}
