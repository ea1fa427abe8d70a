package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFloorBuiltAsRelease holds the floor's build flags to the hook
// binary's in a release (.goreleaser.yaml) and in make build: the same
// flags, less what only a hook has (the noyaml tag, -X settings, where the
// output goes). A floor built otherwise is another ruler.
func TestFloorBuiltAsRelease(t *testing.T) {
	want := buildFlags(t, floorFlags)

	release := readRepoFile(t, ".goreleaser.yaml")
	_, hook, ok := strings.Cut(release, "\n  - id: intenthook\n")
	if !ok {
		t.Fatal(".goreleaser.yaml: no build of id intenthook")
	}
	hook, _, _ = strings.Cut(hook, "\n  - id:")
	flags := regexp.MustCompile(`(?m)^\s+flags: \[(.*)\]$`).FindStringSubmatch(hook)
	ldflags := regexp.MustCompile(`(?m)^\s+ldflags:\n\s+- (.*)$`).FindStringSubmatch(hook)
	if flags == nil || ldflags == nil {
		t.Fatalf(".goreleaser.yaml: the hook's build has no flags or ldflags line:\n%s", hook)
	}
	var args []string
	for f := range strings.SplitSeq(flags[1], ",") {
		args = append(args, strings.TrimSpace(f))
	}
	// A template ({{ .Version }}) is one value, whatever its spaces.
	args = append(args, "-ldflags", regexp.MustCompile(`\{\{[^}]*\}\}`).ReplaceAllString(ldflags[1], "V"))
	if got := buildFlags(t, args); !slices.Equal(got, want) {
		t.Errorf(".goreleaser.yaml builds the hook with %q, the floor is built with %q", got, want)
	}

	makefile := readRepoFile(t, "Makefile")
	ld := regexp.MustCompile(`(?m)^LDFLAGS\s*:=\s*(.*)$`).FindStringSubmatch(makefile)
	line := regexp.MustCompile(`(?m)^\t\$\(GO\) build (.*) -o \$\(BIN\) \./cmd/intenthook$`).FindStringSubmatch(makefile)
	if ld == nil || line == nil {
		t.Fatal("Makefile: no LDFLAGS or no build line for $(BIN)")
	}
	args = strings.Fields(strings.ReplaceAll(strings.ReplaceAll(line[1], "'$(LDFLAGS)'", "LDFLAGS"), "'", ""))
	if i := slices.Index(args, "LDFLAGS"); i >= 0 {
		args[i] = ld[1]
	}
	if got := buildFlags(t, args); !slices.Equal(got, want) {
		t.Errorf("make build builds the hook with %q, the floor is built with %q", got, want)
	}
}

// buildFlags normalises go build flags for comparison: the linker's flags
// split into their own entries, without -X settings or -tags.
func buildFlags(t *testing.T, args []string) []string {
	t.Helper()
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-tags":
			i++
		case "-ldflags":
			if i+1 == len(args) {
				t.Fatalf("-ldflags without a value in %q", args)
			}
			i++
			ld := strings.Fields(args[i])
			for j := 0; j < len(ld); j++ {
				if ld[j] == "-X" {
					j++
					continue
				}
				out = append(out, "-ldflags:"+ld[j])
			}
		default:
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../../" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
