// Package export sends the ledger's records to an OpenTelemetry pipeline as
// OTLP log records, one per record, at least once: a cursor under
// state/export/ says what each ledger file has sent, and moves only after
// the collector accepted a batch. It runs in its own binary
// (intenthook-export), never on a hook's path: the OpenTelemetry SDK's and
// gRPC's package initialisation must not be paid by every tool call. It
// reads the ledger through package ledger and does not write it.
package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// Options is one export run.
type Options struct {
	Root    string
	Getenv  func(string) string
	Version string
	// Records overrides export.records ("own" or "all") when set.
	Records string
	// Auto marks a run a hook started: it gives way at once to an export
	// already running instead of waiting for it.
	Auto bool
	// Progress, when set, gets a progress line rewritten in place (a
	// terminal).
	Progress io.Writer
	// Notes gets what a person should know: files that changed under the
	// cursor, records skipped.
	Notes io.Writer
}

// Summary is what a run did.
type Summary struct {
	Target  Target
	Files   int   // ledger files looked at
	Sent    int64 // records the collector accepted in this run
	Batches int
	Skipped int64 // lines that are no record
}

// ErrBusy is returned when another export holds the lock and the run gave way.
var ErrBusy = errors.New("another export of this workspace is running")

// lockWait is how long a run by hand waits for one already running.
const lockWait = 2 * time.Minute

