package harness

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

func TestToolCalls(t *testing.T) {
	tests := []struct {
		client          string
		write, shell    string // tool names
		pathKey, cmdKey string // argument names ("" for a freeform patch)
		read, edit      string // "" when the model has none
		patchKey        string // the argument writes and edits put a patch in; "": none
	}{
		{"claude", "Write", "Bash", "file_path", "command", "Read", "Edit", ""},
		{"gemini", "write_file", "run_shell_command", "file_path", "command", "read_file", "replace", ""},
		{"codex", "apply_patch", "exec_command", "", "cmd", "", "", ""},
		{"qwen", "write_file", "run_shell_command", "file_path", "command", "read_file", "edit", ""},
		{"copilot", "create", "bash", "path", "command", "view", "edit", ""},
		{"droid", "Create", "Execute", "file_path", "command", "Read", "Edit", ""},
		{"auggie", "save-file", "launch-process", "path", "command", "view", "str-replace-editor", ""},
		{"opencode", "write", "bash", "filePath", "command", "read", "edit", ""},
		{"opencode-gpt", "apply_patch", "bash", "filePath", "command", "read", "apply_patch", "patchText"},
		{"kilo", "write", "bash", "filePath", "command", "read", "edit", ""},
		{"cline", "editor", "run_commands", "path", "commands", "read_files", "editor", ""},
	}
	if len(tests) != len(Clients()) {
		t.Fatalf("%d clients, %d tested", len(Clients()), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.client, func(t *testing.T) {
			c, ok := Lookup(tt.client)
			if !ok {
				t.Fatal("not found")
			}
			w := c.Write("/w/a.txt", "a\n")
			if w.Name != tt.write {
				t.Errorf("write tool %s, want %s", w.Name, tt.write)
			}
			if tt.pathKey == "" && w.Input != "*** Begin Patch\n*** Add File: /w/a.txt\n+a\n*** End Patch\n" {
				t.Errorf("patch %q", w.Input)
			}
			if tt.patchKey != "" {
				if w.Args[tt.patchKey] != AddFilePatch("/w/a.txt", "a\n") {
					t.Errorf("write args %v", w.Args)
				}
			} else if tt.pathKey != "" && w.Args[tt.pathKey] != "/w/a.txt" {
				t.Errorf("write args %v lack %s", w.Args, tt.pathKey)
			}
			s := c.Shell("ls")
			if s.Name != tt.shell || one(s.Args[tt.cmdKey]) != "ls" {
				t.Errorf("shell call %s %v, want %s with %s", s.Name, s.Args, tt.shell, tt.cmdKey)
			}
			if (c.Read == nil) != (tt.read == "") || (c.Edit == nil) != (tt.edit == "") {
				t.Fatalf("read/edit tools present: %v/%v, want %q/%q", c.Read != nil, c.Edit != nil, tt.read, tt.edit)
			}
			if c.Read != nil {
				if r := c.Read("/w/a.txt"); r.Name != tt.read || (r.Args[tt.pathKey] != "/w/a.txt" && one(r.Args["files"]) != "/w/a.txt") {
					t.Errorf("read call %s %v", r.Name, r.Args)
				}
				e := c.Edit("/w/a.txt", "x", "y")
				want, key := any("/w/a.txt"), tt.pathKey
				if tt.patchKey != "" {
					want, key = "*** Begin Patch\n*** Update File: /w/a.txt\n@@\n-x\n+y\n*** End Patch\n", tt.patchKey
				}
				if e.Name != tt.edit || e.Args[key] != want {
					t.Errorf("edit call %s %v", e.Name, e.Args)
				}
			}
			if argv := c.argv("/bin/x", "go"); len(argv) < 2 || argv[len(argv)-1] == "" {
				t.Errorf("argv %v", argv)
			}
		})
	}
}

