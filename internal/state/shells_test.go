package state

import (
	"strconv"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/proc"
)

func TestAgentAct(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	windows := parseWindows([]byte(
		"+ YjE czE "+itoa(at(0))+" 500 400 0\n"+ // s1's command b1, 10:00:00 to 10:00:10
			"- YjE "+itoa(at(10))+"\n"+
			"+ YjI czI "+itoa(at(100))+" 700 700 1\n"+ // s2's, run in a terminal, never closed
			"+ YjM czI "+itoa(at(200))+" 700 700 1\n", // s2's next: b2 ends here
	), at(300))
	if len(windows) != 3 || !windows[1].End.Equal(at(200)) || !windows[2].End.IsZero() {
		t.Fatalf("windows %+v", windows)
	}
	orphan := func(p proc.Info) bool { return p.PPID == 1 }
	for _, c := range []struct {
		name    string
		chain   []proc.Info
		session string
	}{
		{"a setsid child of s1's command, reparented to init", []proc.Info{{PID: 9, PPID: 8, PGID: 9, SID: 9, Start: at(50)}, {PID: 8, PPID: 1, PGID: 8, SID: 8, Start: at(5)}}, "s1"},
		{"the same, still its parent's", []proc.Info{{PID: 9, PPID: 8, Start: at(50)}, {PID: 8, PPID: 7, Start: at(5)}, {PID: 7, PPID: 1, Start: at(-50)}}, ""},
		{"started after the window", []proc.Info{{PID: 8, PPID: 1, Start: at(20)}}, ""},
		{"a person's terminal opened during the window", []proc.Info{{PID: 9, PPID: 8, PGID: 9, SID: 8, TTY: true, Start: at(5)}, {PID: 8, PPID: 1, SID: 8, Start: at(5)}}, ""},
		{"in the group of s2's agent, which has a terminal", []proc.Info{{PID: 9, PPID: 1, PGID: 700, SID: 7, TTY: true, Start: at(1000)}}, "s2"},
		{"in the group of s1's agent, which has none", []proc.Info{{PID: 9, PPID: 3, PGID: 500, SID: 400, Start: at(1000)}}, ""},
		{"an open window runs until now", []proc.Info{{PID: 9, PPID: 1, Start: at(250)}}, "s2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, why, ok := agentAct(windows, c.chain, at(300), orphan)
			if ok != (c.session != "") || w.Session != c.session {
				t.Errorf("agentAct = %q, %q, %v; want session %q", w.Session, why, ok, c.session)
			}
		})
	}
}

func itoa(t time.Time) string { return strconv.FormatInt(t.UnixNano(), 10) }
