//go:build !noyaml

// Package splice edits the intent catalog (.orchestration/active_intents.yaml) in memory: it changes
// one intent's status, version, owned_scope and timestamps (created_at, updated_at, completed_at) and
// keeps every other byte of the file.
//
// People write the catalog, so its comments, blank lines, key order, indentation and quoting are
// theirs. A yaml.v3 decode/encode round trip loses them, so the yaml.Node tree is used only to locate
// what to change: node marks (line, column) become byte offsets in the original data, the extent of
// each value is found by scanning those bytes the way libyaml does, and new bytes are spliced in.
// Before a result is returned it is parsed again and compared with the original tree; if anything
// other than the intended values differs, the edit is refused with an error instead of returned.
//
// Choices, where the catalog leaves room:
//   - A replaced scalar keeps its quoting (plain, 'single', "double"); a value that cannot be written
//     that way is double-quoted. Inserted values (updated_at, version) are written as
//     `updated_at: "…"` and `version: 2`.
//   - An absent updated_at (or created_at, completed_at) is inserted after the intent's last key: on a new line at the mapping's key
//     indentation (block style), or as `, updated_at: "…"` after the last value (flow style).
//   - An absent version means 1: SetScope inserts `version: 2` on the line after status, at the same
//     indentation (block style), or as `, version: 2` after status's value (flow style).
//   - A new line never goes right after a literal or folded scalar (| or >) that ends a file lacking a
//     final newline, since that scalar would gain a line break; it goes before that scalar's key.
//   - An absent status or owned_scope is an error: they are required, and there is nothing to keep.
//   - Comments inside a replaced owned_scope (between its items) are dropped; comments before its first
//     item and after its last are kept.
//   - A value carrying an anchor that an alias elsewhere refers to is refused: changing it would
//     silently change the alias too.
//   - Only the first YAML document of the file is the catalog.
//
// It does not validate the catalog or the lifecycle transition (package intents does), and it does no
// I/O: callers read the file and write the result atomically under the catalog lock.
package splice

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// errMismatch marks a splice that did not read back as intended: a bug here, or YAML this package does
// not understand. Either way the result must not be written.
var errMismatch = errors.New("internal error: splice check failed")

// Catalog keys this package reads or writes.
const (
	keyIntents   = "active_intents"
	keyID        = "id"
	keyStatus    = "status"
	keyUpdatedAt = "updated_at"
	keyVersion   = "version"
	keyScope     = "owned_scope"
)

// timeKey reports the keys SetTimes may write.
func timeKey(k string) bool { return k == "created_at" || k == keyUpdatedAt || k == "completed_at" }

// SetTimes sets each stamp's key of intent id to its time (UTC RFC 3339), replacing a present value
// in its quoting or inserting `key: "…"` after the intent's last key, in the order given, keeping
// every other byte of data.
func SetTimes(data []byte, id string, stamps []Stamp) ([]byte, error) {
	c, in, err := open(data, id)
	if err != nil {
		return nil, err
	}
	var edits []edit
	want := map[string]func(*yaml.Node) error{}
	for _, st := range stamps {
		if !timeKey(st.Key) || want[st.Key] != nil {
			return nil, fmt.Errorf("cannot set %q: not a timestamp key, or given twice", st.Key)
		}
		stamp := timestamp(st.At)
		if err := c.setTime(&edits, in, st.Key, stamp); err != nil {
			return nil, err
		}
		want[st.Key] = wantString(stamp, "!!str", "!!timestamp")
	}
	return c.finish(edits, in, want)
}

// SetStatus sets intent id's status and updated_at (now, in UTC RFC 3339), keeping every other byte of
// data. It does not check that the transition is allowed.
func SetStatus(data []byte, id, status string, now time.Time) ([]byte, error) {
	if err := checkStatus(status); err != nil {
		return nil, err
	}
	c, in, err := open(data, id)
	if err != nil {
		return nil, err
	}
	stamp := timestamp(now)
	var edits []edit
	if err := c.setScalar(&edits, in, keyStatus, status, "!!str"); err != nil {
		return nil, err
	}
	if err := c.setUpdatedAt(&edits, in, stamp); err != nil {
		return nil, err
	}
	return c.finish(edits, in, map[string]func(*yaml.Node) error{
		keyStatus:    wantString(status, "!!str"),
		keyUpdatedAt: wantString(stamp, "!!str", "!!timestamp"),
	})
}

