//go:build !noyaml

package config

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestServeParse: settings parsed for the hook binary (ServeParse, read
// back as JSON the way yaml_noyaml.go does) are the settings parsed here,
// warnings and refusals included.
func TestServeParse(t *testing.T) {
	tests := []string{
		"---\nfail_mode: closed\n",
		"outside_allow: &a [\"/tmp/**\"]\nprotected_paths: *a\n",
		"tools: {mcp__x__write: write}\nroles: {reviewer: {tools: [Read], intents: [INT-001]}}\nloop: {repeats: 2, window: 90s, action: block}\n",
		"lock_timeout: 3s\nledger: {fsync: true, shell: all}\nbogus: 1\n",
		"outside_allow: []\nshell: {destructive: deny}\n",
		"fail_mode: [\n",
		"- a list\n",
		"",
	}
	for _, text := range tests {
		want := Default()
		wantErr := want.parseYAML([]byte(text))
		out, err := ServeParse([]byte(text))
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("ServeParse(%q) error = %v, want %v", text, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		var got Config
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&got, want) {
			t.Errorf("ServeParse(%q):\n got %+v\nwant %+v", text, got, *want)
		}
	}
}
