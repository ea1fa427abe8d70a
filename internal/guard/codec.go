package guard

import (
	"maps"
	"slices"

	"github.com/intenthook/intenthook/internal/codec"
)

// Encode writes s (nil: no picture) in the order Decode reads it, for the
// pending log of package state. The parts later versions added follow
// marks of their own, so that an entry an older version wrote still reads.
func Encode(e *codec.Encoder, s *Snapshot) {
	e.Bool(s != nil)
	if s == nil {
		return
	}
	e.Str(s.Head)
	e.Str(s.HooksDir)
	e.Uint(uint64(len(s.Files)))
	for _, rel := range slices.Sorted(maps.Keys(s.Files)) {
		f := s.Files[rel]
		e.Str(rel)
		e.Uint(uint64(f.Kind))
		e.Str(f.FP)
		e.Str(f.Hash)
		e.Bool(f.Kept)
	}
	e.Int(s.LedgerSize)
	e.Str(s.LedgerTail)
	e.Int(s.At)
	e.Uint(segmentsMark)
	e.Uint(uint64(s.WriterN))
	e.Uint(uint64(len(s.Segments)))
	for _, rel := range slices.Sorted(maps.Keys(s.Segments)) {
		m := s.Segments[rel]
		e.Str(rel)
		e.Str(m.FP)
		e.Int(m.Size)
		e.Str(m.Tail)
	}
	e.Uint(journalMark)
	e.Int(s.JournalAt)
	e.Str(s.Call)
	e.Bool(s.AnchorsAt != nil)
	if s.AnchorsAt != nil {
		e.Int(*s.AnchorsAt)
	}
	e.Uint(historyMark)
	e.Int(s.Reflog)
	e.Strs(s.Tips)
	e.Bool(s.TipsKnown)
	e.Uint(programsMark)
	e.Uint(uint64(len(s.Programs)))
	for _, rel := range slices.Sorted(maps.Keys(s.Programs)) {
		e.Str(rel)
		e.Str(s.Programs[rel])
	}
	// The link counts, of the files that have any (most have 1).
	e.Uint(linksMark)
	var linked []string
	for _, rel := range slices.Sorted(maps.Keys(s.Files)) {
		if s.Files[rel].Links > 0 {
			linked = append(linked, rel)
		}
	}
	e.Uint(uint64(len(linked)))
	for _, rel := range linked {
		e.Str(rel)
		e.Uint(s.Files[rel].Links)
	}
	if len(s.Mods) > 0 {
		e.Uint(modsMark)
		e.Uint(uint64(len(s.Mods)))
		for _, m := range s.Mods {
			e.Str(m.Dir)
			e.Bool(m.Full)
		}
	}
}

// segmentsMark opens the ledger segments' part of a picture (a number no
// bool is): an entry an older version wrote has none, and may go on with
// what follows the picture in the pending entry.
const segmentsMark = 0x5e6

// journalMark opens the journal's and the anchor index's part, after the
// segments.
const journalMark = 0x5e7

// historyMark opens HEAD's history at the picture (the reflog's size, the
// branches' tips), after the journal's part.
const historyMark = 0x5e8

// programsMark opens the fingerprints of the programs the hook wiring
// runs, after HEAD's history.
const programsMark = 0x5e9

// linksMark opens the watched files' link counts, after the programs.
const linksMark = 0x5ea

// modsMark opens the mods folders pictured, after the link counts; a
// picture without any has no such part, and reads as before. An older
// version cannot read an entry with one: only a binary replaced between a
// command's pre and its post meets one.
const modsMark = 0x5eb

// Decode reads what Encode wrote, and what older versions wrote (without
// the time, the segments or the journal's part).
func Decode(d *codec.Decoder) *Snapshot {
	if !d.Bool() {
		return nil
	}
	s := &Snapshot{Head: d.Str(), HooksDir: d.Str(), Files: map[string]File{}}
	for n := d.Count(); n > 0 && d.Err == nil; n-- {
		rel := d.Str()
		s.Files[rel] = File{Kind: Kind(d.Uint()), FP: d.Str(), Hash: d.Str(), Kept: d.Bool()}
	}
	s.LedgerSize, s.LedgerTail = d.Int(), d.Str()
	if len(d.B) > 0 {
		s.At = d.Int()
	}
	if probe := *d; len(d.B) > 0 && probe.Uint() == segmentsMark {
		*d = probe
		s.WriterN = int(d.Uint())
		for n := d.Count(); n > 0 && d.Err == nil; n-- {
			if s.Segments == nil {
				s.Segments = map[string]SegmentMark{}
			}
			rel := d.Str()
			s.Segments[rel] = SegmentMark{FP: d.Str(), Size: d.Int(), Tail: d.Str()}
		}
	}
	if probe := *d; len(d.B) > 0 && probe.Uint() == journalMark {
		*d = probe
		s.JournalAt, s.Call = d.Int(), d.Str()
		if d.Bool() {
			at := d.Int()
			s.AnchorsAt = &at
		}
	}
	if probe := *d; len(d.B) > 0 && probe.Uint() == historyMark {
		*d = probe
		s.Reflog, s.Tips, s.TipsKnown = d.Int(), d.Strs(), d.Bool()
	}
	if probe := *d; len(d.B) > 0 && probe.Uint() == programsMark {
		*d = probe
		for n := d.Count(); n > 0 && d.Err == nil; n-- {
			if s.Programs == nil {
				s.Programs = map[string]string{}
			}
			rel := d.Str()
			s.Programs[rel] = d.Str()
		}
	}
	if probe := *d; len(d.B) > 0 && probe.Uint() == linksMark {
		*d = probe
		for n := d.Count(); n > 0 && d.Err == nil; n-- {
			rel := d.Str()
			links := d.Uint()
			if f, ok := s.Files[rel]; ok {
				f.Links = links
				s.Files[rel] = f
			}
		}
	}
	if probe := *d; len(d.B) > 0 && probe.Uint() == modsMark {
		*d = probe
		for n := d.Count(); n > 0 && d.Err == nil; n-- {
			s.Mods = append(s.Mods, ModsMark{Dir: d.Str(), Full: d.Bool()})
		}
	}
	return s
}
