package intents

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// fingerprint identifies the catalog file's version without reading it:
// device, inode, size, and the modification and change times to the
// nanosecond. No program can set the change time, and any write moves it;
// two writes within one tick of the clock could share it, so the
// fingerprint is only trusted once the file has settled (settleTime).
// It returns "" when the file system does not tell.
func fingerprint(st os.FileInfo) (fp string, changed time.Time) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "", time.Time{}
	}
	b := strconv.AppendUint(nil, s.Dev, 10)
	for _, v := range []int64{int64(s.Ino), s.Size, s.Mtim.Sec, s.Mtim.Nsec, s.Ctim.Sec, s.Ctim.Nsec} {
		b = strconv.AppendInt(append(b, ':'), v, 10)
	}
	return string(b), time.Unix(s.Ctim.Sec, s.Ctim.Nsec)
}
