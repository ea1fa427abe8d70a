package gate

import (
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/workspace"
)

// EventProject is the project directory a call's event names, when its
// agent names one there (Junie's project_path): "" when the event lacks
// it, or names a relative path or no directory.
func EventProject(call *hook.Call) string {
	p := call.ProjectDir
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return ""
	}
	return p
}

// ProjectUnknown judges a call, before its tool, of an agent whose event
// names its project (a per-user hook that runs in every project, from the
// agent's own home) when no governed root was found from that project. A
// project outside every governed tree is left alone: its calls are
// allowed, as any agent's are there. What is denied (target_unknown, in
// both fail modes, as a missing field is) is a call intenthook cannot
// place while a governed tree may be its target:
//   - the event names no project (an update of the agent that renamed the
//     field) and the call runs a command that may write, or writes a file
//     by a relative path or into a governed tree;
//   - the project is known and ungoverned, and the call writes a file
//     inside a governed tree (the session is not that tree's: nothing
//     selected an intent there).
//
// Reads, exempt tools and read-only commands pass. ok is false when the
// call is not denied.
func ProjectUnknown(env *Env, call *hook.Call) (hook.Decision, bool) {
	if !call.ProjectFromEvent || call.Event != hook.PreToolUse || env.Root != "" {
		return hook.Decision{}, false
	}
	project := EventProject(call)
	switch call.Class {
	case hook.ClassWrite, hook.ClassDelete:
	case hook.ClassShell:
		if project != "" || shell.Analyse(call.Command, nil).ReadOnly {
			return hook.Decision{}, false
		}
		return projectDenial(call, "", "a command of a session whose project is unknown may write into any governed tree"), true
	default:
		return hook.Decision{}, false
	}
	if call.Unparsed != "" && project == "" {
		return projectDenial(call, "", call.Unparsed), true
	}
	for _, p := range call.Paths {
		native := filepath.FromSlash(p)
		if !filepath.IsAbs(native) {
			if project == "" {
				return projectDenial(call, p, "a relative path cannot be placed without the project"), true
			}
			native = filepath.Join(project, native)
		}
		if root := governedAbove(native); root != "" {
			return projectDenial(call, p, "it lies in the governed tree "+filepath.ToSlash(root)), true
		}
	}
	return hook.Decision{}, false
}

// governedAbove is the governed root of the tree path lies in, by its
// lexical path or by the one its links lead to ("" for none).
func governedAbove(path string) string {
	if root := workspace.Discover([]string{filepath.Dir(path)}); root != "" {
		return root
	}
	// The nearest directory that exists, links followed, with the rest of
	// the path after it: a link elsewhere that leads into a governed tree.
	dir, rest := filepath.Dir(path), []string{filepath.Base(path)}
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return workspace.Discover([]string{filepath.Dir(filepath.Join(append([]string{real}, rest...)...))})
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir, rest = parent, append([]string{filepath.Base(dir)}, rest...)
	}
}

func projectDenial(call *hook.Call, target, why string) hook.Decision {
	headline := call.ToolName + " from a session intenthook cannot place: the event names no project directory"
	if EventProject(call) != "" {
		headline = call.ToolName + " into a governed tree from a session of another project (" + filepath.ToSlash(call.ProjectDir) + ")"
	} else if call.ProjectDir != "" {
		headline = call.ToolName + " from a session intenthook cannot place: the event's project directory is not one (" + filepath.ToSlash(call.ProjectDir) + ")"
	}
	ev := []string{hook.Ev("project", filepath.ToSlash(call.ProjectDir)), hook.Ev("session", call.SessionID)}
	if target != "" {
		ev = append(ev, hook.Ev("target", target))
	}
	return hook.Denial{
		Code:     hook.CodeTargetUnknown,
		Headline: headline,
		Why:      why + "; the hooks place a call by the project its event names, and deny what they cannot place whatever the fail mode",
		Instead:  "work inside the project this session was started in; if the agent no longer sends its project directory, ask the user to update intenthook",
		Evidence: ev,
	}.Decision()
}
