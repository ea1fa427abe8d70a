//go:build !noyaml

package config

import (
	"encoding/json"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// parseYAML reads settings with yaml.v3: whatever fastParse leaves.
func (c *Config) parseYAML(data []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return err
	}
	if len(doc.Content) == 0 {
		return nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return errors.New("expected a mapping of settings")
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if k := top.Content[i]; !known(k.Value) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s:%d: unknown setting %q", File, k.Line, k.Value))
		}
	}
	return top.Decode(c)
}

// ServeParse is the full binary's side of parseYAML in a hook binary built
// without YAML (yaml_noyaml.go): the settings data gives over the
// defaults, as JSON.
func ServeParse(data []byte) ([]byte, error) {
	c := Default()
	if err := c.parseYAML(data); err != nil {
		return nil, err
	}
	return json.Marshal(c)
}