// SetScope replaces intent id's owned_scope with scope, bumps its version by one (an absent version is
// 1, so `version: 2` is inserted) and sets updated_at, keeping every other byte of data.
func SetScope(data []byte, id string, scope []string, now time.Time) ([]byte, error) {
	if err := checkScope(scope); err != nil {
		return nil, err
	}
	c, in, err := open(data, id)
	if err != nil {
		return nil, err
	}
	stamp := timestamp(now)
	var edits []edit
	if err := c.setScope(&edits, in, scope); err != nil {
		return nil, err
	}
	version, err := c.bumpVersion(&edits, in)
	if err != nil {
		return nil, err
	}
	if err := c.setUpdatedAt(&edits, in, stamp); err != nil {
		return nil, err
	}
	return c.finish(edits, in, map[string]func(*yaml.Node) error{
		keyScope:     wantScope(scope),
		keyVersion:   wantInt(version),
		keyUpdatedAt: wantString(stamp, "!!str", "!!timestamp"),
	})
}

func timestamp(now time.Time) string {
	return now.UTC().Format(time.RFC3339)
}

// catalog is one parsed catalog file: its bytes, their positions and the node tree that locates values.
type catalog struct {
	data []byte
	text *text
	doc  *yaml.Node
	eol  string // line break for inserted lines
}

// intent is the intent being edited.
type intent struct {
	id     string
	node   *yaml.Node // its mapping
	flow   bool       // written as {…}
	indent int        // column of its keys, where inserted keys go and where its plain values end
}

// edit replaces data[start:end] with text; start == end inserts.
type edit struct {
	start, end int
	text       string
}

// open parses data and finds intent id in it.
func open(data []byte, id string) (*catalog, *intent, error) {
	if id == "" {
		return nil, nil, errors.New("intent id is empty")
	}
	if len(data) >= 2 && (data[0] == 0xFE && data[1] == 0xFF || data[0] == 0xFF && data[1] == 0xFE) {
		// yaml.v3 would read it, but its marks would then count positions in a UTF-8 copy.
		return nil, nil, errors.New("the catalog is UTF-16; only UTF-8 is supported")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("parse catalog: %w", err)
	}
	list, err := intentList(&doc)
	if err != nil {
		return nil, nil, err
	}
	t := newText(data)
	c := &catalog{data: data, text: t, doc: &doc, eol: t.lineBreak()}
	var found *intent
	for _, item := range list {
		if item.Kind == yaml.AliasNode {
			if item.Alias != nil && idOf(item.Alias) == id {
				return nil, nil, fmt.Errorf("intent %q is an alias (*%s): edit it where its anchor is defined", id, item.Value)
			}
			continue
		}
		if item.Kind != yaml.MappingNode || idOf(item) != id {
			continue
		}
		if found != nil {
			return nil, nil, fmt.Errorf("intent %q is defined twice (lines %d and %d)", id, found.node.Line, item.Line)
		}
		found = &intent{
			id:     id,
			node:   item,
			flow:   item.Style&yaml.FlowStyle != 0,
			indent: item.Content[0].Column - 1,
		}
	}
	if found == nil {
		return nil, nil, fmt.Errorf("intent %q %w", id, ErrNotFound)
	}
	return c, found, nil
}

// intentList returns the items of the catalog's active_intents sequence.
func intentList(doc *yaml.Node) ([]*yaml.Node, error) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%w: the file has no content", ErrNotCatalog)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: the top level is not a mapping (line %d)", ErrNotCatalog, root.Line)
	}
	_, list, err := lookup(root, keyIntents)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %w", ErrNotCatalog, err)
	case list == nil:
		return nil, fmt.Errorf("%w: no %s key", ErrNotCatalog, keyIntents)
	case list.Kind == yaml.ScalarNode && list.ShortTag() == "!!null":
		return nil, nil // `active_intents:` with nothing under it holds no intents
	case list.Kind != yaml.SequenceNode:
		return nil, fmt.Errorf("%w: %s is not a sequence (line %d)", ErrNotCatalog, keyIntents, list.Line)
	}
	return list.Content, nil
}

