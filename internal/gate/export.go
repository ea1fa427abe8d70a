package gate

import (
	"os"
	"time"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// ExportBinary sends the ledger to an OpenTelemetry collector; it is
// looked for beside the hook binary, like intenthook-full.
const ExportBinary = "intenthook-export"

// stopEvery spaces the exports Stop starts: Stop fires after every turn.
const stopEvery = 5 * time.Minute

// exportStamp is touched whenever a hook starts an export.
const exportStamp = "started"

// startExport starts `intenthook-export otlp --auto` detached when
// export.when asks for it at this event: at SessionEnd for session_end; at
// SessionEnd and, at most every stopEvery, at Stop for stop. It only looks
// at a stamp file: the export reads the ledger, the hook never does.
func (g *Gate) startExport() {
	when := g.Config.Export.When
	switch {
	case when == config.WhenStop:
	case when == config.WhenSessionEnd && g.call.Event == hook.SessionEnd:
	default:
		return
	}
	stamp := state.Path(g.Root, "export", exportStamp)
	now := g.env.now()
	if g.call.Event == hook.Stop {
		if st, err := os.Stat(stamp); err == nil && now.Sub(st.ModTime()) < stopEvery {
			g.explain.step("export", "skip", "an export started less than "+stopEvery.String()+" ago")
			return
		}
	}
	path, err := full.Beside(ExportBinary)
	if err != nil {
		g.notes = append(g.notes, "intenthook: warning: export.when is "+when+", but "+safetext.OneLine(err.Error()))
		return
	}
	if err := state.Ensure(g.Root, "export"); err == nil {
		if f, err := osfile.OpenFile(stamp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); err == nil {
			f.Close()
			os.Chtimes(stamp, now, now)
		}
	}
	if err := full.Detach(path, []string{"otlp", "--auto", "--root", g.Root}, g.Root); err != nil {
		g.notes = append(g.notes, "intenthook: warning: "+safetext.OneLine(err.Error()))
		return
	}
	g.explain.step("export", "start", path)
}
