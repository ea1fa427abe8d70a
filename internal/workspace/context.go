package workspace

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/intentctx"
	"github.com/intenthook/intenthook/internal/intentmap"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// TraceWindow is how much of the ledger's end the context reads for the
// intent's recent records: never the whole ledger.
const TraceWindow = 1 << 20

// RecentDir, under state/, holds a memo for each intent of where its last
// changes are in the ledger and how far the search for them went
// (ledger.RecentMentions): a context searches only what was appended since.
const RecentDir = "recent"

// allowed is how an allowed call's record says so, and noFiles how a
// record that changed no file does (ledger's line.go; Agent Trace names
// files at its top level only, and intenthook's metadata the record's
// intent as intent_id).
var allowed, noFiles = []byte(`"decision":"allow"`), []byte(`"files":[]`)

// maxTrace is how many of the intent's recent records the context shows.
const maxTrace = 10

// specRead bounds how much of a related spec file is read; the builder
// keeps at most 2 KB of it.
const specRead = 8 << 10

// IntentContext gathers what an agent should know about in (its related
// files, spec excerpts and recent trace) and renders the <intent_context>
// within budget. warning, when set, is carried at its top; rejected is the
// reason a person gave for rejecting in's last submission, when it waits
// for in's sessions (review.Rejected: the review state is not the
// workspace's to read), "" otherwise.
func (w *Workspace) IntentContext(in *intents.Intent, warning, rejected string, budget int) string {
	files, _ := intentmap.Files(w.Root, in.ID)
	var specs []intentctx.SpecExcerpt
	for _, s := range in.RelatedSpecs {
		if text, ok := w.readSpec(s.Ref); ok {
			specs = append(specs, intentctx.SpecExcerpt{Ref: s.Ref, Text: text})
		}
	}
	var trace []intentctx.TraceEntry
	ownID := append([]byte(`"intent_id":`), strconv.Quote(in.ID)...)
	memo := state.Path(w.Root, RecentDir, state.Key(in.ID))
	lines, _ := ledger.RecentMentions(w.Root, memo, TraceWindow, in.ID, maxTrace, func(line []byte) bool {
		// An allowed change of the intent is told by its bytes, without
		// a parse: its selections, denials and the records of others
		// that name it are most of the lines found, and a session that
		// selects often leaves a MiB of them. The decoded change has the
		// last word.
		return bytes.Contains(line, allowed) && !bytes.Contains(line, noFiles) && bytes.Contains(line, ownID)
	})
	for _, line := range lines {
		c, err := ledger.ParseChange(line)
		// What was changed under the intent: denials and violations
		// name files too, but changed nothing.
		if err != nil || c.Intent != in.ID || len(c.Paths) == 0 || c.Decision != "allow" {
			continue
		}
		trace = append(trace, intentctx.TraceEntry{Time: c.Time, Tool: c.Tool, Path: c.Paths[0], Class: c.Class})
	}
	family := w.family(in, budget/4)
	if family != "" {
		budget -= len(family) + 1
		family += "\n"
	}
	if note := rejection(in, rejected, budget/4); note != "" {
		budget -= len(note)
		family = note + family
	}
	return family + intentctx.Build(intentctx.Inputs{Intent: in, RelatedFiles: files, Specs: specs, Trace: trace, Budget: budget, Warning: warning})
}

// rejection fences reason, a person's rejection of in's last submission,
// as a person's words within max bytes; "" when there is none or no room.
func rejection(in *intents.Intent, reason string, max int) string {
	if reason == "" {
		return ""
	}
	head := "A person rejected the last submission of " + in.ID + "; their reason, in their own words:\n"
	open := `<review_rejection intent="` + intentctx.Text(in.ID) + `" written_by="person">` + "\n"
	const closing = "\n</review_rejection>\n"
	room := max - len(head) - len(open) - len(closing)
	if room < 40 {
		return ""
	}
	return head + open + intentctx.Text(safetext.Clip(reason, room)) + closing
}

// family places a child intent in its tree, in one line each: its parent,
// and its siblings (the parent's other children), within max bytes. An
// intent without a parent has no family lines.
func (w *Workspace) family(in *intents.Intent, max int) string {
	parent := w.Catalog.Find(in.ParentIntent)
	if parent == nil || parent == in {
		return ""
	}
	describe := func(x *intents.Intent) string {
		return fmt.Sprintf("%s %s [%s]", x.ID, safetext.OneLine(x.Name), x.Status)
	}
	var sibs []string
	for _, s := range w.Catalog.Children(parent.ID) {
		if s != in {
			sibs = append(sibs, describe(s))
		}
	}
	sib := "none"
	if len(sibs) > 0 {
		sib = strings.Join(sibs, ", ")
	}
	return safetext.Clip("parent: "+describe(parent)+" owns "+safetext.OneLine(parent.ScopeSummary()), max/2) + "\n" + safetext.Clip("siblings: "+sib, max/2-1)
}

// readSpec reads the start of a related spec that is a file in the
// workspace; URLs and paths leaving the root are not read.
func (w *Workspace) readSpec(ref string) (string, bool) {
	if strings.Contains(ref, "://") || filepath.IsAbs(ref) {
		return "", false
	}
	res := w.Resolver(w.Root).Resolve(filepath.Join(w.Root, filepath.FromSlash(ref)))
	if res.Rel == "" {
		return "", false
	}
	f, err := osfile.Open(res.Abs)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, specRead))
	if err != nil {
		return "", false
	}
	return string(b), true
}
