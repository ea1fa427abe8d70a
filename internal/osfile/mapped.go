package osfile

import "runtime/debug"

// Faulted runs f and reports whether it faulted on mapped memory (a file
// cut short under its mapping), which would otherwise crash the process.
// Any other panic goes on.
func Faulted(f func()) (fault bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			fault = true
		}
	}()
	f()
	return false
}
