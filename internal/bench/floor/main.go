// Command floor is the benchmark's floor: a Go program that only reads and
// decodes a hook event from stdin. No hook can cost less than starting a Go
// process and doing this; intenthook's latency is reported as a ratio to it.
package main

import (
	"encoding/json"
	"io"
	"os"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var event map[string]any
	if err := json.Unmarshal(data, &event); err != nil {
		os.Exit(1)
	}
}
