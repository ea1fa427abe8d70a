package doctor

import (
	"bytes"
	"os"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// exportBinary is the program a hook starts to export the ledger.
const exportBinary = "intenthook-export"

// checkExport says, when a hook is to start exports (export.when), whether
// the program is there and how the last export it started ended (its log,
// state/export/otlp.log). No line when exports are by hand only.
func checkExport(root string, getenv func(string) string) []Check {
	c, _ := config.Load(root, getenv)
	if c == nil || c.Export.When == config.WhenNever {
		return nil
	}
	const name = "export"
	if _, err := full.Beside(exportBinary); err != nil {
		return []Check{{Status: Warn, Name: name, Detail: "export.when is " + c.Export.When + ", but " + err.Error(), Hint: "make install puts intenthook-export beside intenthook (docs/otel.md)"}}
	}
	log, err := os.ReadFile(state.Path(root, "export", "otlp.log"))
	if err != nil {
		return []Check{{Status: Pass, Name: name, Detail: "at " + c.Export.When + "; no export started by a hook yet"}}
	}
	lines := bytes.Split(bytes.TrimRight(log, "\n"), []byte("\n"))
	last := safetext.Clip(safetext.Quote(string(lines[len(lines)-1])), 300)
	if bytes.HasPrefix(lines[len(lines)-1], []byte("intenthook: error:")) {
		return []Check{{Status: Warn, Name: name, Detail: "the last export a hook started failed: " + last, Hint: "run intenthook export otlp to see it again; the next export sends what was not sent"}}
	}
	return []Check{{Status: Pass, Name: name, Detail: "at " + c.Export.When + "; the last export a hook started: " + last}}
}