// lookup finds key in mapping m; a key given twice is an error, since editing one would leave the
// other deciding what the file means.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node, err error) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kk := m.Content[i]; kk.Kind == yaml.ScalarNode && kk.Value == key {
			if k != nil {
				return nil, nil, fmt.Errorf("key %s is given twice (lines %d and %d)", key, k.Line, kk.Line)
			}
			k, v = kk, m.Content[i+1]
		}
	}
	return k, v, nil
}

// idOf is the id of an intent mapping, or "" if it has none.
func idOf(m *yaml.Node) string {
	if m.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k, v := m.Content[i], m.Content[i+1]; k.Kind == yaml.ScalarNode && k.Value == keyID && v.Kind == yaml.ScalarNode {
			return v.Value
		}
	}
	return ""
}

// field looks up key in the intent, wrapping a duplicate-key error with the intent's id.
func (in *intent) field(key string) (k, v *yaml.Node, err error) {
	k, v, err = lookup(in.node, key)
	if err != nil {
		return nil, nil, fmt.Errorf("intent %q: %w", in.id, err)
	}
	return k, v, nil
}

// setScalar plans replacing the scalar value of key with value; tags are the tags a plain value may
// read back with.
func (c *catalog) setScalar(edits *[]edit, in *intent, key, value string, tags ...string) error {
	_, v, err := in.field(key)
	if err != nil {
		return err
	}
	if v == nil {
		return fmt.Errorf("intent %q has no %s", in.id, key)
	}
	return c.replaceScalar(edits, in, key, v, value, tags...)
}

func (c *catalog) replaceScalar(edits *[]edit, in *intent, key string, v *yaml.Node, value string, tags ...string) error {
	if v.Kind != yaml.ScalarNode && v.Kind != yaml.AliasNode {
		return fmt.Errorf("intent %q: %s is not a scalar (line %d)", in.id, key, v.Line)
	}
	if err := c.checkNotAliased(in, key, v); err != nil {
		return err
	}
	start, err := c.text.nodeOffset(v)
	if err != nil {
		return err
	}
	content, end := start, 0
	if v.Kind == yaml.AliasNode {
		end = c.text.aliasEnd(start)
	} else {
		var propsEnd int
		content, propsEnd = c.text.skipProperties(start)
		if end, err = c.text.scalarEnd(v, content, propsEnd, in.flow, in.indent); err != nil {
			return err
		}
		content = min(content, end) // an empty value with properties ends where they do
	}
	text := quote(value, quotingOf(v), in.flow, tags...)
	if content == end {
		// An empty value (`status:`) has no text to replace. In block style it sits right after the
		// colon or the properties; in flow style yaml.v3 puts it at the next token, which may not
		// even follow a colon, so there is no safe place for a value.
		if in.flow {
			return fmt.Errorf("intent %q: %s is empty; give it a value by hand first", in.id, key)
		}
		text = " " + text
	}
	*edits = append(*edits, edit{start: content, end: end, text: text})
	return nil
}

// checkNotAliased refuses to change a node that an alias elsewhere repeats.
func (c *catalog) checkNotAliased(in *intent, key string, v *yaml.Node) error {
	if v.Anchor == "" {
		return nil
	}
	if used := aliasTo(c.doc, v); used != nil {
		return fmt.Errorf("intent %q: %s is anchored as &%s and repeated by the alias on line %d; edit it by hand", in.id, key, v.Anchor, used.Line)
	}
	return nil
}

// aliasTo returns an alias node in the tree under n that refers to target, or nil.
func aliasTo(n, target *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias == target {
		return n
	}
	for _, child := range n.Content {
		if a := aliasTo(child, target); a != nil {
			return a
		}
	}
	return nil
}

// setUpdatedAt plans replacing updated_at, or inserting it after the intent's last key.
func (c *catalog) setUpdatedAt(edits *[]edit, in *intent, stamp string) error {
	return c.setTime(edits, in, keyUpdatedAt, stamp)
}

