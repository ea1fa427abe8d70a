package config

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// agrees checks fastParse against yaml.v3 on text: when the subset reads
// it, the settings (warnings included) must be yaml.v3's. It returns
// whether the subset read it.
func agrees(t *testing.T, text string) bool {
	t.Helper()
	fast, full := Default(), Default()
	ok := fastParse([]byte(text), fast)
	err := full.parseYAML([]byte(text))
	if !ok {
		return false
	}
	if err != nil {
		t.Errorf("the subset read what yaml.v3 refuses (%v):\n%s", err, text)
		return true
	}
	if !reflect.DeepEqual(fast, full) {
		t.Errorf("the subset read\n%s\nas  %+v\nnot %+v", text, fast, full)
	}
	return true
}

func TestFastParseAgrees(t *testing.T) {
	tests := []struct {
		text string
		fast bool // the subset reads it (else yaml.v3 does)
	}{
		{"", true},
		{"# only a comment\n\n", true},
		{"fail_mode: closed\n", true},
		{"fail_mode: closed # trailing comment\nstale_check: false\n", true},
		{"outside_allow: []\n", true},
		{"outside_allow: [\"/tmp/**\", '$TMPDIR/**', src/gen/**]\n", true},
		{"protected_paths:\n  - secrets/**\n  - \"**/*.pem\"\n", true},
		{"shell: {destructive: deny, opaque: allow, backstop: false}\n", true},
		{"shell:\n  destructive: deny\n  extra: ignored\n", true},
		{"tools:\n  mcp__db__query: read\n  Deploy: shell\n", true},
		{"lock_timeout: 300ms\nlessons_max: 20\ncontext_budget_bytes: 4000\n", true},
		{"loop: {repeats: 3, window: 10m, action: deny}\n", true},
		{"roles:\n  main: {tools: [read, write, shell, select]}\n  Explore: {tools: [read]}\n  reviewer:\n    tools: [read, shell]\n    intents: [INT-002]\n", true},
		{"roles: {}\ntools: {}\n", true},
		{"review: {default: required}\n", true},
		{"review:\n  default: none\n  other: x\n", true},
		{"review: {default: sometimes}\n", true}, // clamped by Load, not by the parse
		{"shell: {checks: [go test, \"npm test\", make]}\n", true},
		{"shell:\n  checks:\n    - go test ./...\n    - make check\n", true},
		{"roles:\n  Executor: {paths: [\"src/**\", tests/**]}\n  Explore: {tools: [read], paths: []}\n", true},
		{"ledger: {fsync: true, shell: all}\n", true},
		{"delegation: {max_depth: 2}\n", true},
		{"delegation:\n  max_depth: 0\n", true},
		{"people:\n  commits: free\n", true},
		{"people: {commits: scoped}\n", true},
		{"people: {commits: sometimes}\n", true},
		{"people:\n  commits: yes\n", false},
		{"people: free\n", false},
		{"delegation:\n  max_depth: 99\n  other: x\n", true},
		{"ledger: {segment_bytes: 4096}\n", true},
		{"prices:\n  claude-sonnet-4-5: {input: 3, output: 15, cache_creation: 3.75, cache_read: 0.30}\n  gpt-5:\n    input: 1.25\n    output: \"10\"\n    cache_read: '0.125'\n", true},
		{"prices: {m: {input: $2.50, other: 1}}\n", true},
		{"prices: {m: {input: three}}\n", false},
		{"prices: {m: {input: 1e3}}\n", false},
		{"prices: {m: {input: -1}}\n", false},
		{"prices: {m: {input: \"-1\"}}\n", true},
		{"prices: {m: {input: 0.0000001}}\n", true},
		{"prices: {m: {input: ..}}\n", true},
		{"prices: {m: {input: true}}\n", false},
		{"prices: {m: {input: }}\n", false},
		{"prices: {}\n", true},
		{"budget: {tokens: 2000000, usd: 12.50, calls: 300}\n", true},
		{"budget:\n  calls: 2\n", true},
		{"budget: {calls: -2}\n", false},
		{"budget: {usd: ten, other: 1}\n", false},
		{"budget: {usd: \"ten\", other: 1}\n", true},
		{"budget: {tokens: 20000000000}\n", false},
		{"ledger:\n  segment_bytes: 999999999\n", true},
		{"ledger: {segment_bytes: 0}\n", true},
		{"ledger: {segment_bytes: 8MiB}\n", false},
		{"lessons_file: .orchestration/LESSONS.md\n", true},
		{"fail_mod: closed\ngovernance: on\n", true}, // unknown: warnings
		{"\n\nfail_mode: open\n\n\nfoo: bar\n", true},
		{"exclusive_intents: true\nprotect_governance_files: false\noutside_workspace: allow\n", true},
		{"export:\n  endpoint: http://localhost:4318\n  protocol: http/json\n  records: all\n  when: session_end\n  batch: 200\n  timeout: 30s\n  service_name: repo-agents\n", true},
		{"export: {endpoint: \"https://otel.example.com:4317\", protocol: grpc, when: stop}\n", true},
		{"export:\n  protocol: http/protobuf\n  other: ignored\n", true},
		{"export: {}\n", true},
		{"export:\n  endpoint: http://localhost:4318 # the local collector\n", true},
		{"export:\n  batch: 0x20\n", false},
		{"export:\n  when: off\n", false},
		{"export:\n  timeout: 10\n", false},
		{"export: grpc\n", false},
		{"ask: {via: wait, timeout: 2s}\n", true},
		{"ask:\n  via: wait\n  timeout: 10m\n  other: x\n", true},
		{"ask: {via: console}\n", true},
		{"ask:\n  via: console\n  console: https://console.example:8443\n  console_cert: sha256:00ff\n  token_env: MY_TOKEN\n", true},
		{"ask: {console: http://x}\n", true}, // refused by Load, not by the parse
		{"ask: {console: [a]}\n", false},
		{"ask: {via: browser}\n", true}, // clamped by Load, not by the parse
		{"ask: {timeout: 0s}\n", true},  // clamped by Load
		{"ask: {via: yes}\n", false},
		{"ask: {timeout: 120}\n", false},
		{"ask: wait\n", false},
		{"claims: {remote: origin}\n", true},
		{"claims:\n  remote: team-remote\n", true},
		{"claims: {remote: yes}\n", false},
		{"claims: origin\n", false},
		// Left to yaml.v3.
		{"fail_mode: \"clo\\\"sed\"\n", false},
		{"fail_mode: yes\n", false},
		{"stale_check: yes\n", false},
		{"stale_check: True\n", false},
		{"lessons_max: 0x10\n", false},
		{"lessons_max: +5\n", false},
		{"lessons_max: 007\n", false},
		{"lock_timeout: 1.5s\n", false},
		{"lock_timeout: 5\n", false},
		{"fail_mode:\n", false},
		{"fail_mode: ~\n", false},
		{"fail_mode: &a closed\n", false},
		{"outside_allow: [*.tmp]\n", false},
		{"outside_allow:\n- a\n", false},
		{"fail_mode: open\nfail_mode: closed\n", false},
		{"fail_mode: |\n  closed\n", false},
		{"fail_mode: open\n  closed\n", false},
		{"---\nfail_mode: open\n", false},
		{"\tfail_mode: open\n", false},
		{"fail_mode: open\r\n", false},
		{"- a\n- b\n", false},
		{"just a scalar\n", false},
		{"shell: deny\n", false},
		{"roles:\n  main: [read]\n", false},
		{"review: required\n", false},
		{"review: {default: yes}\n", false},
		{"shell: {checks: go test}\n", false},
		{"roles: {x: {paths: src/**}}\n", false},
		{"outside_allow: [a, b,]\n", false},
		{"outside_allow: [a, [b]]\n", false},
		{"fail_mode: it's\n", false},
		{"fail_mode: 'it''s'\n", false},
		{"tools: {true: read}\n", false},
		{"  fail_mode: open\n", false},
		{"lessons_file: a: b\n", false},
		{"lessons_file: '#x' y\n", false},
		{"delegation: {max_depth: -1}\n", false},
		{"delegation: {max_depth: two}\n", false},
		{"delegation: 3\n", false},
	}
	for _, tt := range tests {
		if got := agrees(t, tt.text); got != tt.fast {
			t.Errorf("fastParse read it: %v, want %v:\n%s", got, tt.fast, tt.text)
		}
	}
}

