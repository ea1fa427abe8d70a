package gate

import (
	"context"
	"fmt"
	"os"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intentmap"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/patch"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Post runs the PostToolUse pipeline (SPEC §7.1): it records what the call
// changed, with the intent fixed at PreToolUse for the same tool_use_id.
func (g *Gate) Post(ctx context.Context) (hook.Decision, error) {
	defer renewClaim(g)
	pending, hasPending := g.Sessions.GetPending(g.call.SessionID, g.call.ToolUseID)
	if hasPending {
		defer func() { g.note(g.Sessions.DonePending(ctx, g.call.SessionID, g.call.ToolUseID, g.env.now())) }()
	}
	// A command is judged by the rules it started under: what it did to
	// them is undone before anything (the tool's class first) is read from
	// them.
	var guarded hook.Decision
	if pending.Guard != nil {
		guarded, _ = g.guardCheck(ctx, pending.IntentID, pending.Guard)
		pending.Guard = nil
	}
	if pending.PluginDeny {
		if d := (plugins{g}).pluginAbsent(ctx, pending.IntentID); d.Violation {
			if guarded.Violation {
				d.Message += "\n\n" + guarded.Message
			}
			guarded = d
		}
	}
	g.applyTools()
	class := g.class()
	g.explain.step("classify", string(class), "tool="+g.call.ToolName)
	intentID := pending.IntentID
	if intentID == "" {
		intentID, _ = g.activeIntent()
	}
	g.explain.step("intent", "found", hook.Ev("intent", intentID), fmt.Sprintf("pending=%v", hasPending))
	var d hook.Decision
	var err error
	switch class {
	case hook.ClassRead:
		err = g.postRead(ctx)
	case hook.ClassWrite, hook.ClassDelete:
		d, err = g.postWrite(ctx, class, intentID, pending)
	case hook.ClassShell:
		d, err = g.postShell(ctx, intentID, pending)
	case hook.ClassUnclassified:
		err = g.postOther(ctx, intentID)
	case hook.ClassExempt:
		if len(g.call.Paths) > 0 {
			attributed{g}.postAttributed(ctx, intentID, pending, hasPending)
			break
		}
		g.explain.step("decide", "skip", "nothing to record")
	case hook.ClassSelect, hook.ClassSubmit:
		g.explain.step("decide", "skip", "nothing to record")
	}
	g.rememberModel(ctx)
	if guarded.Violation {
		if d.Violation {
			guarded.Message += "\n\n" + d.Message
		}
		guarded.Notes = append(guarded.Notes, d.Notes...)
		d = guarded
	}
	return budgets{g}.noteOnce(ctx, d), err
}

// postRead records what this session/agent saw, for the stale check.
func (g *Gate) postRead(ctx context.Context) error {
	seen := g.currentHashes(g.call.Paths)
	if len(seen) == 0 || g.call.Failed {
		return nil
	}
	return g.recordSeen(ctx, seen)
}

// change is one file a call changed, as the ledger and the map see it.
type change struct {
	rel, pre, post, class, scope string
	content                      []byte
}

// postWrite records each path of a write or delete tool.
func (g *Gate) postWrite(ctx context.Context, class hook.Class, intentID string, pending state.Pending) (hook.Decision, error) {
	var d hook.Decision
	var changes []change
	for _, p := range g.call.Paths {
		res := g.resolver.Resolve(p)
		if res.Place != workspace.Inside {
			g.explain.step("record", "skip", hook.Ev("path", res.Abs), "(outside the root)")
			continue
		}
		c, err := g.observe(res, pending)
		if err != nil {
			return d, err
		}
		c.class = ledger.Classify(g.call.WholeFile, c.rel, c.pre, c.post, class == hook.ClassDelete, g.call.Failed, g.call.MutationClass)
		if !g.call.Failed && c.pre != "" && c.pre == c.post {
			d.Notes = append(d.Notes, fmt.Sprintf("intenthook: warning: %s did not change %s (no-op write)", g.call.ToolName, c.rel))
		}
		changes = append(changes, c)
	}
	if len(changes) == 0 {
		return d, nil
	}
	return d, g.commit(ctx, intentID, changes)
}

// observe reads a changed file's before and after.
func (g *Gate) observe(res workspace.Resolved, pending state.Pending) (change, error) {
	c := change{rel: res.Rel, scope: pending.Scope[res.Rel]}
	if _, pre := pending.PreHash[res.Rel]; pre && c.scope == "" {
		c.scope = ledger.ScopePass
	}
	if c.scope == "" {
		c.scope = g.scopeOf(res.Rel, pending.IntentID)
	}
	content, err := osfile.ReadFile(res.Abs)
	switch {
	case err == nil:
		c.content, c.post = content, digest.Bytes(content)
	case !os.IsNotExist(err):
		return c, fmt.Errorf("read %s: %w", res.Rel, err)
	}
	if pre, ok := pending.PreHash[res.Rel]; ok {
		c.pre = pre
		if g.call.PatchAhead != "" && c.post == pre {
			relOf := func(p string) string { return g.resolver.Resolve(protocol.NativePath(p)).Rel }
			ok, err := patchAhead(&c, g.call.PatchAhead, content, relOf)
			switch {
			case err != nil:
				g.note(fmt.Errorf("%s's after-event came before %s was written, and its patch does not apply to the file (%v): recorded as the file is on disk", g.call.ToolName, c.rel, err))
			case ok:
				g.explain.step("record", "patch", hook.Ev("path", c.rel), "the file still holds what pre saw: its content is the patch's")
			}
		}
	} else if g.call.OriginalFile != nil {
		c.pre = digest.String(*g.call.OriginalFile)
	}
	return c, nil
}

// patchAhead gives c, a file that still holds what pre saw (old), the
// content the call's patch text gives it: the agent sent its after-event
// before it wrote the file (VS Code's apply_patch), and the disk would
// record the write as a no-op and the file as seen before the write, so
// that the session's next edit of it would be refused as stale. relOf
// places a path the patch names. ok is false, and c unchanged, when the
// patch does not name the file as one it computes (a move's destination
// holds the source's content); err says why a patch that names it does
// not apply, and the record is then left to the disk.
func patchAhead(c *change, text string, old []byte, relOf func(string) string) (ok bool, err error) {
	sections, err := patch.Sections(text)
	if err != nil {
		return false, nil
	}
	for _, s := range sections {
		if s.MoveTo != "" && relOf(s.MoveTo) == c.rel {
			return false, nil
		}
		if relOf(s.Path) != c.rel {
			continue
		}
		next, err := s.Apply(old)
		if err != nil {
			return false, err
		}
		c.content, c.post = next, ""
		if s.Op != patch.Delete {
			c.post = digest.Bytes(next)
		}
		return true, nil
	}
	return false, nil
}

// scopeOf judges a path that has no PreToolUse verdict stored (its pre hook
// did not run): ignored, inside the intent's scope, or not.
func (g *Gate) scopeOf(rel, intentID string) string {
	if g.Ignore.Match(rel, false) {
		return ledger.ScopeIgnored
	}
	if intentID == "" {
		intentID, _ = g.activeIntent()
	}
	in := g.Catalog.Find(intentID)
	if in == nil {
		return ledger.ScopeFail
	}
	if _, ok := in.Match(rel); ok {
		return ledger.ScopePass
	}
	return ledger.ScopeFail
}

// commit appends one record per change, refreshes the session's recorded
// hashes and updates the intent map.
func (g *Gate) commit(ctx context.Context, intentID string, changes []change) error {
	var recs []*ledger.Record
	var mapChanges []intentmap.Change
	name := ""
	if in := g.Catalog.Find(intentID); in != nil {
		name = in.Name
	}
	for _, c := range changes {
		r := g.record(g.event(), intentID)
		m := &r.Metadata.Intenthook
		m.MutationClass, m.PreHash, m.PostHash = c.class, ledger.NullString(c.pre), ledger.NullString(c.post)
		m.ScopeValidation, m.Decision = c.scope, "allow"
		rs := ranges(g.call, c.content)
		if g.call.Failed {
			// A failed call changed nothing: whatever the file holds now is
			// someone else's doing, not this call's.
			m.Success, m.Error, m.PostHash, rs = false, ledger.NullString(orDefault(g.call.Error, "tool failed")), "", nil
		}
		r.Files = []ledger.File{g.fileEntry(c.rel, rs, intentID)}
		recs = append(recs, r)
		g.explain.step("record", c.class, hook.Ev("path", c.rel), hook.Ev("pre", c.pre), hook.Ev("post", c.post), hook.Ev("scope", c.scope))
		if g.call.Failed || intentID == "" || c.scope == ledger.ScopeIgnored || c.class == ledger.Revert {
			continue
		}
		mc := intentmap.Change{IntentID: intentID, IntentName: name, Path: c.rel, Kind: intentmap.Added, Class: c.class, Time: g.env.now()}
		switch c.class {
		case ledger.FileDeletion:
			mc.Kind = intentmap.Removed
		case ledger.IntentEvolution:
			mc.Kind = intentmap.Evolved
		}
		mapChanges = append(mapChanges, mc)
	}
	// The records first: they are spooled rather than lost when the ledger
	// is busy, and must not wait on the session's state. A failed call's
	// file was not written by this agent, so what it holds now is not what
	// the agent saw: the recorded hashes stay as they were.
	g.note(g.appendRecords(ctx, recs...))
	if !g.call.Failed {
		written := make(map[string]string, len(changes))
		for _, c := range changes {
			written[c.rel] = c.post
		}
		g.note(g.recordSeen(ctx, written))
	}
	if g.call.Failed {
		for _, c := range changes {
			g.note(g.lesson(ctx, "tool_failure", intentID, c.rel, orDefault(g.call.Error, "tool failed")))
		}
	}
	if len(mapChanges) > 0 {
		g.note(intentmap.Apply(ctx, g.Root, g.Config.LockTimeout, mapChanges...))
	}
	return nil
}

func (g *Gate) event() string {
	if g.call.Failed && g.call.Event == hook.PostToolUseFailure {
		return ledger.EventPostToolUseFailure
	}
	return ledger.EventPostToolUse
}

// postOther gives an unclassified tool (an MCP tool, a custom tool) one
// CONFIGURATION record without files.
func (g *Gate) postOther(ctx context.Context, intentID string) error {
	r := g.record(g.event(), intentID)
	m := &r.Metadata.Intenthook
	m.MutationClass, m.ScopeValidation, m.Decision = ledger.Configuration, ledger.ScopeExempt, "allow"
	g.failed(ctx, m, intentID)
	g.note(g.appendRecords(ctx, r))
	return nil
}

// failed marks a record of a failed call and records the lesson.
func (g *Gate) failed(ctx context.Context, m *ledger.Meta, intentID string) {
	if !g.call.Failed {
		return
	}
	msg := orDefault(g.call.Error, "tool failed")
	m.Success, m.Error = false, ledger.NullString(msg)
	g.note(g.lesson(ctx, "tool_failure", intentID, "", msg))
}

// currentHashes hashes the governed files among paths, by root-relative path.
func (g *Gate) currentHashes(paths []string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		res := g.resolver.Resolve(p)
		if res.Place != workspace.Inside {
			continue
		}
		h, err := digest.File(res.Abs)
		if err != nil || h == "" {
			continue
		}
		out[res.Rel] = h
		g.explain.step("hash", "recorded", hook.Ev("path", res.Rel), hook.Ev("hash", h))
	}
	return out
}
