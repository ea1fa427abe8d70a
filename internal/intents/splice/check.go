//go:build !noyaml

package splice

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// check parses out and compares it with the original tree: every node must be unchanged (kind, tag,
// style, value, anchor) except, in the edited intent, the keys in want, whose new values want checks.
// Positions and comments are not compared: inserted lines move them, and yaml.v3 attaches comments to
// nodes by proximity. The bytes outside the edits are unchanged by construction.
func (c *catalog) check(out []byte, in *intent, want map[string]func(*yaml.Node) error) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(out, &doc); err != nil {
		return fmt.Errorf("%w: the result does not parse: %w", errMismatch, err)
	}
	return sameNode(c.doc, &doc, in.node, want)
}

// sameNode compares a (original) with b (result); the node target is compared with sameIntent.
func sameNode(a, b, target *yaml.Node, want map[string]func(*yaml.Node) error) error {
	if a == target {
		return sameIntent(a, b, target, want)
	}
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Style != b.Style || a.Value != b.Value || a.Anchor != b.Anchor || len(a.Content) != len(b.Content) {
		return fmt.Errorf("%w: the node at line %d changed", errMismatch, a.Line)
	}
	for i := range a.Content {
		if err := sameNode(a.Content[i], b.Content[i], target, want); err != nil {
			return err
		}
	}
	return nil
}

// sameIntent compares the edited intent: its other pairs in order, and the keys in want by want.
func sameIntent(a, b, target *yaml.Node, want map[string]func(*yaml.Node) error) error {
	if b.Kind != yaml.MappingNode || a.Style != b.Style || a.Tag != b.Tag || a.Anchor != b.Anchor {
		return fmt.Errorf("%w: the intent at line %d changed shape", errMismatch, a.Line)
	}
	others := func(m *yaml.Node) []*yaml.Node {
		var rest []*yaml.Node
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i]; k.Kind != yaml.ScalarNode || want[k.Value] == nil {
				rest = append(rest, k, m.Content[i+1])
			}
		}
		return rest
	}
	ra, rb := others(a), others(b)
	if len(ra) != len(rb) {
		return fmt.Errorf("%w: the intent at line %d gained or lost keys", errMismatch, a.Line)
	}
	for i := range ra {
		if err := sameNode(ra[i], rb[i], target, want); err != nil {
			return err
		}
	}
	for key, ok := range want {
		var found []*yaml.Node
		for i := 0; i+1 < len(b.Content); i += 2 {
			if k := b.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
				found = append(found, b.Content[i+1])
			}
		}
		if len(found) != 1 {
			return fmt.Errorf("%w: the result has %d %s keys", errMismatch, len(found), key)
		}
		if err := ok(found[0]); err != nil {
			return fmt.Errorf("%w: %s: %w", errMismatch, key, err)
		}
	}
	return nil
}

// wantString checks for a scalar holding value and read with one of tags.
func wantString(value string, tags ...string) func(*yaml.Node) error {
	return func(n *yaml.Node) error {
		if n.Kind != yaml.ScalarNode || n.Value != value || !slices.Contains(tags, n.ShortTag()) {
			return fmt.Errorf("got %s %q, want %q", n.ShortTag(), n.Value, value)
		}
		return nil
	}
}

// wantInt checks for an integer scalar holding value.
func wantInt(value int) func(*yaml.Node) error {
	return func(n *yaml.Node) error {
		var got int
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&got) != nil || got != value {
			return fmt.Errorf("got %s %q, want %d", n.ShortTag(), n.Value, value)
		}
		return nil
	}
}

// wantScope checks for a sequence of strings equal to scope.
func wantScope(scope []string) func(*yaml.Node) error {
	return func(n *yaml.Node) error {
		if n.Kind != yaml.SequenceNode || len(n.Content) != len(scope) {
			return fmt.Errorf("got %s with %d items, want %d strings", n.ShortTag(), len(n.Content), len(scope))
		}
		for i, item := range n.Content {
			if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" || item.Value != scope[i] {
				return fmt.Errorf("item %d: got %s %q, want %q", i+1, item.ShortTag(), item.Value, scope[i])
			}
		}
		return nil
	}
}
