package proc

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBootTime: the boot time from CLOCK_BOOTTIME is /proc/stat's btime,
// which counts whole seconds, to within a second.
func TestBootTime(t *testing.T) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Skip(err)
	}
	var btime int64
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "btime "); ok {
			btime, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	if btime == 0 {
		t.Skip("no btime in /proc/stat")
	}
	got := bootTime()
	if d := got.Sub(time.Unix(btime, 0)); d < -time.Second || d > time.Second {
		t.Errorf("boot time %v, /proc/stat's btime %v: %v apart", got, time.Unix(btime, 0), d)
	}
}
