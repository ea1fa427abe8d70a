package doctor

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/release"
)

// doctor checks an npm install's hook binaries against the checksums the
// platform package shipped, and says nothing where there is no npm install.
func TestCheckHookBinary(t *testing.T) {
	plat := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}[runtime.GOOS]
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if plat == "" || cpu == "" || runtime.GOOS == "windows" {
		t.Skip("no npm package for this platform")
	}
	root := t.TempDir()
	if got := checkHookBinary(root); got != nil {
		t.Fatalf("no npm install: %+v", got)
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
	pkg := "node_modules/@intenthook/" + plat + "-" + cpu
	var sums strings.Builder
	for _, b := range release.HookBinaries {
		put(release.NPMBinDir+"/"+b, "native "+b)
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256([]byte("native "+b)), b)
	}
	// An older package: no checksums.
	if c := checkHookBinary(root); len(c) != 1 || c[0].Status != Warn {
		t.Fatalf("no checksums: %+v", c)
	}
	put(pkg+"/"+release.ChecksumsFile, sums.String())
	if c := checkHookBinary(root); len(c) != 1 || c[0].Status != Pass || !strings.Contains(c[0].Detail, "node_modules/intenthook/bin/intenthook, node_modules/intenthook/bin/intenthook-full are the files @intenthook/") {
		t.Fatalf("the shipped binaries: %+v", c)
	}
	put(release.NPMBinDir+"/intenthook", "#!/bin/sh\nexit 0\n")
	if c := checkHookBinary(root); len(c) != 1 || c[0].Status != Fail || !strings.Contains(c[0].Detail, "node_modules/intenthook/bin/intenthook: not the file") || !strings.Contains(c[0].Hint, "npm ci") {
		t.Fatalf("a replaced binary: %+v", c)
	}
}
