package shell

import (
	"strings"
	"testing"
)

// FuzzShellAnalyse checks that Analyse never panics (its recover guard would report an internal
// error) and never invents a target: each write, delete and link source ends in a name the command
// spells out.
func FuzzShellAnalyse(f *testing.F) {
	for _, seed := range []string{
		`echo hi > out.txt`,
		`cd sub && echo x > "my file.txt"`,
		"cat > notes.md <<EOF\n$(rm -f x)\nEOF",
		`bash -c "sh -c 'rm -rf deep'"`,
		`sudo -u root env A=1 nice -n 5 timeout 10 rm my\ file`,
		`cp a b dir/ && mv x.go pkg/`,
		`find . -name '*.o' -delete -exec rm {} +`,
		`ls | xargs -I{} mv {} dir/`,
		`sed -i.bak -e 's/a/b/' f.txt; perl -pi -e 's/a/b/' g.txt`,
		`git -C sub checkout -- . && git push --force origin +main`,
		`psql -c "DROP TABLE users" <<< "TRUNCATE x"`,
		`dd if=/dev/zero of=/dev/sda; kill -9 -1`,
		`intenthook select INT-001`,
		`"$BIN"/intenthook intents transition INT-1 COMPLETE`,
		`python3 -c 'import os' | node -e x`,
		`echo ${X:-$(touch q)} > >(tee log) 2>&1`,
		`f() { rm -rf tmp; }; if true; then f; fi`,
		`cd "$D" && touch f; cd / && rm -r a{b,c} ~/x`,
		`ln -s /opt/tool/bin/tool && rsync -a src/ host:/x`,
		`ln .orchestration/active_intents.yaml src/cat.yaml; cp -al a dir; link x y`,
		"echo 'unterminated",
		`a\
b > c\
d`,
		`sort -o out.txt x; uniq a b; sed -n '1w w.txt' f; awk '{print > "p.txt"}'`,
		`tar czf h.tgz ~ && zip -r h src && script -qc 'touch t' /dev/null`,
		`git -c core.fsmonitor=x status; git rebase -qxid main; git push origin :main`,
		`yarn exec bash -c 'touch y'; tmux new -d 'rm -rf z'; tmux send-keys x Enter`,
		`python3 -m venv --clear .venv && source .venv/bin/activate`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		a := Analyse(cmd, func(p string) bool { return strings.HasSuffix(p, "dir") })
		for _, why := range a.Opaque {
			if strings.HasPrefix(why, "internal error") {
				t.Fatalf("Analyse(%q) panicked: %s", cmd, why)
			}
		}
		spelled := withoutQuoting(cmd)
		targets := append(append(append([]string{}, a.Writes...), a.Deletes...), a.LinkSources...)
		for _, target := range targets {
			if target == "" {
				t.Fatalf("Analyse(%q) reports an empty target", cmd)
			}
			if target == "." && strings.Contains(cmd, "find") {
				continue // find's implied start path
			}
			if defaultName(target, cmd) {
				continue
			}
			name := withoutQuoting(lastElement(target))
			if !strings.Contains(spelled, name) {
				t.Fatalf("Analyse(%q) reports target %q, whose name %q is not in the command", cmd, target, name)
			}
		}
	})
}

// defaultName reports the names a program writes without the command spelling them: script's
// typescript, gawk's reports, the .zip zip adds to a name without a suffix.
func defaultName(target, cmd string) bool {
	switch name := lastElement(target); {
	case name == "typescript" && strings.Contains(cmd, "script"):
		return true
	case (name == "awkvars.out" || name == "awkprof.out") && strings.Contains(cmd, "awk"):
		return true
	case strings.HasSuffix(name, ".zip") && strings.Contains(cmd, "zip"):
		return strings.Contains(withoutQuoting(cmd), strings.TrimSuffix(name, ".zip"))
	}
	return false
}

// lastElement is the part of a path after its last slash, or "/" for the root.
func lastElement(p string) string {
	trimmed := strings.TrimRight(p, "/")
	if trimmed == "" {
		return "/"
	}
	return trimmed[strings.LastIndexByte(trimmed, '/')+1:]
}

// withoutQuoting removes line continuations, quotes, backslashes and NUL bytes (which the parser
// drops, as bash does), so that a word and the command it came from can be compared as text.
func withoutQuoting(s string) string {
	s = strings.ReplaceAll(s, "\\\n", "")
	return strings.NewReplacer(`"`, "", `'`, "", `\`, "", "\x00", "").Replace(s)
}
