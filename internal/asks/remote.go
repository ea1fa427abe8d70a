package asks

// What a hook and a console on another machine say to each other
// (ask.console, docs/console.md): the hook files an ask (POST
// /hook/asks, a Filed) and polls for its answer (GET /hook/asks/{id}, a
// Status), with a hook token that can do nothing else; only a person's
// session in that console answers.

// Filed is an ask as a hook files it with a console on another machine:
// the ask, and the machine whose hook waits on it.
type Filed struct {
	Ask     Ask    `json:"ask"`
	Machine string `json:"machine,omitempty"`
}

// States of a filed ask.
const (
	StatePending  = "pending"
	StateAnswered = "answered"
)

// Status is what a console says of an ask filed with it: pending, or
// answered, with the answer.
type Status struct {
	State  string  `json:"state"`
	Answer *Answer `json:"answer,omitempty"`
}

// RemoteAnswer is what the hook's helper (intenthook-console __ask-remote)
// prints for the hook: the id the console took the ask under, and the
// person's answer.
type RemoteAnswer struct {
	ID     string `json:"id"`
	Answer Answer `json:"answer"`
}

// RemoteCommand is the hidden command of intenthook-console (full.Console)
// a hook runs to file an ask with a console on another machine and wait
// for its answer: the hook's binary links no HTTP client. It reads a Filed
// on stdin, and prints a RemoteAnswer and exits 0, or exits RemoteNoAnswer
// when no answer came by the ask's deadline, or 1 when the console could
// not be asked (stderr says why).
const RemoteCommand = "__ask-remote"

// RemoteNoAnswer is RemoteCommand's exit code when no one answered in time.
const RemoteNoAnswer = 4

// NewID is a fresh ask id, as Open gives one.
func NewID() string { return newID() }

// ValidID reports whether id has the form of an ask's id.
func ValidID(id string) bool { return validID(id) }
