// Package release builds what GoReleaser's open-source edition does not: the
// npm packages, from the binaries a `goreleaser release` left in dist/. It
// reads dist/ and writes tarballs; it builds nothing and publishes nothing.
//
// The packages follow esbuild's way of shipping native binaries through npm:
// one package per platform (@intenthook/linux-x64, …) holding the
// binaries, with os and cpu fields so that npm installs only the one that
// fits, and a package intenthook that lists them all as optional
// dependencies. Nothing is downloaded at install time.
package release

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Binaries are the programs every package holds, side by side: the hook
// binary runs intenthook-full from beside itself, which runs
// intenthook-export, intenthook-attest and intenthook-console from beside
// itself.
var Binaries = []string{"intenthook", "intenthook-full", "intenthook-mcp", "intenthook-export", "intenthook-attest", "intenthook-console"}

// Scope is the npm scope of the platform packages.
const Scope = "@intenthook"

// Platform is one npm platform: Node's process.platform and process.arch.
type Platform struct{ OS, CPU string }

// Name is the platform package's name: @intenthook/linux-x64.
func (p Platform) Name() string { return Scope + "/" + p.OS + "-" + p.CPU }

// platform maps GoReleaser's GOOS and GOARCH to Node's names.
func platform(goos, goarch string) (Platform, bool) {
	os, ok := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}[goos]
	if !ok {
		return Platform{}, false
	}
	cpu, ok := map[string]string{"amd64": "x64", "arm64": "arm64"}[goarch]
	return Platform{os, cpu}, ok
}

type artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Goos   string `json:"goos"`
	Goarch string `json:"goarch"`
	Type   string `json:"type"`
}

type metadata struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
}

// NPM writes the npm packages to dist/npm/ as tarballs, from dist/'s
// artifacts.json and metadata.json and the main package's scripts in src
// (npm/intenthook). root is the directory artifact paths are relative to.
// It returns the tarballs' paths, the main package's first.
func NPM(root, dist, src string) ([]string, error) {
	var arts []artifact
	if err := readJSON(filepath.Join(dist, "artifacts.json"), &arts); err != nil {
		return nil, err
	}
	var meta metadata
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		return nil, err
	}
	if meta.Version == "" {
		return nil, fmt.Errorf("%s names no version", filepath.Join(dist, "metadata.json"))
	}
	mtime, err := time.Parse(time.RFC3339, meta.Date)
	if err != nil {
		mtime = time.Unix(0, 0)
	}
	bins := map[Platform]map[string]string{} // platform → binary name → path
	for _, a := range arts {
		if a.Type != "Binary" {
			continue
		}
		p, ok := platform(a.Goos, a.Goarch)
		if !ok {
			continue
		}
		if bins[p] == nil {
			bins[p] = map[string]string{}
		}
		bins[p][strings.TrimSuffix(a.Name, ".exe")] = filepath.Join(root, a.Path)
	}
	if len(bins) == 0 {
		return nil, fmt.Errorf("%s lists no binaries: run make dist", filepath.Join(dist, "artifacts.json"))
	}
	plats := make([]Platform, 0, len(bins))
	for p := range bins {
		plats = append(plats, p)
	}
	sort.Slice(plats, func(i, j int) bool { return plats[i].Name() < plats[j].Name() })

	out := filepath.Join(dist, "npm")
	if err := os.RemoveAll(out); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	launcher, err := os.ReadFile(filepath.Join(src, "launcher.js"))
	if err != nil {
		return nil, err
	}
	main, err := mainPackage(src, meta.Version, plats, launcher)
	if err != nil {
		return nil, err
	}
	paths := []string{filepath.Join(out, tarballName("intenthook", meta.Version))}
	if err := writeTarball(paths[0], main, mtime); err != nil {
		return nil, err
	}
	for _, p := range plats {
		files, err := platformPackage(p, meta.Version, bins[p], launcher)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(out, tarballName(p.Name(), meta.Version))
		if err := writeTarball(path, files, mtime); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// tarballName is the name npm pack gives a package's tarball.
func tarballName(pkg, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(pkg, "@"), "/", "-") + "-" + version + ".tgz"
}

// file is one file of a package: its path under package/, its bytes and
// whether it is executable.
type file struct {
	name string
	data []byte
	exec bool
}

const repository = "https://github.com/intenthook/intenthook"

