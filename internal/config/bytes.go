package config

import "fmt"

// FromBytes reads settings given as bytes (a revision's config.yaml, a
// replay's candidate) over the defaults, clamped as Load clamps a file's;
// the environment does not apply. Empty data is the defaults.
func FromBytes(data []byte) (*Config, error) {
	c := Default()
	if len(data) > 0 {
		if err := c.parse(data); err != nil {
			return c, fmt.Errorf("%s: %w", File, err)
		}
	}
	c.clamp()
	c.clampExport()
	return c, c.check()
}
