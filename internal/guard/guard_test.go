package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/osfile"
)

func TestRiskyKeys(t *testing.T) {
	tests := []struct {
		name, config string
		want         []string
	}{
		{"plain remote and branch", "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = x\n[branch \"main\"]\n\tremote = origin\n", nil},
		{"hooksPath", "[core]\n\thooksPath = /tmp/h\n", []string{"core.hookspath=/tmp/h"}},
		{"case of the key", "[CORE]\n\tHOOKSPATH=h\n", []string{"core.hookspath=h"}},
		{"alias with subsection style", "[alias]\n\tst = !sh x\n", []string{"alias.st=!sh x"}},
		{"filter driver", "[filter \"lfs\"]\n\tclean = evil %f\n", []string{"filter.lfs.clean=evil %f"}},
		{"diff driver command only", "[diff \"x\"]\n\tcommand = evil\n\tbinary = true\n", []string{"diff.x.command=evil"}},
		{"diff.external", "[diff]\n\texternal = evil\n", []string{"diff.external=evil"}},
		{"include", "[include]\n\tpath = ../x\n[includeIf \"gitdir:/\"]\n\tpath = y\n", []string{"include.path=../x", "includeif.gitdir:/.path=y"}},
		{"key on the header line", "[core] hooksPath = h\n", []string{"core.hookspath=h"}},
		{"comments", "# [core]\n; hooksPath = h\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RiskyKeys([]byte(tt.config)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestUndo changes, creates and removes watched files and checks that
// each is put back byte for byte with its mode, the changed versions kept.
func TestUndo(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string, mode os.FileMode) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		_ = os.Chmod(p, mode)
	}
	write(".orchestration/active_intents.yaml", "active_intents: []\n", 0o644)
	write(".orchestration/config.yaml", "a: 1\n", 0o600)
	write(".git/hooks/pre-push", "#!/bin/sh\n", 0o755)
	write(".git/config", "[core]\n\tbare = false\n", 0o644)
	write(Ledger, "line1\nline2\n", 0o644)
	targets := Watch(root, []governed.File{
		{Path: ".orchestration/active_intents.yaml", Use: governed.Guarded},
		{Path: ".orchestration/config.yaml", Use: governed.Guarded},
		{Path: ".orchestration/.intentignore", Use: governed.Guarded},
		{Path: Ledger, Use: governed.Guarded, Watch: governed.AppendOnly},
		{Path: ".orchestration/state/catalog.cache", Use: governed.Guarded, Watch: governed.Cache},
		{Path: ".claude/settings.json", Use: governed.Guarded},
		{Path: ".git/hooks", Use: governed.Guarded, Watch: governed.GitHooks},
		{Path: ".git/config", Use: governed.Guarded, Watch: governed.GitConfig},
	}, filepath.Join(root, ".git/config"))
	hooks := filepath.Join(root, ".git/hooks")
	s, err := Take(root, targets, hooks, "")
	if err != nil {
		t.Fatal(err)
	}

	write(".orchestration/active_intents.yaml", "active_intents: [evil]\n", 0o644)
	if err := os.Remove(filepath.Join(root, ".orchestration/config.yaml")); err != nil {
		t.Fatal(err)
	}
	write(".claude/settings.json", "{\"disableAllHooks\": true}\n", 0o644)
	write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n", 0o755)
	write(".git/hooks/pre-commit.sample", "ignored\n", 0o755)
	write(".git/config", "[core]\n\tbare = false\n[remote \"o\"]\n\turl = x\n", 0o644) // no risky key
	write(Ledger, "line1\nline2\nline3\n", 0o644)                                      // grown only

	changes := Compare(root, s, targets)
	var names []string
	for _, c := range changes {
		names = append(names, c.Rel)
	}
	want := []string{".claude/settings.json", ".git/hooks/pre-commit", ".orchestration/active_intents.yaml", ".orchestration/config.yaml"}
	if !slices.Equal(names, want) {
		t.Fatalf("changed %q, want %q", names, want)
	}
	if LedgerIntact(root, s) {
		t.Error("a legacy ledger grown during a command reads as intact (hooks write segments)")
	}
	undone := Undo(root, changes, func(c Change) bool { return false }, time.Unix(0, 0))
	for _, c := range undone {
		if c.Err != nil || !c.Undone {
			t.Errorf("%s: undone=%v err=%v", c.Rel, c.Undone, c.Err)
		}
	}
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(root, rel))
		return string(b)
	}
	if got := read(".orchestration/active_intents.yaml"); got != "active_intents: []\n" {
		t.Errorf("catalog = %q", got)
	}
	if st, err := os.Stat(filepath.Join(root, ".orchestration/config.yaml")); err != nil || st.Mode().Perm() != 0o600 || read(".orchestration/config.yaml") != "a: 1\n" {
		t.Errorf("config not restored with its mode: %v", err)
	}
	for _, gone := range []string{".claude/settings.json", ".git/hooks/pre-commit"} {
		if _, err := os.Stat(filepath.Join(root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there", gone)
		}
	}
	kept, _ := filepath.Glob(filepath.Join(root, UndoneDir, "*"))
	if len(kept) != 3 { // the catalog, the settings and the hook; the config was removed, nothing to keep
		t.Errorf("kept %q", kept)
	}
	for _, k := range kept {
		if strings.HasSuffix(k, "active_intents.yaml") && read(strings.TrimPrefix(k, root+"/")) != "active_intents: [evil]\n" {
			t.Errorf("the displaced catalog was not kept as it was")
		}
	}

	write(Ledger, "line1\nlineX\nline3\n", 0o644)
	if LedgerIntact(root, s) {
		t.Error("a rewritten ledger reads as intact")
	}
	write(Ledger, "line1\n", 0o644)
	if LedgerIntact(root, s) {
		t.Error("a shrunk ledger reads as intact")
	}
}

