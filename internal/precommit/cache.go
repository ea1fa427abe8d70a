package precommit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
)

// traceIndex is what precommit remembers of a verified prefix of the ledger,
// per branch, under state/: where the prefix ends, and the newest trace of
// every file in it. The next precommit verifies and indexes only the lines
// that follow, so its cost follows what was appended, not the ledger's
// length. It is a cache: when it is missing, unreadable, or its prefix no
// longer ends in the line it recorded, precommit reads the whole ledger and
// writes it anew.
type traceIndex struct {
	Checkpoint ledger.Checkpoint `json:"checkpoint"`
	Traces     map[string]Trace  `json:"traces"`
	// Attributed holds each file's newest ATTRIBUTED record: a change an
	// MCP tool intenthook does not classify made. Not a trace; it names
	// the tool when the content is otherwise untraced.
	Attributed map[string]Trace `json:"attributed,omitempty"`
	// Tampered are the commits governance_tampered records name: commits
	// an agent's command made that changed the rules.
	Tampered []Tampered `json:"tampered,omitempty"`
	// Version is the index's form: one without it (an older precommit's)
	// did not keep Tampered, and is read again from the start; version 2
	// kept no segment's sealed claim (ledger.SegmentCheckpoint.Sealed).
	Version int `json:"version,omitempty"`
}

// indexVersion is the form of traceIndex this precommit writes.
const indexVersion = 3

// Tampered is a commit an agent's command made that changed governance
// files, as a governance_tampered record names it.
type Tampered struct {
	Commit string   `json:"commit"`
	Seq    int64    `json:"seq"`
	Paths  []string `json:"paths"`
}

// indexPath is the cache file of the branch HEAD names.
func indexPath(root string) string {
	return state.Path(root, "precommit", state.Key(git.HeadRef(root)+"")+".json")
}

func loadIndex(root string) (*traceIndex, bool) {
	data, err := os.ReadFile(indexPath(root))
	if err != nil {
		return nil, false
	}
	var ix traceIndex
	if json.Unmarshal(data, &ix) != nil || ix.Traces == nil || ix.Checkpoint.Empty() || ix.Version != indexVersion {
		return nil, false
	}
	return &ix, true
}

func (ix *traceIndex) save(root string) {
	data, err := json.Marshal(ix)
	if err != nil || state.Ensure(root, "precommit") != nil {
		return
	}
	writeCache(root, indexPath(root), data)
}

// writeCache stores one of precommit's caches and journals it: the guard of
// an agent's shell command takes out a cache file anything else wrote
// meanwhile (a forged one would pass what was never checked). Losing a
// cache costs one full pass.
func writeCache(root, path string, data []byte) {
	if state.WriteFile(path, data, 0o644, false) != nil {
		return
	}
	if rel, err := filepath.Rel(root, path); err == nil {
		guard.Journal(root, filepath.ToSlash(rel), data)
	}
}

// add indexes one line: a successful PostToolUse record naming one file, or
// an older-shape line carrying a post hash, is that file's newest trace.
// Denials, violation notes and failed calls are left out: they say what
// the file held, not that a hooked tool call wrote it.
//
// Lines come in no set order across segments: the newest in the canonical
// order (timestamp, then seq) wins.
func (ix *traceIndex) add(line []byte) {
	if path, t, ok := TraceOf(line); ok {
		if old, had := ix.Traces[path]; had && (old.Stamp > t.Stamp || old.Stamp == t.Stamp && old.Seq > t.Seq) {
			return
		}
		ix.Traces[path] = t
	} else if path, t, ok := AttributedOf(line); ok {
		if ix.Attributed == nil {
			ix.Attributed = map[string]Trace{}
		}
		ix.Attributed[path] = t
	} else if ts := TamperedOf(line); len(ts) > 0 {
		ix.Tampered = append(ix.Tampered, ts...)
	}
}

