//go:build !linux && !darwin

package proc

func get(int) (Info, bool) { return Info{}, false }
