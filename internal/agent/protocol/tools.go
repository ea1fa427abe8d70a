package protocol

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/jsontext"
	"github.com/intenthook/intenthook/internal/patch"
)

// Tool says how to read one of an agent's tools: its class, and the input
// fields that name its files, its command or its new text.
type Tool struct {
	Class hook.Class
	// Path lists input keys that may name the file, first non-empty wins.
	Path []string
	// Paths is an input key holding a list of files (each a target).
	Paths string
	// Each lists input keys that each name a target (a move's source and
	// destination).
	Each []string
	// Patch is an input key holding a patch in the "*** Begin Patch"
	// envelope; PatchInput means the input itself is the patch string.
	Patch      string
	PatchInput bool
	// Command is the shell command's key ("command" when empty).
	Command string
	// Unsandbox is the key of a flag asking the agent to run the command
	// outside its OS sandbox.
	Unsandbox string
	// Dir is the key of the directory a shell command runs in, relative to
	// the event's cwd when not absolute.
	Dir string
	// NewStrings lists keys holding the text an edit puts in (for ranges).
	NewStrings []string
	// WholeFile marks a tool that writes the whole file.
	WholeFile bool
}

// Tools is an agent's tool table, by the names its events carry. It is a
// list, written as data in the agent's package: the compiler lays it out,
// where a map would be built on every start of a hook.
type Tools []NamedTool

// NamedTool is one entry of a tool table.
type NamedTool struct {
	Name string
	Tool Tool
}

// Lookup returns the tool named name.
func (ts Tools) Lookup(name string) (Tool, bool) {
	for _, t := range ts {
		if t.Name == name {
			return t.Tool, true
		}
	}
	return Tool{}, false
}

// Classify returns the class of a tool the table does not know: the
// selection tool of intenthook's own MCP server under any server name;
// another MCP server's tool that writes no file is exempt (allowed and not
// recorded: the shipped matchers send every mcp__ call to the hooks, for
// the write tools, and an issue tracker's create_issue is not a change to
// the repository); else unclassified (allowed and not recorded before the
// fact, SPEC §4). The MCP write tools are read by MCPTool before this is
// asked.
func Classify(name string) hook.Class {
	if name == "select_active_intent" || (strings.HasPrefix(name, "mcp__") && strings.HasSuffix(name, "__select_active_intent")) {
		return hook.ClassSelect
	}
	if name == "submit_for_review" || (strings.HasPrefix(name, "mcp__") && strings.HasSuffix(name, "__submit_for_review")) {
		return hook.ClassSubmit
	}
	if _, ok := MCPToolName(name); ok {
		return hook.ClassExempt
	}
	return hook.ClassUnclassified
}

