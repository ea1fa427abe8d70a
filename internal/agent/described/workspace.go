package described

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/codec"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// Dir is where a workspace's own descriptions live, one NAME.json each.
const Dir = ".orchestration/agents"

// CacheFile is the descriptions as the hooks read them: each parsed
// description, keyed by the sha256 of its file's bytes.
const CacheFile = ".orchestration/state/agents.cache"

// cacheMagic names the cache's format; a change of the encoded shape
// changes it, so an older binary's cache is rebuilt, not misread.
const cacheMagic = "intenthook-agents-cache/4\n"

// ErrNotDescribed is Load's error when the workspace has no description
// of that name (a constant: errors.New would run at every hook's start).
const ErrNotDescribed = notDescribed("no description")

type notDescribed string

func (e notDescribed) Error() string { return string(e) }

// Rows are the governance rows of a workspace description the hook of that
// agent reads: its file, watched whole by the guard during the agent's own
// commands (the table's row for Dir covers every description otherwise).
func Rows(name string) governed.Table {
	return governed.Table{{Path: Dir + "/" + name + ".json", Use: governed.Protected | governed.Guarded | governed.ReadOnly | governed.Sidecar | governed.Listed, Watch: governed.Whole,
		Reason: "this agent's description: how its events are read (a write tool mapped to read would widen every scope)"}}
}

// Load reads the workspace's description of name under root through the
// cache: a hit whose key is the file's digest, and whose tools agree with
// the file's text, skips the parse; a miss parses and rewrites the cache.
// A cache that cannot be read or written only costs a parse.
func Load(root, name string) (*Description, error) {
	if !validName(name) {
		return nil, fmt.Errorf("%w: %q is not an agent name", ErrNotDescribed, name)
	}
	rel := Dir + "/" + name + ".json"
	path := filepath.Join(root, filepath.FromSlash(rel))
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotDescribed, rel)
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		// A link (to /dev/null, to a file under an agent's scope), a FIFO:
		// only a file of its own is a description.
		return nil, fmt.Errorf("%s is not a regular file (%s)", rel, st.Mode().Type())
	}
	src, err := osfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(src)
	key := hex.EncodeToString(sum[:])
	cachePath := filepath.Join(root, filepath.FromSlash(CacheFile))
	cache, _ := osfile.ReadFile(cachePath)
	entries := readCache(cache)
	if enc, ok := entries[name]; ok && strings.HasPrefix(enc, key+"\n") {
		if d, err := decode([]byte(enc[len(key)+1:])); err == nil && d.Name == name && agrees(src, d) {
			return d, nil
		}
	}
	d, err := Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if d.Name != name {
		return nil, fmt.Errorf("%s: names the agent %q: the file's name and the description's must agree", rel, d.Name)
	}
	entries[name] = key + "\n" + string(encode(d))
	writeCache(root, cachePath, entries)
	return d, nil
}

// List returns the names of the workspace's descriptions.
func List(root string) []string {
	entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(Dir)))
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() && validName(name) {
			out = append(out, name)
		}
	}
	return out
}

// agrees checks a cached description against the text it claims to come
// from: its name, each tool's name and class, and each of a tool's path
// and command keys must be there, quoted. A cache built from the file
// always agrees; one written elsewhere to turn a write tool into a read
// does not (the file does not hold "read" next to it... or at all).
func agrees(src []byte, d *Description) bool {
	has := func(s string) bool { return bytes.Contains(src, []byte(strconv.Quote(s))) }
	if !has(d.Name) {
		return false
	}
	for _, t := range d.Tools {
		if !has(t.Name) || !has(string(t.Tool.Class)) {
			return false
		}
		for _, k := range t.Tool.Path {
			if !has(k) {
				return false
			}
		}
		if t.Tool.Class == hook.ClassShell && t.Tool.Command != "command" && !has(t.Tool.Command) {
			return false
		}
	}
	return true
}

// readCache splits the cache into its entries by name: each entry is a
// line "<name> <length>" and then length bytes, "<key>\n<encoding>".
func readCache(b []byte) map[string]string {
	out := map[string]string{}
	if !bytes.HasPrefix(b, []byte(cacheMagic)) {
		return out
	}
	b = b[len(cacheMagic):]
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		name, n, ok := strings.Cut(string(b[:i]), " ")
		size, err := strconv.Atoi(n)
		if !ok || err != nil || size < 0 || i+1+size > len(b) {
			break
		}
		out[name] = string(b[i+1 : i+1+size])
		b = b[i+1+size:]
	}
	return out
}

func writeCache(root, path string, entries map[string]string) {
	if state.Ensure(root) != nil {
		return
	}
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString(cacheMagic)
	for _, n := range names {
		fmt.Fprintf(&b, "%s %d\n%s", n, len(entries[n]), entries[n])
	}
	guard.Journal(root, CacheFile, b.Bytes())
	_ = state.WriteFile(path, b.Bytes(), 0o644, false)
}