// Every config.yaml in the testscripts, as users write them.
func TestFastParseAgreesOnScripts(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/script/*.txtar")
	read := 0
	for _, name := range files {
		a, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, "config.yaml") {
				if agrees(t, string(f.Data)) {
					read++
				}
			}
		}
	}
	if read == 0 {
		t.Error("the subset read none of the scripts' settings")
	}
}

// Random settings in the subset's shapes and just outside them.
func TestFastParseAgreesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	scalars := []string{"ask", "deny", "allow", "open", "closed", "all", "changes", "read", "write", "shell", "/tmp/**",
		"$TMPDIR/**", "src/**", ".orchestration/x.md", "a b", "a:b", "x#y", "true", "false", "yes", "no", "0", "7", "007",
		"12", "10m", "300ms", "1h30m", "1.5s", "'q'", `"dq"`, `"a b"`, "'#c'", "null", "~", "", "*x", "&a x", "-x", ".5",
		"INT-002", "@x", "it's", `"x\"y"`, "[a]", "{a: b}", "[]", "{}"}
	keys := append(append([]string{}, knownKeys()...), "foo", "fail_mod", "Shell")
	subKeys := []string{"destructive", "opaque", "backstop", "fsync", "shell", "segment_bytes", "repeats", "window", "action", "tools", "intents", "main", "Explore", "max_depth", "via", "timeout", "console", "console_cert", "token_env", "webhook_url_env", "network", "remote", "x"}
	var value func(depth int, indent string) string
	value = func(depth int, indent string) string {
		switch k := rng.IntN(8); {
		case k < 3 || depth > 1:
			return " " + scalars[rng.IntN(len(scalars))]
		case k == 3:
			var items []string
			for range rng.IntN(4) {
				items = append(items, scalars[rng.IntN(len(scalars))])
			}
			return " [" + strings.Join(items, ", ") + "]"
		case k == 4:
			var b strings.Builder
			for range 1 + rng.IntN(3) {
				fmt.Fprintf(&b, "\n%s  - %s", indent, scalars[rng.IntN(len(scalars))])
			}
			return b.String()
		case k == 5:
			var items []string
			for range rng.IntN(3) {
				items = append(items, subKeys[rng.IntN(len(subKeys))]+":"+value(depth+1, indent))
			}
			return " {" + strings.Join(items, ", ") + "}"
		default:
			var b strings.Builder
			for range 1 + rng.IntN(3) {
				fmt.Fprintf(&b, "\n%s  %s:%s", indent, subKeys[rng.IntN(len(subKeys))], value(depth+1, indent+"  "))
			}
			return b.String()
		}
	}
	read := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			if rng.IntN(6) == 0 {
				b.WriteString("# a comment\n")
			}
			fmt.Fprintf(&b, "%s:%s", keys[rng.IntN(len(keys))], value(0, ""))
			if rng.IntN(6) == 0 {
				b.WriteString(" # trailing")
			}
			b.WriteString("\n")
		}
		if agrees(t, b.String()) {
			read++
		}
	}
	if read < 500 {
		t.Errorf("the subset read only %d of 20000 random settings", read)
	}
	t.Logf("the subset read %d of 20000", read)
}

func knownKeys() []string {
	return slices.Sorted(slices.Values(topKeys[:]))
}

// FuzzFastParse: whatever the subset reads, yaml.v3 reads the same way.
func FuzzFastParse(f *testing.F) {
	for _, seed := range []string{
		"fail_mode: closed\n", "outside_allow: [\"/tmp/**\", src/**]\n", "shell: {destructive: deny}\n",
		"roles:\n  main: {tools: [read]}\n  x:\n    tools: [a]\n    intents: [b]\n", "lock_timeout: 300ms # c\n",
		"tools:\n  A: read\nloop: {repeats: 3, window: 10m, action: deny}\n", "protected_paths:\n  - a\n  - 'b c'\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		agrees(t, text)
	})
}

// Deep nesting is left to yaml.v3 (which bounds it), not recursed into.
func TestFastParseDeep(t *testing.T) {
	deep := "outside_allow: " + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + "\n"
	if fastParse([]byte(deep), Default()) {
		t.Error("the subset read a million nested lists")
	}
	if !fastParse([]byte("roles: {a: {tools: [x]}}\n"), Default()) {
		t.Error("the subset refused a list in a mapping in a mapping")
	}
}
