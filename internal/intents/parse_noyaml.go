//go:build noyaml

package intents

import (
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/full"
)

// Parse parses catalog bytes in the full binary (this build links no YAML
// parser): only a catalog the cache has not seen comes here, once per
// change of the catalog.
func Parse(data []byte) (*Catalog, error) {
	out, err := full.Call("catalog", data)
	if err != nil {
		if msg, ok := strings.CutPrefix(err.Error(), ErrNotYAML.Error()); ok {
			return nil, fmt.Errorf("%w%s", ErrNotYAML, msg)
		}
		return nil, err
	}
	return fromCacheBytes(out, digestOf(data))
}