// TamperedOf reads the commits a governance_tampered record names, each
// with the record's seq and the governance files it put back.
func TamperedOf(line []byte) []Tampered {
	if !bytes.Contains(line, []byte(`"commits":[`)) || !bytes.Contains(line, []byte(`"governance_tampered"`)) {
		return nil
	}
	rec, err := ledger.ParseLine(line)
	if err != nil {
		return nil
	}
	m := &rec.Metadata.Intenthook
	if string(m.Code) != guard.CodeGovernanceTampered {
		return nil
	}
	var out []Tampered
	for _, c := range m.Commits {
		out = append(out, Tampered{Commit: c, Seq: m.Seq, Paths: m.Paths})
	}
	return out
}

// AttributedOf reads an ATTRIBUTED record: the one file an MCP tool
// intenthook does not classify changed, the digest it left and the tool.
func AttributedOf(line []byte) (string, Trace, bool) {
	if !bytes.Contains(line, []byte(`"mutation_class":"`+ledger.Attributed+`"`)) {
		return "", Trace{}, false
	}
	rec, err := ledger.ParseLine(line)
	if err != nil || len(rec.Files) != 1 {
		return "", Trace{}, false
	}
	m := &rec.Metadata.Intenthook
	if m.MutationClass != ledger.Attributed || !m.Success || m.Event != ledger.EventPostToolUse {
		return "", Trace{}, false
	}
	return rec.Files[0].Path, Trace{Seq: m.Seq, PostHash: string(m.PostHash), Tool: m.ToolName}, true
}

// TraceOf reads the trace a ledger line records: the one file a hooked
// tool call wrote and the digest it left. ok is false for any other line
// (denials, violation notes, failed calls). Audit reads history with it.
func TraceOf(line []byte) (string, Trace, bool) {
	path, t, ok := traceOf(line)
	if ok {
		t.Stamp = ledger.Stamp(line)
	}
	return path, t, ok
}

func traceOf(line []byte) (string, Trace, bool) {
	if path, t, ok := fastTrace(line); ok {
		return path, t, true
	}
	if !bytes.Contains(line, []byte(`"post_hash"`)) && !bytes.Contains(line, []byte(`"relative_path"`)) {
		return "", Trace{}, false // no record of a change
	}
	rec, err := ledger.ParseLine(line)
	if err != nil || len(rec.Files) != 1 {
		return "", Trace{}, false
	}
	m := &rec.Metadata.Intenthook
	written := m.Event == ledger.EventPostToolUse || rec.Version == "" && m.PostHash != ""
	if !written || !m.Success || m.MutationClass == ledger.Attributed {
		return "", Trace{}, false
	}
	return rec.Files[0].Path, Trace{Seq: m.Seq, PostHash: string(m.PostHash)}, true
}

// fastTrace reads a trace from a line in intenthook's own shape without
// decoding it: one file, whose path needs no unescaping, a PostToolUse that
// succeeded, and its seq and post hash. ok is false for anything else,
// which add then decodes.
func fastTrace(line []byte) (string, Trace, bool) {
	const files = `"files":[{"path":"`
	i := bytes.Index(line, []byte(files))
	if i < 0 || bytes.Count(line, []byte(`{"path":`)) != 1 || !bytes.Contains(line, []byte(`"event":"PostToolUse"`)) || !bytes.Contains(line, []byte(`"success":true`)) || bytes.Contains(line, []byte(`"mutation_class":"`+ledger.Attributed+`"`)) {
		return "", Trace{}, false
	}
	rest := line[i+len(files):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return "", Trace{}, false
	}
	path := string(rest[:end])
	seq, ok := intAfter(line, `"seq":`)
	if !ok {
		return "", Trace{}, false
	}
	const post = `"post_hash":`
	j := bytes.Index(line, []byte(post))
	if j < 0 {
		return "", Trace{}, false
	}
	v := line[j+len(post):]
	switch {
	case bytes.HasPrefix(v, []byte("null")):
		return path, Trace{Seq: seq}, true
	case len(v) > 0 && v[0] == '"':
		e := bytes.IndexByte(v[1:], '"')
		if e < 0 {
			return "", Trace{}, false
		}
		return path, Trace{Seq: seq, PostHash: string(v[1 : 1+e])}, true
	}
	return "", Trace{}, false
}

func intAfter(line []byte, key string) (int64, bool) {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return 0, false
	}
	v := line[i+len(key):]
	j := 0
	for j < len(v) && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(string(v[:j]), 10, 64)
	return n, err == nil
}
