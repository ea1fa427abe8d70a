//go:build noyaml

package config

import (
	"encoding/json"
	"fmt"

	"github.com/intenthook/intenthook/internal/full"
)

// parseYAML reads settings outside the plain subset fastParse reads in the
// full binary (this build links no YAML parser).
func (c *Config) parseYAML(data []byte) error {
	out, err := full.Call("config", data)
	if err != nil {
		return err
	}
	var parsed Config
	if err := json.Unmarshal(out, &parsed); err != nil {
		return fmt.Errorf("the settings' parse came back unreadable: %v", err)
	}
	*c = parsed
	return nil
}
