package described

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/codec"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/osfile"
)

// Dir is where a workspace's own descriptions live, one NAME.json each.
const Dir = ".orchestration/agents"

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

// Load reads and parses the workspace's description of name under root.
// It is parsed on every call, never served from a cache: a cache is a file
// a program can write between an agent's commands, and an entry believed
// because it agreed with the file's text somewhere (the word "read" in
// another tool's class) turned a write tool into a read. Only the
// description's own parse says what it holds (see Parse for its cost).
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
	d, err := Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if d.Name != name {
		return nil, fmt.Errorf("%s: names the agent %q: the file's name and the description's must agree", rel, d.Name)
	}
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

// encode is the binary form of d, from which a hook decodes a shipped
// description (rows.go).
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

// decode reads encode's form of a description.
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

// NameOf names the workspace description at the root-relative rel, if it
// is one (.orchestration/agents/NAME.json).
func NameOf(rel string) (string, bool) {
	name, ok := strings.CutPrefix(rel, Dir+"/")
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, ".json")
	return name, ok && validName(name)
}
