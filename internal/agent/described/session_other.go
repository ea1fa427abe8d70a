//go:build !linux && !darwin

package described

// processInfo is not supported here (Windows among others): a sessionless
// agent's calls share one session.
func processInfo(pid int) (name string, parent int, start string, ok bool) {
	return "", 0, "", false
}
