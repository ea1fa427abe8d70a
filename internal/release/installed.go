package release

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// ChecksumsFile is the file each platform package ships beside its bin/:
// one "<sha256>  <name>" line per binary (bin/'s file name: intenthook,
// intenthook-full.exe) and one for LauncherName, in sha256sum's format.
const ChecksumsFile = "checksums.txt"

// LauncherName names the Node launcher's line in ChecksumsFile: the file
// the main package's bin/ holds for each binary until its install step
// puts the native binary there (install scripts off, or Windows).
const LauncherName = "launcher.js"

// NPMDir is the main package's directory in a project, and NPMBinDir the
// directory the hook wiring of an npm install runs its programs from,
// relative to the project's root.
const (
	NPMDir    = "node_modules/intenthook"
	NPMBinDir = NPMDir + "/bin"
)

// HookBinaries are the programs of NPMBinDir a hook runs: the hook binary
// the wiring names, and the full binary it runs from beside itself.
var HookBinaries = []string{"intenthook", "intenthook-full"}

// checksums is ChecksumsFile's content for files (name → bytes), sorted by
// name.
func checksums(files map[string][]byte) []byte {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, n := range names {
		sum := sha256.Sum256(files[n])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return b.Bytes()
}

// ParseChecksums reads ChecksumsFile's lines: name → hex SHA-256. A line
// of another shape is skipped.
func ParseChecksums(data []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if ok && len(sum) == 64 && name != "" {
			out[strings.TrimPrefix(name, "*")] = strings.ToLower(sum)
		}
	}
	return out
}

// ErrNotInstalled says the project has no npm install of intenthook.
var ErrNotInstalled = errors.New("no npm install of intenthook in this project (" + NPMBinDir + "/intenthook)")

// Installed is what CheckInstalled found: the files it checked (root-
// relative) and whether the main package's bin/ still holds the Node
// launchers (then the platform's binaries were checked too).
type Installed struct {
	Platform string // the platform package, @intenthook/linux-x64
	Checked  []string
	Launcher bool
	// Bad are the files checked that are not the ones the package
	// shipped (root-relative).
	Bad []string
}

// CheckInstalled checks the programs an npm install's hooks run
// (HookBinaries in NPMBinDir) against the checksums this platform's
// package shipped: each must be the native binary or the Node launcher
// the package lists; where it is the launcher, the platform package's
// binary it runs must match too. It reads and hashes each file: for
// people's commands (doctor, precommit), never for a hook. It proves only
// that the files agree with the installed platform package; a program
// that can write node_modules can make both agree, and a check run by a
// binary inside the project is run by the very file it checks.
func CheckInstalled(root string) (Installed, error) {
	return checkInstalled(root, runtime.GOOS, runtime.GOARCH)
}

func checkInstalled(root, goos, goarch string) (Installed, error) {
	var in Installed
	binDir := filepath.Join(root, filepath.FromSlash(NPMBinDir))
	if _, err := os.Stat(filepath.Join(binDir, HookBinaries[0])); err != nil {
		return in, ErrNotInstalled
	}
	p, ok := platform(goos, goarch)
	if !ok {
		return in, fmt.Errorf("no npm package is built for %s/%s", goos, goarch)
	}
	in.Platform = p.Name()
	pkgDir, sums, err := platformSums(root, p)
	if err != nil {
		return in, err
	}
	exe := ""
	if p.OS == "win32" {
		exe = ".exe"
	}
	for _, name := range HookBinaries {
		wired := filepath.Join(binDir, name)
		rel := NPMBinDir + "/" + name
		got, err := hashFile(wired)
		if err != nil {
			return in, err
		}
		in.Checked = append(in.Checked, rel)
		switch got {
		case sums[name+exe]:
			continue
		case sums[LauncherName]:
			in.Launcher = true
			native := filepath.Join(pkgDir, "bin", name+exe)
			got, err := hashFile(native)
			if err != nil {
				return in, err
			}
			in.Checked = append(in.Checked, relTo(root, native))
			if got != sums[name+exe] {
				in.Bad = append(in.Bad, relTo(root, native))
			}
		default:
			in.Bad = append(in.Bad, rel)
		}
	}
	if len(in.Bad) > 0 {
		return in, fmt.Errorf("%s: not the file %s shipped (its %s names other SHA-256 sums)", strings.Join(in.Bad, ", "), p.Name(), ChecksumsFile)
	}
	return in, nil
}

// platformSums finds the platform package beside the main package as npm
// (node_modules/@intenthook/<platform>) or pnpm (beside the main package's
// real directory, in its store) lays it out, and reads its checksums.
func platformSums(root string, p Platform) (dir string, sums map[string]string, err error) {
	dirs := []string{filepath.Join(root, "node_modules", filepath.FromSlash(p.Name()))}
	if real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(NPMDir))); err == nil {
		dirs = append(dirs, filepath.Join(filepath.Dir(real), filepath.FromSlash(p.Name())))
	}
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, ChecksumsFile))
		if err == nil {
			sums := ParseChecksums(data)
			if len(sums) == 0 {
				return d, nil, fmt.Errorf("%s lists no checksums", relTo(root, filepath.Join(d, ChecksumsFile)))
			}
			return d, sums, nil
		}
	}
	return "", nil, fmt.Errorf("no %s in %s: an intenthook older than this check, or not installed (npm installs it as an optional dependency)", ChecksumsFile, p.Name())
}

// hashFile hashes a regular file (a FIFO in its place would hold the
// command).
func hashFile(path string) (string, error) {
	if st, err := os.Stat(path); err != nil {
		return "", err
	} else if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func relTo(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return path
}
