package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/intenthook/intenthook/internal/guard"
)

// The deny's evidence stamps when a hook program was replaced in UTC,
// whatever offset the note's stamp carries.
func TestHookReplacedEvidenceUTC(t *testing.T) {
	for _, zone := range []string{"Pacific/Kiritimati", "America/St_Johns"} {
		t.Run(zone, func(t *testing.T) {
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			g := testGate(t, nil)
			bin := "bin/intenthook"
			p := filepath.Join(g.Root, filepath.FromSlash(bin))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("replaced"), 0o755); err != nil {
				t.Fatal(err)
			}
			h := hookProgram{g}
			at := time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC).In(loc)
			if _, err := guard.WriteReplaced(h.path(), guard.Replaced{Programs: map[string]string{bin: guard.ProgramPrint(p)}, Session: "s0", Command: "make", At: at}); err != nil {
				t.Fatal(err)
			}
			d, denied := h.check()
			if ev := fmt.Sprintf("%+v", d); !denied || !strings.Contains(ev, "2026-12-31T23:59:59Z") {
				t.Errorf("denied %v, decision %s: want the stamp 2026-12-31T23:59:59Z", denied, ev)
			}
		})
	}
}