// setTime plans replacing a timestamp key's value, or inserting the key after the intent's last key.
func (c *catalog) setTime(edits *[]edit, in *intent, key, stamp string) error {
	_, v, err := in.field(key)
	if err != nil {
		return err
	}
	if v != nil {
		// A plain RFC 3339 value reads back as a timestamp, as the one it replaces did.
		return c.replaceScalar(edits, in, key, v, stamp, "!!timestamp", "!!str")
	}
	pairs := in.node.Content
	return c.insertAfter(edits, in, pairs[len(pairs)-2], pairs[len(pairs)-1], key+": "+doubleQuote(stamp))
}

// insertAfter plans inserting the pair `key: value` (line) after the pair key: value: in block style
// on a new line at the intent's key indentation, in flow style after the value, after a comma.
//
// One block layout forbids a line after the pair: a literal or folded scalar that runs to the end of a
// file without a final newline, whose value would gain a line break. The new line then goes before
// the key instead.
func (c *catalog) insertAfter(edits *[]edit, in *intent, key, value *yaml.Node, line string) error {
	end, err := c.text.end(value, in.flow, in.indent)
	if err != nil {
		return err
	}
	if in.flow {
		*edits = append(*edits, edit{start: end, end: end, text: ", " + line})
		return nil
	}
	line = strings.Repeat(" ", in.indent) + line
	at, atEOF := c.text.nextLine(end)
	switch {
	case !atEOF:
		line += c.eol
	case lastLeaf(value).Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		k, err := c.text.nodeOffset(key)
		if err != nil {
			return err
		}
		at = c.text.lineStart(k)
		if strings.Trim(string(c.data[at:k]), " \t") != "" {
			return fmt.Errorf("intent %q: no room for %q around the block scalar that ends the file; add a final newline", in.id, strings.TrimSpace(line))
		}
		line += c.eol
	default:
		line = c.eol + line // the file ends without a line break and must go on doing so
	}
	*edits = append(*edits, edit{start: at, end: at, text: line})
	return nil
}

// lastLeaf is the node whose text ends n's text.
func lastLeaf(n *yaml.Node) *yaml.Node {
	for (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	return n
}

// bumpVersion plans version+1, or inserting `version: 2` after status, and returns the new version.
func (c *catalog) bumpVersion(edits *[]edit, in *intent) (int, error) {
	_, v, err := in.field(keyVersion)
	if err != nil {
		return 0, err
	}
	if v == nil {
		sk, sv, err := in.field(keyStatus)
		if err != nil {
			return 0, err
		}
		if sv == nil {
			return 0, fmt.Errorf("intent %q has no %s to put version after", in.id, keyStatus)
		}
		return 2, c.insertAfter(edits, in, sk, sv, keyVersion+": 2")
	}
	var n int
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&n) != nil || n < 1 {
		return 0, fmt.Errorf("intent %q: version %q is not an integer >= 1 (line %d)", in.id, v.Value, v.Line)
	}
	if n == int(^uint(0)>>1) {
		return 0, fmt.Errorf("intent %q: version %d cannot be bumped", in.id, n)
	}
	return n + 1, c.replaceScalar(edits, in, keyVersion, v, strconv.Itoa(n+1), "!!int")
}

// setScope plans rewriting owned_scope as scope, in the style of the sequence it replaces.
func (c *catalog) setScope(edits *[]edit, in *intent, scope []string) error {
	_, v, err := in.field(keyScope)
	if err != nil {
		return err
	}
	if v == nil {
		return fmt.Errorf("intent %q has no %s", in.id, keyScope)
	}
	if v.Kind != yaml.SequenceNode {
		return fmt.Errorf("intent %q: %s is not a sequence (line %d)", in.id, keyScope, v.Line)
	}
	if err := c.checkNotAliased(in, keyScope, v); err != nil {
		return err
	}
	start, err := c.text.nodeOffset(v)
	if err != nil {
		return err
	}
	content, _ := c.text.skipProperties(start)
	end, err := c.text.end(v, in.flow, in.indent)
	if err != nil {
		return err
	}
	var text string
	if v.Style&yaml.FlowStyle != 0 {
		text, err = c.flowScope(v, content, end, scope)
	} else {
		text, err = c.blockScope(v, content, scope)
	}
	if err != nil {
		return err
	}
	*edits = append(*edits, edit{start: content, end: end, text: text})
	return nil
}