// Run sends the records not sent yet.
func Run(ctx context.Context, o Options) (Summary, error) {
	var sum Summary
	cfg, err := config.Load(o.Root, o.Getenv)
	if err != nil {
		return sum, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(o.Notes, "intenthook: warning: %s\n", safetext.OneLine(w))
	}
	t, err := Resolve(cfg.Export, o.Getenv)
	if err != nil {
		return sum, err
	}
	if o.Records != "" {
		t.Records = o.Records
	}
	sum.Target = t
	wait := lockWait
	if o.Auto {
		wait = 0
	}
	unlock, err := state.Lock(ctx, o.Root, lockName, wait)
	if errors.Is(err, state.ErrLockTimeout) {
		return sum, ErrBusy
	}
	if err != nil {
		return sum, err
	}
	defer unlock()
	store := StoreFor(o.Root, t.URL)
	cur, err := store.LoadCursor()
	if err != nil {
		return sum, err
	}
	files, err := ledger.Files(o.Root)
	if err != nil {
		return sum, err
	}
	files = Owned(o.Root, files, t.Records)
	s, err := newSender(ctx, t, o.Version)
	if err != nil {
		return sum, err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), t.Timeout)
		defer cancel()
		s.close(ctx)
	}()
	if o.Progress != nil {
		// The progress line is rewritten in place; whatever comes after it
		// starts on a clean line.
		defer func() {
			if sum.Sent > 0 {
				fmt.Fprint(o.Progress, "\r\033[K")
			}
		}()
	}
	repo := Repo{URL: RepoURL(remote(ctx, o.Root))}
	r := &run{o: o, t: t, store: store, cur: cur, s: s, repo: repo, sum: &sum}
	for _, name := range files {
		sum.Files++
		if err := r.file(ctx, name); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// Owned keeps the ledger files this clone exports under rule records:
// "all" (CI) every one; "own" the segments this work tree's writer wrote,
// so that a teammate's records, which their commits bring, are sent by
// their clone alone, and the legacy file from before segments, which every
// clone wrote (the backend drops what two clones send by log.record.uid).
func Owned(root string, files []string, records string) []string {
	if records == config.RecordsAll {
		return files
	}
	w := ledger.WriterID(root)
	var own []string
	for _, f := range files {
		s, ok := ledger.ParseSegment(f)
		if !ok || w != "" && s.Writer == w {
			own = append(own, f)
		}
	}
	return own
}

// remote is the repository's origin URL, "" when there is none.
func remote(ctx context.Context, root string) string {
	url, err := git.Line(ctx, root, "config", "--get", "remote.origin.url")
	if err != nil {
		return ""
	}
	return url
}

type run struct {
	o     Options
	t     Target
	store Store
	cur   *Cursor
	s     sender
	repo  Repo
	sum   *Summary
}

// file sends what one ledger file has not sent yet, in batches.
func (r *run) file(ctx context.Context, name string) error {
	fc := r.cur.Of(name)
	start, sent, err := r.resume(name, fc)
	if err != nil {
		return err
	}
	// After a batch the collector took only in part, its records go one
	// per request, so that the one it rejects is known, reported and
	// skipped instead of stopping every export after it.
	singles := 0
	if fc.Rejected && sent == nil {
		singles = r.t.Batch
		fmt.Fprintf(r.o.Notes, "intenthook: note: %s: the collector rejected part of the batch at byte %d last time; sending it one record per request\n", safetext.Quote(name), fc.Bytes)
	}
	size := fileSize(r.o.Root, name)
	var (
		batch []Entry
		uids  []string
		end   int64
		last  []byte
	)
	advance := func(n int) error {
		fc.Bytes, fc.Last, fc.Records = end, lineDigest(last), fc.Records+int64(n)
		if singles > 0 {
			if singles--; singles == 0 {
				fc.Rejected = false
			}
		}
		r.cur.set(fc)
		return r.store.save(r.cur)
	}
	flush := func() error {
		if len(batch) == 0 {
			// Lines that are no record (or records sent before) still move
			// the cursor, once nothing before them waits.
			if end > fc.Bytes || sent != nil {
				return advance(0)
			}
			return nil
		}
		err := r.s.send(ctx, batch)
		switch {
		case errors.Is(err, ErrRejected) && singles > 0:
			fmt.Fprintf(r.o.Notes, "intenthook: warning: %s: the collector rejects record %s on its own (%s); skipped, kept in %s\n", safetext.Quote(name), safetext.Quote(batch[0].UID), safetext.OneLine(err.Error()), safetext.Quote(r.store.RejectedPath()))
			if err := r.store.appendRejected(name, batch[0].UID, err); err != nil {
				return err
			}
			batch, uids = batch[:0], uids[:0]
			return advance(0)
		case errors.Is(err, ErrRejected):
			fc.Rejected = true
			r.cur.set(fc)
			if serr := r.store.save(r.cur); serr != nil {
				return serr
			}
			return sendError(r.t, name, len(batch), err)
		case err != nil:
			return sendError(r.t, name, len(batch), err)
		}
		if err := r.store.appendSent(uids); err != nil {
			return err
		}
		if err := advance(len(batch)); err != nil {
			return err
		}
		r.sum.Sent += int64(len(batch))
		r.sum.Batches++
		if r.o.Progress != nil {
			fmt.Fprintf(r.o.Progress, "\r\033[Kintenthook: export: %d records sent, %s %d%%", r.sum.Sent, name, 100*end/max(size, 1))
		}
		batch, uids = batch[:0], uids[:0]
		return nil
	}
	err = ledger.ScanFile(r.o.Root, name, start, func(line []byte, lineEnd int64, complete bool) error {
		if !complete {
			return nil // a torn tail or a line being written: the next run
		}
		end, last = lineEnd, append(last[:0], line...)
		rec, err := ledger.ParseLine(line)
		switch {
		case err != nil || rec.ID == "":
			r.sum.Skipped++
			fmt.Fprintf(r.o.Notes, "intenthook: note: %s: the line ending at byte %d is no ledger record; not sent\n", safetext.Quote(name), lineEnd)
		case sent != nil && sent[sentKey(rec.ID)]:
			// Sent before the file changed under the cursor.
		default:
			batch = append(batch, NewEntry(rec, name, r.repo))
			uids = append(uids, rec.ID)
		}
		limit := r.t.Batch
		if singles > 0 {
			limit = 1
		}
		if len(batch) >= limit {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// resume finds where the file's export goes on: at the cursor when the
// line it recorded still ends there; else the file changed under it (a
// checkout of a branch with fewer records, a reset, a rewrite), and the
// whole file is read again, each record sent unless the sent log has its
// id. Either way it is said, never done silently.
func (r *run) resume(name string, fc FileCursor) (start int64, sent map[uint64]bool, err error) {
	if fc.Bytes == 0 {
		return 0, nil, nil
	}
	line, ok, err := ledger.LineBefore(r.o.Root, name, fc.Bytes)
	if err != nil {
		return 0, nil, err
	}
	if ok && lineDigest(line) == fc.Last {
		return fc.Bytes, nil, nil
	}
	sent, err = r.store.loadSent()
	if err != nil {
		return 0, nil, err
	}
	fmt.Fprintf(r.o.Notes, "intenthook: note: %s changed since the last export (a checkout, reset or rewrite: the line sent last no longer ends at byte %d); reading it again and sending every record whose id was not sent\n", safetext.Quote(name), fc.Bytes)
	return 0, sent, nil
}

func fileSize(root, name string) int64 {
	n, _ := ledger.FileSize(root, name)
	return n
}

// sendError says what failed and that nothing moved.
func sendError(t Target, name string, n int, err error) error {
	what := "could not send"
	if errors.Is(err, ErrRejected) {
		what = "the collector did not accept"
	}
	return fmt.Errorf("%s a batch of %s from %s to %s (%s): %v; the export cursor did not move: the next export sends them again", what, count(int64(n), "record"), safetext.Quote(name), Visible(t.URL), t.Protocol, err)
}
