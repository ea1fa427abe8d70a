//go:build !unix && !windows

package full

import "syscall"

func detached() *syscall.SysProcAttr { return nil }