// A Fresh target (a session's own state) is pictured and put back like
// any file, but state/guard/index does not remember it: one line per
// session would make every picture read a growing index.
func TestFreshTarget(t *testing.T) {
	root := t.TempDir()
	const rel = ".orchestration/state/sessions/s1.json"
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"intent":"INT-001"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	targets := []Target{{Rel: rel, Kind: Whole, Fresh: true}}
	s, err := Take(root, targets, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := readIndex(root)[rel]; ok {
		t.Errorf("the index remembers %s", rel)
	}
	if err := os.WriteFile(p, []byte(`{"intent":"INT-002"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	changes := Compare(root, s, targets)
	if len(changes) != 1 || changes[0].Rel != rel {
		t.Fatalf("Compare = %+v, want the one change to %s", changes, rel)
	}
	if undone := Undo(root, changes, nil, time.Now()); len(undone) != 1 || !undone[0].Undone {
		t.Fatalf("Undo = %+v", undone)
	}
	if got, _ := os.ReadFile(p); string(got) != `{"intent":"INT-001"}` {
		t.Errorf("after Undo: %s", got)
	}
}

func TestJournal(t *testing.T) {
	root := t.TempDir()
	Journal(root, ".orchestration/active_intents.yaml", []byte("x"))
	if !Journaled(root, ".orchestration/active_intents.yaml", hashBytes([]byte("x"))) {
		t.Error("a journaled write is not found")
	}
	if Journaled(root, ".orchestration/active_intents.yaml", hashBytes([]byte("y"))) {
		t.Error("another content reads as journaled")
	}
	for i := 0; i < 4000; i++ { // past the cut
		Journal(root, "f", []byte{byte(i), byte(i >> 8)})
	}
	if !Journaled(root, "f", hashBytes([]byte{byte(3999 & 0xff), byte(3999 >> 8)})) {
		t.Error("the latest write is lost after the journal was cut")
	}
	if st, _ := os.Stat(filepath.Join(root, Dir, journalName)); st.Size() > journalCut+200 {
		t.Errorf("journal grew to %d bytes", st.Size())
	}
}

func TestJournaledDuring(t *testing.T) {
	root := t.TempDir()
	const rel = ".orchestration/active_intents.yaml"
	x, y, z, p := []byte("x"), []byte("y"), []byte("z"), []byte("p")
	Journal(root, rel, x) // before the picture: a command's forgery for a later one
	s := &Snapshot{JournalAt: JournalSize(root), Call: "b1"}
	JournalBy(root, rel, y, By("s2", "e1"))
	JournalBy(root, rel, z, By("s1", "b1"))
	Journal(root, rel, p) // a person's command, naming no call
	for _, tc := range []struct {
		name         string
		content      []byte
		want, byHook bool
	}{
		{"written before the picture", x, false, false},
		{"another call's hook during the command", y, true, true},
		{"naming the pictured call itself", z, false, false},
		{"a person's command during the command", p, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := JournaledDuring(root, s, rel, hashBytes(tc.content)); got != tc.want {
				t.Errorf("JournaledDuring = %v, want %v", got, tc.want)
			}
			if got := HookJournaledDuring(root, s, rel, hashBytes(tc.content)); got != tc.byHook {
				t.Errorf("HookJournaledDuring = %v, want %v", got, tc.byHook)
			}
		})
	}
	if !Journaled(root, rel, hashBytes(x)) || !Journaled(root, rel, hashBytes(z)) {
		t.Error("Journaled (no picture) misses a line with or without a caller")
	}
	if Journaled(root, rel[:len(rel)-1], hashBytes(y)) {
		t.Error("a prefix of a journaled path reads as journaled")
	}
	// Cut back since the picture: the end is read.
	s.JournalAt = 1 << 40
	if !JournaledDuring(root, s, rel, hashBytes(y)) {
		t.Error("a journal cut back since the picture loses the command's lines")
	}
}

// BenchmarkGuard is one shell call's cost: the picture before (a 4 KiB
// catalog, config, ignore file, cache, eleven agents' settings files of
// which one exists, git's config, a hooks directory of samples and one
// hook) and the comparison after, nothing changed.
func BenchmarkGuard(b *testing.B) {
	root := b.TempDir()
	files := map[string]string{
		".orchestration/active_intents.yaml": strings.Repeat("# catalog line\n", 270),
		".orchestration/config.yaml":         "governance: on\n",
		".orchestration/.intentignore":       "vendor/**\n",
		".orchestration/state/catalog.cache": strings.Repeat("c", 6000),
		".claude/settings.json":              strings.Repeat("{}", 800),
		".git/config":                        "[core]\n\tbare = false\n",
		".git/hooks/pre-commit":              "#!/bin/sh\nintenthook precommit\n",
		Ledger:                               strings.Repeat("{\"x\":1}\n", 10000),
	}
	for i := 0; i < 14; i++ {
		files[".git/hooks/hook"+strings.Repeat("x", i)+".sample"] = strings.Repeat("#", 2000)
	}
	for rel, body := range files {
		p := filepath.Join(root, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	settings := []string{".claude/settings.json", ".gemini/settings.json", ".qwen/settings.json", ".codex/hooks.json",
		".github/hooks/intenthook.json", ".factory/settings.json", ".augment/settings.json", ".cursor/hooks.json",
		".windsurf/hooks.json", ".opencode/plugin/intenthook.ts", ".clinerules/hooks/PreToolUse"}
	rows := []governed.File{
		{Path: ".orchestration/active_intents.yaml", Use: governed.Guarded},
		{Path: ".orchestration/config.yaml", Use: governed.Guarded},
		{Path: ".orchestration/.intentignore", Use: governed.Guarded},
		{Path: ".orchestration/state/catalog.cache", Use: governed.Guarded, Watch: governed.Cache},
		{Path: ".git/config", Use: governed.Guarded, Watch: governed.GitConfig},
	}
	for _, s := range settings {
		rows = append(rows, governed.File{Path: s, Use: governed.Guarded})
	}
	targets := Watch(root, rows, filepath.Join(root, ".git/config"))
	hooks := filepath.Join(root, ".git/hooks")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Take(root, targets, hooks, "")
		if err != nil {
			b.Fatal(err)
		}
		if c := Compare(root, s, targets); len(c) != 0 || !LedgerIntact(root, s) {
			b.Fatal("changed")
		}
	}
}

func TestLessonsSection(t *testing.T) {
	const before = "# Memory\n- tabs\n\n## Lessons Learned\n- [t] note: A keep v2\n\n## Known Issues\n- none\n"
	tests := []struct {
		name, now, want string
		same            bool
	}{
		{"memory edited", "# Memory\n- spaces\n\n## Lessons Learned\n- [t] note: A keep v2\n\n## Known Issues\n- none\n", "", true},
		{"section rewritten", "# Memory\n- spaces\n\n## Lessons Learned\n- [t] note: A SYSTEM obey\n\n## Known Issues\n- none\n",
			"# Memory\n- spaces\n\n## Lessons Learned\n- [t] note: A keep v2\n\n## Known Issues\n- none\n", false},
		{"section removed", "# Memory\n- spaces\n", "# Memory\n- spaces\n## Lessons Learned\n- [t] note: A keep v2\n\n", false},
		{"heading case", "# Memory\n- tabs\n\n## lessons learned\n- [t] note: A keep v2\n\n## Known Issues\n- none\n", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameLessons([]byte(before), []byte(tt.now)); got != tt.same {
				t.Errorf("sameLessons = %v, want %v", got, tt.same)
			}
			if tt.want != "" {
				if got := string(spliceLessons([]byte(tt.now), []byte(before))); got != tt.want {
					t.Errorf("spliceLessons = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

// TestLinked: a watched file given a second name during a command is a
// change (its bytes the same, a wiring file's effect too), put back as a
// file of one name; a picture taken with the link there counts it, and
// only a rise is a change.
func TestLinked(t *testing.T) {
	root := t.TempDir()
	const rel = ".orchestration/active_intents.yaml"
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("active_intents: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Lstat(p)
	if osfile.Links(st) == 0 {
		t.Skip("link counts are not known here")
	}
	targets := []Target{{Rel: rel, Kind: Whole}}
	s, err := Take(root, targets, "", "")
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "catlink")
	if err := os.Link(p, link); err != nil {
		t.Skip("no hard links here:", err)
	}
	changes := Compare(root, s, targets)
	if len(changes) != 1 || !changes[0].Linked {
		t.Fatalf("Compare = %+v, want one linked change", changes)
	}
	if undone := Undo(root, changes, nil, time.Now()); len(undone) != 1 || !undone[0].Undone {
		t.Fatalf("Undo = %+v", undone)
	}
	if st, _ := os.Lstat(p); osfile.Links(st) != 1 {
		t.Errorf("after Undo the catalog has %d names", osfile.Links(st))
	}
	if err := os.WriteFile(link, []byte("widened\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "active_intents: []\n" {
		t.Errorf("a write through the old name reached the catalog: %q", got)
	}
	// A second name found at the picture is counted: no rise, no change
	// (precommit and doctor warn about it instead).
	if err := os.Link(p, filepath.Join(root, "catlink2")); err != nil {
		t.Fatal(err)
	}
	if s, err = Take(root, targets, "", ""); err != nil {
		t.Fatal(err)
	}
	if changes := Compare(root, s, targets); len(changes) != 0 {
		t.Errorf("Compare after a picture with the link = %+v", changes)
	}
}
