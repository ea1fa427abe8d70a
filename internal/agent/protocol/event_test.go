package protocol

import "testing"

// TestNativePath: backslashes become separators only in Windows-shaped
// paths, and only on Windows; elsewhere they are file name characters.
func TestNativePath(t *testing.T) {
	tests := []struct{ in, goos, want string }{
		{`C:\work\a.txt`, "windows", "C:/work/a.txt"},
		{`c:/work\a.txt`, "windows", "c:/work/a.txt"},
		{`\\server\share\a.txt`, "windows", "//server/share/a.txt"},
		{`work\a.txt`, "windows", `work\a.txt`},
		{`C:\work\a.txt`, "linux", `C:\work\a.txt`},
		{`C:\a\b/../../../x`, "linux", `C:\a\b/../../../x`},
		{`/p/a\b.txt`, "linux", `/p/a\b.txt`},
	}
	for _, tt := range tests {
		if got := nativePath(tt.in, tt.goos); got != tt.want {
			t.Errorf("nativePath(%q, %s) = %q, want %q", tt.in, tt.goos, got, tt.want)
		}
	}
}
