package precommit

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/release"
	"github.com/intenthook/intenthook/internal/workspace"
)

// precommit holds an npm install's hook binaries to the checksums the
// platform package shipped, and refuses while a program an agent's command
// replaced is still as it left it; without an npm install it finds nothing.
func TestHookBinary(t *testing.T) {
	plat := map[string]string{"linux": "linux", "darwin": "darwin"}[runtime.GOOS]
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if plat == "" || cpu == "" {
		t.Skip("no npm package for this platform")
	}
	root := t.TempDir()
	if got := HookBinary(root); len(got) != 0 {
		t.Fatalf("no npm install: %v", got)
	}
	put := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var sums strings.Builder
	for _, b := range release.HookBinaries {
		put(release.NPMBinDir+"/"+b, "native "+b)
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256([]byte("native "+b)), b)
	}
	if got := HookBinary(root); len(got) != 1 || got[0].Severity != Warning || got[0].Code != CodeHookBinary {
		t.Fatalf("no checksums: %v", got)
	}
	put("node_modules/@intenthook/"+plat+"-"+cpu+"/"+release.ChecksumsFile, sums.String())
	if got := HookBinary(root); len(got) != 0 {
		t.Fatalf("the shipped binaries: %v", got)
	}
	put(release.NPMBinDir+"/intenthook-full", "#!/bin/sh\nexit 0\n")
	got := HookBinary(root)
	if len(got) != 1 || got[0].Severity != Error || got[0].Path != release.NPMBinDir+"/intenthook-full" || !strings.Contains(got[0].Message, "npm ci") {
		t.Fatalf("a replaced binary: %v", got)
	}
	// Put back, but a command replaced the hook binary and it is still
	// as the command left it.
	put(release.NPMBinDir+"/intenthook-full", "native intenthook-full")
	bin := release.NPMBinDir + "/intenthook"
	note := guard.Replaced{Programs: map[string]string{bin: guard.ProgramPrint(filepath.Join(root, filepath.FromSlash(bin)))}, Session: "s1", Command: "make", At: time.Now()}
	if _, err := guard.WriteReplaced(filepath.Join(root, filepath.FromSlash(workspace.HookReplacedFile)), note); err != nil {
		t.Fatal(err)
	}
	got = HookBinary(root)
	if len(got) != 1 || got[0].Severity != Error || got[0].Path != bin || !strings.Contains(got[0].Message, "session s1's shell command `make`") {
		t.Fatalf("a replaced program: %v", got)
	}
}