// encode is the cache's form of d.
func encode(d *Description) []byte {
	e := &codec.Encoder{}
	for _, s := range []string{d.Name, d.Title, d.Verified, d.Answer, d.Sandbox, d.Process, d.GradeNote} {
		e.Str(s)
	}
	e.Bool(d.NoAsk)
	e.Strs(d.ProjectDirEnv)
	e.Strs(d.ShellMarkers)
	e.Strs(d.Notes)
	s := d.Settings
	for _, v := range []string{s.Project, s.User, s.Shape, s.Matcher, s.TimeoutKey, string(s.New)} {
		e.Str(v)
	}
	e.Int(int64(s.Timeout))
	e.Bool(s.Root)
	e.Strs(s.Keys)
	e.Strs(s.Switches)
	e.List(len(s.Handler), false)
	for _, f := range s.Handler {
		e.Str(f.Key)
		switch v := f.Value.(type) {
		case string:
			e.Uint(0)
			e.Str(v)
		case bool:
			e.Uint(1)
			e.Bool(v)
		default:
			e.Uint(2)
			e.Str(fmt.Sprint(v))
		}
	}
	e.StrMap(d.Events)
	e.List(len(d.Input), false)
	for _, k := range sortedStrKeys(d.Input) {
		e.Str(k)
		e.Strs(d.Input[k])
	}
	e.List(len(d.Tools), false)
	for _, t := range d.Tools {
		e.Str(t.Name)
		tt := t.Tool
		for _, v := range []string{string(tt.Class), tt.Paths, tt.Patch, tt.Command, tt.Unsandbox, tt.Dir} {
			e.Str(v)
		}
		e.Strs(tt.Path)
		e.Strs(tt.Each)
		e.Strs(tt.NewStrings)
		e.Bool(tt.PatchInput)
		e.Bool(tt.WholeFile)
		e.Uint(uint64(len(t.ReadIf)))
		for _, k := range sortedStrKeys(t.ReadIf) {
			e.Str(k)
			e.Strs(t.ReadIf[k])
		}
	}
	return e.B
}

// decode reads the cache's form of a description.
func decode(b []byte) (*Description, error) {
	dec := &codec.Decoder{B: b}
	d := &Description{}
	for _, s := range []*string{&d.Name, &d.Title, &d.Verified, &d.Answer, &d.Sandbox, &d.Process, &d.GradeNote} {
		*s = dec.Str()
	}
	d.NoAsk = dec.Bool()
	d.ProjectDirEnv, d.ShellMarkers, d.Notes = dec.Strs(), dec.Strs(), dec.Strs()
	s := &d.Settings
	var newDoc string
	for _, v := range []*string{&s.Project, &s.User, &s.Shape, &s.Matcher, &s.TimeoutKey, &newDoc} {
		*v = dec.Str()
	}
	if newDoc != "" {
		s.New = []byte(newDoc)
	}
	s.Timeout = int(dec.Int())
	s.Root = dec.Bool()
	s.Keys = dec.Strs()
	s.Switches = dec.Strs()
	for n := dec.List(); n > 0 && dec.Err == nil; n-- {
		f := protocol.Field{Key: dec.Str()}
		switch dec.Uint() {
		case 0:
			f.Value = dec.Str()
		case 1:
			f.Value = dec.Bool()
		default:
			f.Value = jsonNumber(dec.Str())
		}
		s.Handler = append(s.Handler, f)
	}
	d.Events = dec.StrMap()
	d.Input = map[string][]string{}
	for n := dec.List(); n > 0 && dec.Err == nil; n-- {
		k := dec.Str()
		d.Input[k] = dec.Strs()
	}
	for n := dec.List(); n > 0 && dec.Err == nil; n-- {
		t := NamedTool{Name: dec.Str()}
		tt := &t.Tool
		var class string
		for _, v := range []*string{&class, &tt.Paths, &tt.Patch, &tt.Command, &tt.Unsandbox, &tt.Dir} {
			*v = dec.Str()
		}
		tt.Class = hook.Class(class)
		tt.Path, tt.Each, tt.NewStrings = dec.Strs(), dec.Strs(), dec.Strs()
		tt.PatchInput, tt.WholeFile = dec.Bool(), dec.Bool()
		if n := dec.Uint(); n > 0 && n <= uint64(len(dec.B)) {
			t.ReadIf = map[string][]string{}
			for ; n > 0 && dec.Err == nil; n-- {
				k := dec.Str()
				t.ReadIf[k] = dec.Strs()
			}
		}
		d.Tools = append(d.Tools, t)
	}
	if dec.Err != nil {
		return nil, dec.Err
	}
	if d.Events == nil || d.Events[RolePre] == "" {
		return nil, errors.New("cached description without a pre event")
	}
	return d, nil
}

func sortedStrKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
