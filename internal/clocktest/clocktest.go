// Package clocktest is the clock tests drive time-stamping code with, so
// that no test depends on the calendar: each reading moves it by a step,
// and a test sets it anywhere, across a month, a year or backwards.
package clocktest

import (
	"testing"
	"time"
)

// Clock is a test clock: Read moves Now by Step and returns it.
type Clock struct {
	Now  time.Time
	Step time.Duration
}

// Read is the clock's next reading, for a Now func() time.Time field.
func (c *Clock) Read() time.Time {
	c.Now = c.Now.Add(c.Step)
	return c.Now
}

// At parses an RFC 3339 time, failing the test when it does not parse.
func At(t testing.TB, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}
