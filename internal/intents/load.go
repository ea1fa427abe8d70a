package intents

import (
	"errors"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// File is the catalog's path relative to the workspace root.
const File = ".orchestration/active_intents.yaml"

// ErrNotYAML marks a catalog that cannot be parsed at all; the hooks treat it
// as an error (fail mode), not as a catalog with invalid intents.
var ErrNotYAML = errors.New("catalog is not valid YAML")

// validID reports whether id matches ^[A-Z]+-\d{3,}$.
func validID(id string) bool {
	prefix, digits, ok := strings.Cut(id, "-")
	if !ok || prefix == "" || len(digits) < 3 {
		return false
	}
	for _, c := range []byte(prefix) {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Load reads and parses the catalog at path.
func Load(path string) (*Catalog, error) {
	data, err := osfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	return Parse(data)
}