// flowScope writes scope as a flow sequence replacing data[open:end]: one line, or one item per line
// if the old sequence put its first item on a new line. Items take the first old item's quoting;
// an empty sequence gives double quotes.
func (c *catalog) flowScope(v *yaml.Node, open, end int, scope []string) (string, error) {
	d := c.data
	q := doubleQuoting
	if len(v.Content) > 0 && v.Content[0].Kind == yaml.ScalarNode {
		q = quotingOf(v.Content[0])
	}
	items := make([]string, len(scope))
	for i, s := range scope {
		items[i] = quote(s, q, true, "!!str")
	}
	closing := end - 1
	if len(v.Content) == 0 || v.Content[0].Line == lineOf(c.text, open) {
		pad := ""
		if len(v.Content) > 0 && d[open+1] == ' ' && d[closing-1] == ' ' {
			pad = " "
		}
		return "[" + pad + strings.Join(items, ", ") + pad + "]", nil
	}
	// Multi-line: keep the first item's indentation, a trailing comma if there was one, and the
	// closing bracket on its own line if it was.
	first, err := c.text.nodeOffset(v.Content[0])
	if err != nil {
		return "", err
	}
	indent := string(d[c.text.lineStart(first):first])
	lastEnd, err := c.text.end(v.Content[len(v.Content)-1], true, -1)
	if err != nil {
		return "", err
	}
	after := c.text.skipSeparation(lastEnd)
	trailing := after < len(d) && d[after] == ','
	closer := ""
	if ls := c.text.lineStart(closing); strings.Trim(string(d[ls:closing]), " \t") == "" {
		closer = c.eol + string(d[ls:closing])
	}
	var b strings.Builder
	b.WriteString("[")
	for i, item := range items {
		b.WriteString(c.eol + indent + item)
		if i < len(items)-1 || trailing {
			b.WriteString(",")
		}
	}
	b.WriteString(closer + "]")
	return b.String(), nil
}

// blockScope writes scope as block sequence items replacing the old items, which start at the first
// dash: each item on its own line at the dash's column, with the first old item's dash spacing and
// quoting.
func (c *catalog) blockScope(v *yaml.Node, dash int, scope []string) (string, error) {
	d := c.data
	if dash >= len(d) || d[dash] != '-' {
		return "", fmt.Errorf("%w: expected a dash at byte %d", errMismatch, dash)
	}
	first := v.Content[0]
	q := quotingOf(first)
	lead := "- "
	if at, err := c.text.nodeOffset(first); err == nil && at > dash && strings.Trim(string(d[dash+1:at]), " \t") == "" {
		lead = string(d[dash:at])
	}
	indent := strings.Repeat(" ", c.text.column(dash))
	var b strings.Builder
	for i, s := range scope {
		if i > 0 {
			b.WriteString(c.eol + indent)
		}
		b.WriteString(lead + quote(s, q, false, "!!str"))
	}
	return b.String(), nil
}

// lineOf is the 1-based line holding off.
func lineOf(t *text, off int) int {
	ls := t.lineStart(off)
	k, _ := slices.BinarySearch(t.lines, ls)
	return k + 1
}

// finish applies the edits and checks that the result reads back as the original with only the keys
// in want changed, each as want says.
func (c *catalog) finish(edits []edit, in *intent, want map[string]func(*yaml.Node) error) ([]byte, error) {
	out, err := apply(c.data, edits)
	if err != nil {
		return nil, err
	}
	if err := c.check(out, in, want); err != nil {
		return nil, fmt.Errorf("intent %q: %w", in.id, err)
	}
	return out, nil
}

// apply splices the edits into data. Edits must not overlap: each one owns its bytes.
func apply(data []byte, edits []edit) ([]byte, error) {
	slices.SortStableFunc(edits, func(a, b edit) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	size := len(data)
	for _, e := range edits {
		size += len(e.text)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, e := range edits {
		if e.start < last || e.end < e.start || e.end > len(data) {
			return nil, fmt.Errorf("%w: edits overlap at byte %d", errMismatch, e.start)
		}
		out = append(out, data[last:e.start]...)
		out = append(out, e.text...)
		last = e.end
	}
	return append(out, data[last:]...), nil
}
