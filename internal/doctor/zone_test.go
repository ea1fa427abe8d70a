package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/workspace"
)

// doctor prints when a hook program was replaced in UTC, as it says, also
// when the note's stamp carries another zone's offset: the year's last
// second in UTC is already the next year's afternoon on Kiritimati and
// still the old year's evening in St. John's.
func TestHookReplacedStampUTC(t *testing.T) {
	for _, zone := range []string{"Pacific/Kiritimati", "America/St_Johns", "UTC"} {
		t.Run(zone, func(t *testing.T) {
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			bin := "bin/intenthook"
			p := filepath.Join(root, filepath.FromSlash(bin))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("replaced"), 0o755); err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC).In(loc)
			note := guard.Replaced{Programs: map[string]string{bin: guard.ProgramPrint(p)}, Session: "s1", Command: "make", At: at}
			if _, err := guard.WriteReplaced(filepath.Join(root, filepath.FromSlash(workspace.HookReplacedFile)), note); err != nil {
				t.Fatal(err)
			}
			got := checkHookReplaced(root)
			if len(got) != 1 || !strings.Contains(got[0].Detail, "(2026-12-31 23:59:59Z)") {
				t.Errorf("checks %+v: want the stamp (2026-12-31 23:59:59Z)", got)
			}
		})
	}
}