// Fill sets c's class and what its tool's input names, by the table entry
// for c.ToolName. A write or delete tool whose files cannot be found is
// marked Unparsed: the gate never lets an unknown target pass.
func (ts Tools) Fill(c *hook.Call, input json.RawMessage) {
	c.Input = input
	t, known := ts.Lookup(c.ToolName)
	if !known {
		t, known = MCPTool(c.ToolName)
	}
	if _, mcp := MCPToolName(c.ToolName); mcp {
		// An MCP server reads ~ as the home directory (the reference filesystem
		// server does): a path ~/.zshrc is not the project's ./~/.zshrc.
		defer func() {
			for i, p := range c.Paths {
				c.Paths[i] = ExpandHome(p)
			}
		}()
	}
	if !known {
		c.Class = Classify(c.ToolName)
	} else {
		c.Class = t.Class
	}
	in := AsObject(input)
	c.IntentID = in.Str("intent_id")
	c.MutationClass = in.Str("mutation_class")
	if c.Class == hook.ClassSelect {
		c.Reasoning = in.Str("reasoning")
	}
	if !known {
		if c.Class == hook.ClassExempt {
			// Another MCP server's tool: the files it names, if any, are
			// attributed to it afterwards (never judged).
			c.Paths, _ = InputPaths(in)
		}
		return
	}
	switch t.Class {
	case hook.ClassShell:
		key := t.Command
		if key == "" {
			key = "command"
		}
		c.Command = in.Str(key)
		if t.Unsandbox != "" {
			c.Unsandboxed, _ = in.Bool(t.Unsandbox)
		}
		if dir := in.Str(t.Dir); t.Dir != "" && dir != "" {
			c.Cwd = joinDir(c.Cwd, NativePath(dir))
		}
		return
	case hook.ClassRead:
		if p := in.Str(t.Path...); p != "" {
			c.Paths = []string{NativePath(p)}
		}
		return
	case hook.ClassWrite, hook.ClassDelete:
	default:
		return
	}
	c.WholeFile = t.WholeFile
	for _, k := range t.NewStrings {
		if s, ok := in.StrOK(k); ok {
			c.NewStrings = append(c.NewStrings, s)
		}
	}
	if t.Patch != "" || t.PatchInput {
		text, ok := in.StrOK(t.Patch)
		if t.PatchInput {
			text, ok = String(input)
		}
		c.Paths, c.Unparsed = patchPaths(text, ok)
		return
	}
	if p := in.Str(t.Path...); p != "" {
		c.Paths = append(c.Paths, NativePath(p))
	}
	for _, p := range in.Strs(t.Paths) {
		if p != "" {
			c.Paths = append(c.Paths, NativePath(p))
		}
	}
	for _, k := range t.Each {
		if p := in.Str(k); p != "" {
			c.Paths = append(c.Paths, NativePath(p))
		}
	}
	if len(c.Paths) == 0 {
		c.Unparsed = "the tool's input names no file"
	}
}

// PathKeys are the input keys that may name a tool's file when intenthook
// reads a tool by configuration (config.yaml's tools:) or does not know it
// (another MCP server's tool): one list for both.
var PathKeys = []string{"file_path", "path", "target_file", "notebook_path", "relative_path"}

// PathListKey holds a list of files; PatchKeys may hold a patch's text.
const PathListKey = "paths"

var PatchKeys = []string{"patch", "input", "patchText", "patch_text"}

// InputPaths reads the files a tool's input names by PathKeys, PathListKey
// and patch text in PatchKeys, or why a patch it holds names none.
func InputPaths(in Object) (paths []string, unparsed string) {
	for _, k := range PathKeys {
		if p := in.Str(k); p != "" {
			paths = append(paths, NativePath(p))
		}
	}
	for _, p := range in.Strs(PathListKey) {
		if p != "" {
			paths = append(paths, NativePath(p))
		}
	}
	for _, k := range PatchKeys {
		text, ok := in.StrOK(k)
		if !ok || !strings.Contains(text, "*** Begin Patch") {
			continue
		}
		ps, why := patchPaths(text, true)
		if why != "" {
			unparsed = why
		}
		paths = append(paths, ps...)
	}
	return paths, unparsed
}

// Override gives c the class config.yaml's tools: map names for its tool
// and reads its input again for that class, by the shared key lists: a
// tool the agent's table does not know (or knows as another class) is
// judged like any tool of the class. A class equal to the table's keeps
// the table's reading and adds what the shared keys name: a person who maps
// a tool means its files to be read wherever its input puts them.
func Override(c *hook.Call, tools map[string]string) {
	class, ok := tools[c.ToolName]
	if !ok {
		return
	}
	if hook.Class(class) == c.Class {
		widen(c)
		return
	}
	c.Class = hook.Class(class)
	c.Paths, c.Unparsed, c.Command, c.NewStrings, c.WholeFile = nil, "", "", nil, false
	in := AsObject(c.Input)
	switch c.Class {
	case hook.ClassShell:
		c.Command = in.Str("command", "cmd")
	case hook.ClassRead:
		c.Paths, _ = InputPaths(in)
	case hook.ClassWrite, hook.ClassDelete:
		c.Paths, c.Unparsed = InputPaths(in)
		if len(c.Paths) == 0 && c.Unparsed == "" {
			c.Unparsed = "the tool's input names no file (" + strings.Join(append(append([]string{}, PathKeys...), PathListKey), ", ") + ", or a patch)"
		}
	}
}

