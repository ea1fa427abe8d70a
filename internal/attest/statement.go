package attest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/ledger"
)

// Statement is an in-toto Statement v1.
type Statement struct {
	Type          string          `json:"_type"`
	Subject       []Subject       `json:"subject"`
	PredicateType string          `json:"predicateType"`
	Predicate     json.RawMessage `json:"predicate"`
}

// Subject is one thing a statement is about, named and pinned by digest:
// a commit (gitCommit) or a file (sha256).
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// Digest algorithms of subjects.
const (
	GitCommit = "gitCommit"
	SHA256    = "sha256"
)

// NewStatement makes the statement of p: one gitCommit subject per commit
// of the range, oldest first, then one sha256 subject per file.
func NewStatement(p *Predicate, files []Subject) (*Statement, error) {
	body, err := marshal(p)
	if err != nil {
		return nil, err
	}
	st := &Statement{Type: StatementType, PredicateType: PredicateType, Predicate: body}
	for _, c := range p.Commits {
		st.Subject = append(st.Subject, Subject{Name: c.Commit, Digest: map[string]string{GitCommit: c.Commit}})
	}
	st.Subject = append(st.Subject, files...)
	return st, nil
}

// FileSubject is the sha256 subject of a file (a build artifact), named by
// its path with forward slashes.
func FileSubject(path string) (Subject, error) {
	f, err := os.Open(path)
	if err != nil {
		return Subject{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return Subject{}, fmt.Errorf("read %s: %w", path, err)
	}
	return Subject{Name: filepath.ToSlash(path), Digest: map[string]string{SHA256: hex.EncodeToString(h.Sum(nil))}}, nil
}

// Commits are the statement's gitCommit subjects, in order.
func (st *Statement) Commits() []string {
	var out []string
	for _, s := range st.Subject {
		if c, ok := s.Digest[GitCommit]; ok {
			out = append(out, c)
		}
	}
	return out
}

// marshal is JSON without HTML escaping: authors are Name <email>, and a
// verifier shows them as written.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// RangeFile is what the GitHub Action attests with actions/attest, which
// takes only files' digests as subjects: the range's commits, oldest
// first, and the ledger's heads at its last commit, as canonical JSON (keys
// sorted, no white space, no line end: RFC 8785's form for these values,
// hex digits and ledger file names, which are ASCII). The same range and ledger always give the same bytes, so
// `gh attestation verify` against a file written again later checks both.
type RangeFile struct {
	Commits      []string          `json:"commits"`
	LedgerDigest string            `json:"ledger_digest"`
	LedgerHeads  []ledger.FileHead `json:"ledger_heads"`
}

// NewRangeFile is the range file of p.
func NewRangeFile(p *Predicate) RangeFile {
	rf := RangeFile{Commits: []string{}, LedgerDigest: p.Ledger.Digest, LedgerHeads: p.Ledger.Heads}
	for _, c := range p.Commits {
		rf.Commits = append(rf.Commits, c.Commit)
	}
	return rf
}

// Bytes is the file's canonical JSON. The struct fields are in key order
// at every level (commits, ledger_digest, ledger_heads; file, hash,
// records, seq), which encoding/json keeps.
func (rf RangeFile) Bytes() ([]byte, error) {
	type head struct {
		File    string `json:"file"`
		Hash    string `json:"hash"`
		Records int    `json:"records"`
		Seq     int64  `json:"seq"`
	}
	out := struct {
		Commits      []string `json:"commits"`
		LedgerDigest string   `json:"ledger_digest"`
		LedgerHeads  []head   `json:"ledger_heads"`
	}{Commits: rf.Commits, LedgerDigest: rf.LedgerDigest, LedgerHeads: []head{}}
	for _, h := range rf.LedgerHeads {
		out.LedgerHeads = append(out.LedgerHeads, head{File: h.File, Hash: h.Hash, Records: h.Records, Seq: h.Seq})
	}
	return marshal(out)
}