func mainPackage(src, version string, plats []Platform, launcher []byte) ([]file, error) {
	install, err := os.ReadFile(filepath.Join(src, "install.js"))
	if err != nil {
		return nil, err
	}
	optional := map[string]string{}
	bin := map[string]string{}
	for _, p := range plats {
		optional[p.Name()] = version
	}
	for _, b := range Binaries {
		bin[b] = "bin/" + b
	}
	pkg, err := json.MarshalIndent(map[string]any{
		"name":                 "intenthook",
		"version":              version,
		"description":          "Governs AI coding agents' tool calls against declared intents, with a hash-chained ledger (native binaries; no Node process per hook call)",
		"license":              "Apache-2.0",
		"repository":           map[string]string{"type": "git", "url": "git+" + repository + ".git"},
		"homepage":             repository + "/blob/main/docs/install.md",
		"bin":                  bin,
		"scripts":              map[string]string{"postinstall": "node install.js"},
		"optionalDependencies": optional,
		"engines":              map[string]string{"node": ">=16"},
	}, "", "  ")
	if err != nil {
		return nil, err
	}
	files := []file{
		{name: "package.json", data: append(pkg, '\n')},
		{name: "install.js", data: install},
		{name: "README.md", data: []byte(readme)},
	}
	for _, b := range Binaries {
		files = append(files, file{name: "bin/" + b, data: launcher, exec: true})
	}
	return files, nil
}

const readme = `# intenthook

Native binaries of [intenthook](` + repository + `) for npm: ` + "`npm install --save-dev intenthook`" + `, then
` + "`npx intenthook init`" + ` in your git repository. The hooks ` + "`init`" + ` writes run
` + "`node_modules/intenthook/bin/intenthook`" + ` from the project, which the install step makes
the native binary itself (never npm's ` + "`.bin`" + ` link, which any package's install can
repoint). See [Installing](` + repository + `/blob/main/docs/install.md#npm).
`

// platformPackage is one platform's package: its binaries under bin/, and
// ChecksumsFile, the SHA-256 of each and of the Node launcher the main
// package's bin/ holds until its install step runs, which doctor and
// precommit check the binaries an npm install's hooks run against.
func platformPackage(p Platform, version string, bins map[string]string, launcher []byte) ([]file, error) {
	pkg, err := json.MarshalIndent(map[string]any{
		"name":            p.Name(),
		"version":         version,
		"description":     "intenthook's binaries for " + p.OS + " " + p.CPU + " (installed through the intenthook package)",
		"license":         "Apache-2.0",
		"repository":      map[string]string{"type": "git", "url": "git+" + repository + ".git"},
		"os":              []string{p.OS},
		"cpu":             []string{p.CPU},
		"preferUnplugged": true,
	}, "", "  ")
	if err != nil {
		return nil, err
	}
	files := []file{{name: "package.json", data: append(pkg, '\n')}}
	sums := map[string][]byte{LauncherName: launcher}
	for _, b := range Binaries {
		path, ok := bins[b]
		if !ok {
			return nil, fmt.Errorf("no %s binary for %s in dist/artifacts.json", b, p.Name())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		name := b
		if p.OS == "win32" {
			name += ".exe"
		}
		files = append(files, file{name: "bin/" + name, data: data, exec: true})
		sums[name] = data
	}
	return append(files, file{name: ChecksumsFile, data: checksums(sums)}), nil
}

// writeTarball writes files as npm pack would: a gzipped tar with every
// path under package/.
func writeTarball(path string, files []file, mtime time.Time) error {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		mode := int64(0o644)
		if f.exec {
			mode = 0o755
		}
		hdr := &tar.Header{Name: "package/" + f.name, Mode: mode, Size: int64(len(f.data)), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w (run make dist)", path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// HostTarballs returns the tarballs of dist/npm/ this system installs: the
// main package's and this platform's, of dist/'s version.
func HostTarballs(dist, goos, goarch string) ([]string, error) {
	var meta metadata
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		return nil, err
	}
	p, ok := platform(goos, goarch)
	if !ok {
		return nil, fmt.Errorf("no npm package for %s/%s", goos, goarch)
	}
	paths := []string{
		filepath.Join(dist, "npm", tarballName("intenthook", meta.Version)),
		filepath.Join(dist, "npm", tarballName(p.Name(), meta.Version)),
	}
	for _, path := range paths {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("%w (run make dist)", err)
		}
	}
	return paths, nil
}
