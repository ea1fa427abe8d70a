package intents

import "fmt"

// transitions lists the statuses the state machine allows from s. A
// switch, not a map: a map literal is built by the package's initialiser
// on every hook's start.
func transitions(s Status) []Status {
	switch s {
	case Pending:
		return []Status{InProgress, Archived}
	case InProgress:
		return []Status{Complete, InReview, Blocked, Archived}
	case InReview:
		return []Status{Complete, InProgress, Archived}
	case Blocked:
		return []Status{InProgress, Archived}
	case Complete:
		return []Status{Archived}
	}
	return nil
}

// CheckTransition returns nil when from -> to is allowed by the state machine
// of SPEC §2, else an error saying why not.
func CheckTransition(from, to Status) error {
	if !to.Valid() {
		return fmt.Errorf("%s is not a status (%s)", to, StatusNames)
	}
	if from == to {
		return fmt.Errorf("%s -> %s: the intent already has that status", from, to)
	}
	for _, s := range transitions(from) {
		if s == to {
			return nil
		}
	}
	switch from {
	case Archived:
		return fmt.Errorf("%s -> %s: archived intents are terminal", from, to)
	case Complete:
		return fmt.Errorf("%s -> %s: completed work is immutable", from, to)
	}
	return fmt.Errorf("%s -> %s: not an allowed transition (from %s: %v)", from, to, from, transitions(from))
}
