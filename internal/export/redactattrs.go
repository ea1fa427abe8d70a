package export

import "github.com/intenthook/intenthook/internal/redact"

// redactAttrs applies the ledger's redaction to string values.
func redactAttrs(attrs []Attr) []Attr {
	for i, a := range attrs {
		if s, ok := a.Value.(string); ok {
			if r, changed := redact.Text(s); changed {
				attrs[i].Value = r
			}
		}
	}
	return attrs
}
