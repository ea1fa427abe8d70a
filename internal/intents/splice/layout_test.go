//go:build !noyaml

package splice

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGeneratedLayouts builds catalogs in many layouts people write (block and flow intents, every
// quoting, comments and blank lines between keys, block scalars, tags and anchors, multi-line plain
// scalars, CRLF, a BOM, no final newline) and edits each one. Valid catalogs must splice correctly:
// any error is a failure, since every generated intent has what SetStatus and SetScope need.
func TestGeneratedLayouts(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		data, ids := genCatalog(r)
		id := ids[r.IntN(len(ids))]
		out, err := SetStatus(data, id, pick(r, "IN_PROGRESS", "COMPLETE", "a: b", "true", "it's"), now)
		if err != nil {
			t.Fatalf("seed %d: SetStatus(%s): %v\n%s", seed, id, err, data)
		}
		checkLinesKept(t, data, out, id)
		scope := []string{pick(r, "src/**", "**/*.go", "a, b", `q"uote`), "docs/**"}
		if _, err := SetScope(data, id, scope, now); err != nil {
			t.Fatalf("seed %d: SetScope(%s): %v\n%s", seed, id, err, data)
		}
	}
}

func pick(r *rand.Rand, s ...string) string { return s[r.IntN(len(s))] }

// genCatalog writes a random valid catalog and returns it with its intent ids.
func genCatalog(r *rand.Rand) ([]byte, []string) {
	var b strings.Builder
	if r.IntN(5) == 0 {
		b.WriteString(bom)
	}
	if r.IntN(2) == 0 {
		b.WriteString("# catalog — ünïcödé\n\n")
	}
	if r.IntN(5) == 0 {
		b.WriteString("%YAML 1.1\n---\n")
	}
	b.WriteString("active_intents:" + comment(r) + "\n")
	seqIndent := pick(r, "", "  ", "    ")
	var ids []string
	for i := range 1 + r.IntN(3) {
		id := fmt.Sprintf("INT-%03d", i+1)
		ids = append(ids, id)
		if r.IntN(2) == 0 {
			b.WriteString("\n")
		}
		if r.IntN(4) == 0 {
			b.WriteString(seqIndent + "  # intent " + id + "\n")
		}
		if r.IntN(4) == 0 {
			b.WriteString(seqIndent + "- " + flowIntent(r, id) + comment(r) + "\n")
			continue
		}
		keyIndent := seqIndent + pick(r, "  ", "    ")
		pairs := blockPairs(r, id, keyIndent)
		for k, p := range pairs {
			if k == 0 {
				b.WriteString(seqIndent + "-" + keyIndent[len(seqIndent)+1:] + p)
			} else {
				b.WriteString(keyIndent + p)
			}
		}
	}
	if r.IntN(3) == 0 {
		b.WriteString("# end\n")
	}
	s := b.String()
	if r.IntN(4) == 0 {
		s = strings.TrimRight(s, "\n")
	}
	if r.IntN(4) == 0 {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return []byte(s), ids
}

func comment(r *rand.Rand) string {
	if r.IntN(3) == 0 {
		return pick(r, " # c", "   # ☃ note: x", "\t# tab")
	}
	return ""
}

func scalar(r *rand.Rand, v string) string {
	switch r.IntN(6) {
	case 0:
		return "'" + v + "'"
	case 1, 2:
		return `"` + v + `"`
	case 3:
		return pick(r, "!!str ", "&a"+fmt.Sprint(r.IntN(1000))+" ") + v
	}
	return v
}

// blockPairs returns the lines of a block intent, first line without indentation, the rest with it.
func blockPairs(r *rand.Rand, id, ind string) []string {
	pairs := []string{
		"id: " + scalar(r, id) + comment(r) + "\n",
		"name: " + pick(r, `"Café ☕ — naïve"`, "Plain name", "multi-line\n"+ind+"  plain name", "'Ærø'", "\"two \\\n"+ind+"  lines\"", "'single\n\n"+ind+" quoted'") + comment(r) + "\n",
		"status: " + pick(r, scalar(r, "PENDING"), "\n"+ind+"  PENDING", "|-\n"+ind+"  PENDING", "IN\n"+ind+"  PROGRESS", "\"PEND\\\n"+ind+"  ING\"", ">2-\n"+ind+"  PENDING") + comment(r) + "\n",
	}
	if r.IntN(2) == 0 {
		pairs = append(pairs, "version: "+pick(r, "1", "3", "!!int 2")+comment(r)+"\n")
	}
	switch r.IntN(4) {
	case 0:
		pairs = append(pairs, "owned_scope: [\"src/**\", 'b/*']"+comment(r)+"\n")
	case 1:
		pairs = append(pairs, "owned_scope: [\n"+ind+"  src/**,  # c\n"+ind+"  b,\n"+ind+"]\n")
	case 2:
		pairs = append(pairs, "owned_scope:"+comment(r)+"\n"+ind+"- src/**\n"+ind+"# between\n"+ind+"- \"b/*\""+comment(r)+"\n")
	default:
		pairs = append(pairs, "owned_scope:\n"+ind+"  -   'src/**'\n"+ind+"  -   b\n")
	}
	if r.IntN(2) == 0 {
		pairs = append(pairs, "updated_at: "+scalar(r, "2026-02-20T14:00:00Z")+comment(r)+"\n")
	}
	extras := []string{
		"notes: |\n" + ind + "  line one\n" + ind + "    indented\n\n" + ind + "  last\n",
		"notes: |+\n" + ind + "  kept\n\n",
		"notes: >-\n" + ind + "  folded\n" + ind + "  text\n",
		"acceptance_criteria:\n" + ind + "  - \"a\"\n" + ind + "  - description: d\n" + ind + "    check: |\n" + ind + "      go test ./...\n",
		"related_specs:\n" + ind + "- {type: speckit, ref: \".specify/x.md\"}\n",
		"parent_intent:\n",
		"depends_on: [INT-000]\n",
		"tags: [core, \"x\"]   # tags\n",
		"? explicit key\n" + ind + ": explicit value\n",
		"created_at: &c 2026-01-01T00:00:00Z\n",
		"nested:\n" + ind + "  a:\n" + ind + "    b: [1,\n" + ind + "      2]\n",
		"plain_tail: ends with\n" + ind + "  a continuation line\n",
	}
	for _, k := range r.Perm(len(extras))[:r.IntN(3)] {
		pairs = append(pairs, extras[k])
	}
	r.Shuffle(len(pairs)-1, func(i, j int) { pairs[i+1], pairs[j+1] = pairs[j+1], pairs[i+1] })
	for k := 1; k < len(pairs); k++ {
		if r.IntN(5) == 0 {
			pairs[k] = "\n" + ind + pick(r, "# comment line\n", "\n") + ind + pairs[k]
		}
	}
	return pairs
}

func flowIntent(r *rand.Rand, id string) string {
	pairs := []string{
		"id: " + scalar(r, id),
		"name: " + pick(r, `"Café ☕"`, "plain", "'日本語'"),
		"status: " + pick(r, "PENDING", `"PENDING"`, "'PENDING'"),
		"owned_scope: " + pick(r, `["a/**"]`, "[a, 'b']", "[]"),
	}
	if r.IntN(2) == 0 {
		pairs = append(pairs, "updated_at: "+pick(r, "2026-02-20T14:00:00Z", `"2026-02-20T14:00:00Z"`))
	}
	if r.IntN(2) == 0 {
		pairs = append(pairs, "version: 2", "tags: [x, y]", "k")
	}
	r.Shuffle(len(pairs)-1, func(i, j int) { pairs[i+1], pairs[j+1] = pairs[j+1], pairs[i+1] })
	if r.IntN(3) == 0 {
		return "{\n    " + strings.Join(pairs, ",  # c\n    ") + pick(r, "\n  }", ",\n  }", "}")
	}
	return "{" + strings.Join(pairs, ", ") + pick(r, "}", ",}", " }")
}
