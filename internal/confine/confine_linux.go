package confine

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Available reports whether the kernel enforces Landlock.
func Available() bool {
	v, err := llsys.LandlockGetABIVersion()
	return err == nil && v >= 1
}

// Main is the re-executed helper: it restricts this process to writing
// what its arguments name (and, offline, to no network), then executes the
// check in its place. Its exit code is 126 when it cannot, as a shell's is
// for a command it cannot run.
func Main(args []string, stderr io.Writer) int {
	h, ok := parse(args)
	if !ok {
		fmt.Fprintln(stderr, "intenthook: __confine: usage: __confine [--offline] [--rw DIR | --rw-file FILE]... -- PROGRAM [ARG]...")
		return 126
	}
	if h.tmp != "" {
		h.dirs = append(h.dirs, h.tmp)
		os.Setenv("TMPDIR", h.tmp)
	}
	if h.offline {
		if err := offline(h.hostNet); err != nil {
			fmt.Fprintf(stderr, "intenthook: cannot take the check off the network: %v\n", err)
			return 126
		}
	}
	rules := []landlock.Rule{landlock.RODirs("/")}
	if len(h.dirs) > 0 {
		rules = append(rules, landlock.RWDirs(h.dirs...).IgnoreIfMissing())
	}
	rules = append(rules, landlock.RWFiles(append(h.files, Devices...)...).IgnoreIfMissing())
	// Strict where the kernel has Landlock: a check must not run with less
	// confinement than reported. BestEffort only takes away the rights of
	// newer ABIs the kernel lacks.
	if err := landlock.V5.BestEffort().RestrictPaths(rules...); err != nil {
		fmt.Fprintf(stderr, "intenthook: cannot confine the check: %v\n", err)
		return 126
	}
	prog, err := exec.LookPath(h.argv[0])
	if err != nil {
		fmt.Fprintf(stderr, "intenthook: %v\n", err)
		return 127
	}
	err = syscall.Exec(prog, h.argv, os.Environ())
	fmt.Fprintf(stderr, "intenthook: %v\n", err)
	return 126
}

// offline takes this process off the network: in a network namespace of
// its own (the parent, in hostNet, started it in one: Isolate) it brings
// that namespace's loopback up, so that a check's own servers work; where
// the parent could not, Landlock denies every TCP bind and connect, and
// UDP where the kernel can.
func offline(hostNet string) error {
	if self, err := os.Readlink("/proc/self/ns/net"); err == nil && hostNet != "" && self != hostNet {
		err := loopbackUp()
		// The capability Isolate lent for it is not the check's.
		if cerr := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err == nil {
			err = cerr
		}
		return err
	}
	return landlock.V11.BestEffort().RestrictNet()
}

// loopbackUp sets lo up, as ip link set lo up does.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var req [unix.IFNAMSIZ + 24]byte // struct ifreq: a name, then a union
	copy(req[:], "lo")
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&req[0]))); errno != 0 {
		return errno
	}
	flags := (*uint16)(unsafe.Pointer(&req[unix.IFNAMSIZ]))
	*flags |= unix.IFF_UP
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&req[0]))); errno != 0 {
		return errno
	}
	return nil
}

// Isolate starts cmd in a user and network namespace of its own: the
// network it sees is a loopback of its own; its user is the same user, so
// it reads and writes what it did. Where the kernel refuses user
// namespaces, cmd.Start fails: the caller starts it again without
// and the helper falls back on Landlock.
func Isolate(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	cmd.SysProcAttr.GidMappingsEnableSetgroups = false
	// A user other than root keeps no capability across exec: the helper
	// needs this one to bring its loopback up, and gives it up then.
	cmd.SysProcAttr.AmbientCaps = []uintptr{unix.CAP_NET_ADMIN}
}

// Network says how an offline check is kept off the network here: a
// network namespace, when this process can give a child one; else
// Landlock's network rules, when the kernel has them; else nothing.
func Network() string {
	cmd := exec.Command("sh", "-c", ":")
	Isolate(cmd)
	if err := cmd.Run(); err == nil {
		return NetNamespace
	}
	if v, err := llsys.LandlockGetABIVersion(); err == nil && v >= 4 {
		return NetLandlock
	}
	return NetNone
}