// one is the only element of a list argument (Cline 3 takes lists of
// commands and of files), or the argument itself.
func one(v any) any {
	if l, ok := v.([]any); ok && len(l) == 1 {
		if m, ok := l[0].(map[string]any); ok && len(m) == 1 {
			return m["path"]
		}
		return l[0]
	}
	return v
}

func TestAddFilePatch(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"one line", "a\n", "*** Begin Patch\n*** Add File: f\n+a\n*** End Patch\n"},
		{"two lines, no final newline", "a\nb", "*** Begin Patch\n*** Add File: f\n+a\n+b\n*** End Patch\n"},
		{"empty line kept", "a\n\nb\n", "*** Begin Patch\n*** Add File: f\n+a\n+\n+b\n*** End Patch\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AddFilePatch("f", tt.content); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSetJSON(t *testing.T) {
	tests := []struct{ name, before, want string }{
		{"missing file", "", `{"k":1}`},
		{"other keys kept", `{"hooks":{"a":[]}}`, `{"hooks":{"a":[]},"k":1}`},
		{"key replaced", `{"k":0}`, `{"k":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "d", "settings.json")
			if tt.before != "" {
				if err := writeFile(path, []byte(tt.before)); err != nil {
					t.Fatal(err)
				}
			}
			if err := SetJSON(path, "k", 1); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			var got, want any
			_ = json.Unmarshal(b, &got)
			_ = json.Unmarshal([]byte(tt.want), &want)
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("got %s, want %s", g, w)
			}
		})
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte("{"), 0o644)
	if err := SetJSON(bad, "k", 1); err == nil {
		t.Error("a file that is not JSON was overwritten")
	}
}

func TestWritten(t *testing.T) {
	rec := func(event string, ok bool, path string) ledger.Record {
		r := ledger.Record{Files: []ledger.File{{Path: path}}}
		r.Metadata.Intenthook.Event, r.Metadata.Intenthook.Success = event, ok
		r.Metadata.Intenthook.SessionID = event + path
		return r
	}
	tests := []struct {
		name string
		recs []ledger.Record
		want string // session of the record found; "" none
	}{
		{"post record", []ledger.Record{rec(ledger.EventPostToolUse, true, "a")}, "PostToolUsea"},
		{"a denial is no write", []ledger.Record{rec(ledger.EventPreToolUse, true, "a")}, ""},
		{"a failed tool is no write", []ledger.Record{rec(ledger.EventPostToolUse, false, "a")}, ""},
		{"another file", []ledger.Record{rec(ledger.EventPostToolUse, true, "b")}, ""},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if r := Written(tt.recs, "a"); r != nil {
				got = r.Metadata.Intenthook.SessionID
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestClientKnows(t *testing.T) {
	home := t.TempDir()
	for path, content := range map[string]string{
		".codex/sessions/rollout-2026-01a2.jsonl": "{}",
		".gemini/tmp/proj/chats/session-1.jsonl":  `{"sessionId":"ce14d7dc-1afa"}`,
	} {
		if err := writeFile(filepath.Join(home, path), []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	w := &Workspace{Home: home}
	tests := []struct {
		id   string
		want bool
	}{
		{"01a2", true},          // in a file name
		{"ce14d7dc-1afa", true}, // in a file
		{"made-up", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			if got := w.ClientKnows(tt.id); got != tt.want {
				t.Errorf("ClientKnows(%q) = %v", tt.id, got)
			}
		})
	}
}

// A process a client leaves behind (as Cline's hub daemon is) is found by
// the workspace's HOME in its environment, and only such a process.
func TestLeftBehind(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc")
	}
	home := t.TempDir()
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), "HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	other := exec.Command("sleep", "60")
	other.Env = append(os.Environ(), "HOME="+home+"x")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer other.Process.Kill()
	got := leftBehind(home)
	if len(got) != 1 || got[0] != cmd.Process.Pid {
		t.Errorf("leftBehind = %v, want [%d]", got, cmd.Process.Pid)
	}
}