// widen adds to a call the table read the files (or the command) that the
// shared keys name in its input. A table's reading that found no file is
// replaced by theirs, why included; one that found files keeps its own why.
func widen(c *hook.Call) {
	in := AsObject(c.Input)
	switch c.Class {
	case hook.ClassShell:
		if c.Command == "" {
			c.Command = in.Str("command", "cmd")
		}
	case hook.ClassRead, hook.ClassWrite, hook.ClassDelete:
		paths, unparsed := InputPaths(in)
		if len(paths) == 0 {
			return
		}
		if len(c.Paths) == 0 {
			c.Paths, c.Unparsed = paths, unparsed
			return
		}
		for _, p := range paths {
			if !slices.Contains(c.Paths, p) {
				c.Paths = append(c.Paths, p)
			}
		}
	}
}

// patchPaths returns the files a patch names, or why it names none.
func patchPaths(text string, ok bool) ([]string, string) {
	if !ok {
		return nil, "the tool's input holds no patch text"
	}
	paths, err := patch.Paths(text)
	if err != nil {
		return nil, err.Error()
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = NativePath(p)
	}
	return out, ""
}

func joinDir(cwd, dir string) string {
	if filepath.IsAbs(dir) || cwd == "" {
		return dir
	}
	return filepath.Join(cwd, dir)
}

// PatchPaths returns the files a patch text names, or why it names none.
func PatchPaths(text string) ([]string, string) { return patchPaths(text, true) }

// Hunks reads Claude Code's structuredPatch: each hunk's place in the new
// file and, from its lines (" " context, "-" removed, "+" added), the runs
// of lines the edit put in. ok is false when raw is not a list, or a hunk is
// not an object or has a field of the wrong type; a hunk without newStart
// or newLines is skipped. (Read field by field: decoding into a struct type
// costs a new process a fifth of a millisecond the first time.)
func Hunks(raw json.RawMessage) ([]hook.Hunk, bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	items, ok := list(raw)
	if !ok {
		return nil, false
	}
	var out []hook.Hunk
	for _, item := range items {
		if isNull(item) {
			continue
		}
		h := AsObject(item)
		if h == nil || bytes.TrimSpace(item)[0] != '{' {
			return nil, false
		}
		start, okStart, bad1 := h.intField("newStart")
		count, okCount, bad2 := h.intField("newLines")
		var lines []string
		badLines := false
		if !isNull(h["lines"]) {
			lines, ok = stringList(h["lines"])
			badLines = !ok
		}
		if bad1 || bad2 || badLines {
			return nil, false
		}
		if !okStart || !okCount {
			continue
		}
		hk := hook.Hunk{NewStart: start, NewLines: count}
		if lines != nil {
			hk.HasLines = true
			hk.Added = addedRuns(start, lines)
		}
		out = append(out, hk)
	}
	return out, true
}

// intField reads key as an integer: ok when it is one, bad when it is
// present and not null but not an integer either.
func (o Object) intField(key string) (v int, ok, bad bool) {
	raw := o[key]
	if isNull(raw) {
		return 0, false, false
	}
	// As json.Unmarshal into an int: a JSON number ParseInt takes whole.
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 0)
	if err != nil || !jsontext.Valid(raw) {
		return 0, false, true
	}
	return int(n), true, false
}

// stringList decodes raw as json.Unmarshal into a []string would: a null
// element reads as "", an element of another type fails it.
func stringList(raw []byte) ([]string, bool) {
	items, ok := list(raw)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, item := range items {
		s, ok := "", isNull(item)
		if !ok {
			s, ok = String(item)
		}
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// addedRuns walks a hunk's lines from the new file's line start: a context
// line takes a new-file line and ends a run, an added line takes one and
// extends the run, a removed line takes none (so "+a -b +c" is one run of
// two lines), and "\ No newline at end of file" takes none.
func addedRuns(start int, lines []string) []hook.LineRun {
	var runs []hook.LineRun
	line, open := start, false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "+"):
			if open {
				runs[len(runs)-1].Last = line
			} else {
				runs = append(runs, hook.LineRun{First: line, Last: line})
				open = true
			}
			line++
		case strings.HasPrefix(l, "-"), strings.HasPrefix(l, `\`):
		default:
			line++
			open = false
		}
	}
	return runs
}
