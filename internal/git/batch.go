package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Object is one reply of `git cat-file --batch`.
type Object struct {
	ID   string // the object id
	Type string
	Size int64
	Body io.Reader // exactly Size bytes
}

// Blob returns the content of obj when it is a blob, nil for a missing
// object or another type.
func Blob(obj *Object) ([]byte, error) {
	if obj == nil || obj.Type != "blob" {
		return nil, nil
	}
	b := make([]byte, obj.Size)
	_, err := io.ReadFull(obj.Body, b)
	return b, err
}

// Batchable reports whether an object name can be asked for on cat-file's
// input, which is one name per line (a trailing CR is dropped by git).
func Batchable(name string) bool {
	return !strings.ContainsRune(name, '\n') && !strings.HasSuffix(name, "\r")
}

// ReadObjects reads the objects names (each Batchable: ":0:<path>" for an
// index entry, "<rev>:<path>" for a blob of a commit) with one `git cat-file
// --batch` process, calling each with the position of the name and its
// object, or nil when the name resolves to nothing.
func (r *Repo) ReadObjects(ctx context.Context, names []string, each func(i int, obj *Object) error) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := r.Command(ctx, "cat-file", "--batch", "--buffer")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	// Requests go in from their own goroutine: git answers while it reads,
	// and a writer that waited for the reader would deadlock on full pipes.
	written := make(chan error, 1)
	go func() { written <- writeRequests(stdin, names) }()
	readErr := readReplies(bufio.NewReaderSize(stdout, 64<<10), len(names), each)
	if readErr != nil {
		cancel() // stop git, so that the writer and Wait return
	}
	writeErr := <-written
	waitErr := cmd.Wait()
	switch {
	case readErr != nil:
		return readErr
	case writeErr != nil:
		return fmt.Errorf("git cat-file: %w", writeErr)
	case waitErr != nil:
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()+" "+waitErr.Error()), "\n")
		return fmt.Errorf("git cat-file: %s", msg)
	}
	return nil
}

func writeRequests(w io.WriteCloser, names []string) error {
	bw := bufio.NewWriter(w)
	for _, n := range names {
		if _, err := bw.WriteString(n + "\n"); err != nil {
			_ = w.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		_ = w.Close()
		return err
	}
	return w.Close()
}

// readReplies parses n replies: "<oid> <type> <size>\n<content>\n", or
// "<name> missing\n" for a name that resolves to nothing.
func readReplies(r *bufio.Reader, n int, each func(int, *Object) error) error {
	for i := range n {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: reply %d: %w", i+1, err)
		}
		header = strings.TrimSuffix(header, "\n")
		if strings.HasSuffix(header, " missing") {
			if err := each(i, nil); err != nil {
				return err
			}
			continue
		}
		obj, err := parseHeader(header)
		if err != nil {
			return err
		}
		body := io.LimitReader(r, obj.Size)
		obj.Body = body
		if err := each(i, obj); err != nil {
			return err
		}
		// Whatever each left unread, and the newline after the content.
		if _, err := io.Copy(io.Discard, body); err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		if b, err := r.ReadByte(); err != nil || b != '\n' {
			return errors.New("git cat-file: reply not followed by a newline")
		}
	}
	return nil
}

func parseHeader(h string) (*Object, error) {
	f := strings.Fields(h)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: unexpected reply %q", h)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("git cat-file: unexpected reply %q", h)
	}
	return &Object{ID: f[0], Type: f[1], Size: size}, nil
}

// ObjectSizes fills sizes with the size of each named object (-1 for a
// name that resolves to nothing), from one `git cat-file --batch-check`
// process: no object's content is read.
func (r *Repo) ObjectSizes(ctx context.Context, names []string, sizes []int64) error {
	lines, err := r.batchCheck(ctx, names, "%(objectsize)")
	for i, l := range lines {
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			n = -1 // "<name> missing"
		}
		sizes[i] = n
	}
	return err
}

// ObjectIDs fills ids with the id of each named object ("" for a name that
// resolves to nothing), from one `git cat-file --batch-check` process: no
// object's content is read.
func (r *Repo) ObjectIDs(ctx context.Context, names []string, ids []string) error {
	lines, err := r.batchCheck(ctx, names, "%(objectname)")
	for i, l := range lines {
		if strings.ContainsRune(l, ' ') {
			l = "" // "<name> missing", "<name> ambiguous"
		}
		ids[i] = l
	}
	return err
}

// batchCheck asks one `git cat-file --batch-check=<format>` about names and
// returns its reply to each, in order.
func (r *Repo) batchCheck(ctx context.Context, names []string, format string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	cmd := r.Command(ctx, "cat-file", "--batch-check="+format)
	var in bytes.Buffer
	for _, n := range names {
		in.WriteString(n + "\n")
	}
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file --batch-check: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(names) {
		return nil, fmt.Errorf("git cat-file --batch-check: %d replies for %d names", len(lines), len(names))
	}
	return lines, nil
}
