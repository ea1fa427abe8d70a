package attest

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is the predicate's JSON Schema (draft 2020-12), as the
// repository holds it: internal/attest/agent-work.v1.schema.json.
//
//go:embed agent-work.v1.schema.json
var Schema []byte

// SchemaID is the schema's $id.
const SchemaID = "https://intenthook.dev/attestation/agent-work/v1/schema.json"

// compileSchema compiles Schema.
func compileSchema() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		return nil, fmt.Errorf("the predicate's schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		return nil, fmt.Errorf("the predicate's schema: %w", err)
	}
	return c.Compile(SchemaID)
}

// ValidatePredicate checks a predicate's JSON against Schema.
func ValidatePredicate(predicate []byte) error {
	sch, err := compileSchema()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(predicate))
	if err != nil {
		return fmt.Errorf("the predicate is not JSON: %w", err)
	}
	return sch.Validate(inst)
}
