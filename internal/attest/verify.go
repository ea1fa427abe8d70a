package attest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
)

// verifyOptions are what attest verify checks.
type verifyOptions struct {
	file, key   string
	trustedRoot string   // a trusted_root.json, instead of key, for keyless bundles
	identity    identity // whom a keyless bundle's certificate must name
	rng         string   // "" for audit's default range
	files       []string // files that must be subjects
	start       string   // where git is found from
}

// signed is what a verified signature vouches for.
type signed struct {
	format  string // "DSSE envelope", "Sigstore bundle"
	payload []byte
	ssh     bool
	how     string // who signed, said to the person
}

// checkKeyed verifies an envelope or a key-signed bundle with the public
// key at path.
func checkKeyed(name string, data []byte, path string) (*signed, error) {
	key, err := loadPublicKey(path)
	if err != nil {
		return nil, err
	}
	s, err := checkSignature(name, data, key)
	if err != nil {
		return nil, err
	}
	s.how = s.format + " signed by " + key.describe()
	if s.ssh {
		s.how += " (SSHSIG: intenthook checks it; cosign does not)"
	}
	return s, nil
}

// checkKeyless verifies a keyless Sigstore bundle against the trusted root
// at path and the identity its certificate must name.
func checkKeyless(name string, data []byte, path string, id identity) (*signed, error) {
	if !isBundle(data) {
		return nil, withHint(fmt.Errorf("%s is not a Sigstore bundle: a DSSE envelope carries no certificate for a trusted root to check", name), "check it with --key PUB, the public key of the key that signed it")
	}
	trusted, err := loadTrustedRoot(path)
	if err != nil {
		return nil, err
	}
	payload, how, err := verifyKeylessBundle(data, trusted, id)
	if err != nil {
		err = fmt.Errorf("the bundle %s: %w", name, err)
		if !errors.As(err, new(hinted)) {
			err = withHint(err, "a statement changed after signing fails here too")
		}
		return nil, err
	}
	return &signed{format: "Sigstore bundle", payload: payload, how: "Sigstore bundle signed " + how + ", chained to the trusted root " + safetext.Quote(path)}, nil
}

// verifyAttestation checks, offline, an attestation's signature with the
// key (or a keyless bundle's against the trusted root), its statement and predicate (against the schema), that its commit
// subjects are the range's commits in order, and that the segment heads it
// names are still lines of the ledger at the range's last commit. It
// prints what it checked to out.
func verifyAttestation(ctx context.Context, o verifyOptions, out io.Writer) error {
	data, err := os.ReadFile(o.file)
	if err != nil {
		return withHint(fmt.Errorf("read the attestation: %w", err), "intenthook attest --key KEY -o FILE writes one")
	}
	var s *signed
	if o.trustedRoot != "" {
		s, err = checkKeyless(o.file, data, o.trustedRoot, o.identity)
	} else {
		s, err = checkKeyed(o.file, data, o.key)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "signature: good: %s\n", s.how)

	st, pred, err := readStatement(s.payload)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "statement: in-toto Statement v1 of %s; the predicate matches its schema\n", PredicateType)
	if len(st.Commits()) == 0 && len(pred.Commits) > 0 {
		fmt.Fprintf(out, "statement: its subject is the range file of the commits and segment heads its predicate lists (as actions/attest signs it)\n")
	}
	for _, f := range o.files {
		if err := hasSubject(st, f); err != nil {
			return err
		}
		fmt.Fprintf(out, "subject: %s: its sha256 is a subject\n", safetext.Quote(f))
	}

	g, _, err := git.Locate(ctx, o.start, o.start)
	if err != nil {
		return withHint(err, "intenthook attest verify runs in the repository the attestation is about, with git on PATH")
	}
	rng := o.rng
	if rng == "" {
		if rng, err = g.DefaultRange(ctx); err != nil {
			return err
		}
	}
	commits, err := audit.Commits(ctx, g, rng)
	if err != nil {
		return withHint(err, fmt.Sprintf("the attestation covers %s (%d commit(s)); pass a range that names them", safetext.Quote(pred.Range.Spec), pred.Range.Commits))
	}
	if err := sameCommits(pred.commitIDs(), commits, rng, pred.Range.Spec); err != nil {
		return err
	}
	last := commits[len(commits)-1]
	fmt.Fprintf(out, "subjects: the %d commit(s) of %s, in order (%s to %s)\n", len(commits), safetext.Quote(rng), short(commits[0]), short(last))

	if err := headsHeld(ctx, g, last, pred.Ledger); err != nil {
		return err
	}
	if len(pred.Ledger.Heads) == 0 {
		fmt.Fprintf(out, "ledger: the attestation names no segment head (no ledger at %s)\n", short(last))
	} else {
		fmt.Fprintf(out, "ledger: the %d segment head(s) the attestation names are still in the ledger at %s (segment heads %s)\n", len(pred.Ledger.Heads), short(last), pred.Ledger.Digest)
	}
	verdict := "passed"
	if !pred.Audit.Passed {
		verdict = "failed"
	}
	fmt.Fprintf(out, "audit when attested: %s, %d error(s), %d warning(s) (intenthook %s)\n", verdict, pred.Audit.Errors, pred.Audit.Warnings, safetext.Quote(pred.Intenthook.Version))
	return nil
}

// checkSignature verifies a DSSE envelope's signature, or a Sigstore
// bundle's, with key and returns the signed payload.
func checkSignature(name string, data []byte, key publicKey) (*signed, error) {
	if isBundle(data) {
		payload, err := verifyBundle(data, key)
		if err != nil {
			return nil, withHint(fmt.Errorf("the bundle %s: %w", name, err), "check it against the public key of the key that signed it; a statement changed after signing fails here too")
		}
		return &signed{format: "Sigstore bundle", payload: payload}, nil
	}
	env, payload, err := decodeEnvelope(data)
	if err != nil {
		var st Statement
		if json.Unmarshal(data, &st) == nil && st.Type != "" {
			return nil, withHint(fmt.Errorf("%s is an unsigned statement: nothing vouches for it", name), "sign it: intenthook attest --key KEY -o FILE")
		}
		return nil, withHint(fmt.Errorf("%s: %w", name, err), "attest verify reads what intenthook attest --key writes: a DSSE envelope, or with --bundle a Sigstore bundle")
	}
	if env.PayloadType != PayloadType {
		return nil, fmt.Errorf("%s: the envelope's payload is %s, not an in-toto statement (%s)", name, safetext.Quote(env.PayloadType), PayloadType)
	}
	pae := PAE(env.PayloadType, payload)
	last := errBadSignature
	for _, s := range env.Signatures {
		sig, err := decode64(s.Sig)
		if err != nil {
			last = errors.New("a signature that is not base64")
			continue
		}
		if err := key.verify(pae, sig); err != nil {
			last = err
			if errors.Is(err, errBadSignature) && s.KeyID != "" && s.KeyID != key.id() {
				last = fmt.Errorf("%w: it names the key %s, and --key is %s", err, safetext.Quote(s.KeyID), key.id())
			}
			continue
		}
		return &signed{format: "DSSE envelope", payload: payload, ssh: isSSHSIG(sig)}, nil
	}
	return nil, withHint(fmt.Errorf("the signature of %s: %w", name, last), "check it against the public key of the key that signed it; a statement changed after signing fails here too")
}

// readStatement reads the signed statement and its predicate, which must
// match the schema.
func readStatement(payload []byte) (*Statement, *Predicate, error) {
	var st Statement
	if err := json.Unmarshal(payload, &st); err != nil {
		return nil, nil, fmt.Errorf("the signed payload is not an in-toto statement: %w", err)
	}
	if st.Type != StatementType {
		return nil, nil, fmt.Errorf("the signed payload is not an in-toto Statement v1 (_type %s)", safetext.Quote(st.Type))
	}
	if st.PredicateType != PredicateType {
		return nil, nil, withHint(fmt.Errorf("the statement's predicate is %s, not %s", safetext.Quote(st.PredicateType), PredicateType), "attest verify checks what intenthook attest signs")
	}
	if err := ValidatePredicate(st.Predicate); err != nil {
		return nil, nil, withHint(fmt.Errorf("the predicate does not match its schema: %s", safetext.OneLine(err.Error())), "internal/attest/agent-work.v1.schema.json in intenthook's repository is the schema")
	}
	var pred Predicate
	if err := json.Unmarshal(st.Predicate, &pred); err != nil {
		return nil, nil, fmt.Errorf("the predicate: %w", err)
	}
	listed, commits := pred.commitIDs(), st.Commits()
	switch {
	case len(commits) == 0 && len(listed) > 0 && !hasRangeFile(&st, &pred):
		return nil, nil, errors.New("the statement names neither the commits its predicate lists (gitCommit subjects) nor their range file (actions/attest's subject)")
	case len(commits) > 0 && !slices.Equal(listed, commits):
		return nil, nil, errors.New("the statement's commit subjects are not the commits its predicate lists")
	}
	if len(pred.Ledger.Heads) > 0 && ledger.HeadsDigest(pred.Ledger.Heads) != pred.Ledger.Digest {
		return nil, nil, errors.New("the predicate's ledger digest is not the digest of the heads it lists")
	}
	return &st, &pred, nil
}

// commitIDs are the commits p lists, in order.
func (p *Predicate) commitIDs() []string {
	var out []string
	for _, c := range p.Commits {
		out = append(out, c.Commit)
	}
	return out
}

// hasRangeFile reports whether a subject of st is the range file of pred:
// actions/attest signs a statement whose subject is that file, not the
// commits, and the file's bytes follow from the predicate's commits and
// segment heads.
func hasRangeFile(st *Statement, pred *Predicate) bool {
	b, err := NewRangeFile(pred).Bytes()
	if err != nil {
		return false
	}
	sum := sha256.Sum256(b)
	for _, s := range st.Subject {
		if s.Digest[SHA256] == hex.EncodeToString(sum[:]) {
			return true
		}
	}
	return false
}

// sameCommits compares the attested commits with the range's, in order,
// and names the first that differs.
func sameCommits(attested, now []string, rng, spec string) error {
	hint := fmt.Sprintf("the attestation covers %s: %d commit(s) from %s to %s; a history rewritten after it (a rebase, an amend, a force-push) has other commits", safetext.Quote(spec), len(attested), short(first(attested)), short(lastOf(attested)))
	for i := 0; i < max(len(attested), len(now)); i++ {
		switch {
		case i >= len(now):
			return withHint(fmt.Errorf("the range %s ends after %d commit(s): the attestation's commit %d of %d, %s, is not in it", safetext.Quote(rng), len(now), i+1, len(attested), attested[i]), hint)
		case i >= len(attested):
			return withHint(fmt.Errorf("the range %s has %d commit(s), the attestation %d: the first it does not name is %s", safetext.Quote(rng), len(now), len(attested), now[i]), hint)
		case attested[i] != now[i]:
			return withHint(fmt.Errorf("the history differs from the attestation at commit %d of %d: the attestation names %s, the range %s has %s there", i+1, len(attested), attested[i], safetext.Quote(rng), now[i]), hint)
		}
	}
	return nil
}

// headsHeld checks that every head l names is a line of the ledger at
// commit last (the check ledger verify --checkpoint makes on the work
// tree, here on git objects).
func headsHeld(ctx context.Context, g *git.Repo, last string, l Ledger) error {
	if len(l.Heads) == 0 {
		return nil
	}
	pins := make([]ledger.Pin, len(l.Heads))
	for i, h := range l.Heads {
		pins[i] = ledger.Pin{Seq: h.Seq, Hash: h.Hash}
	}
	found := make([]bool, len(pins))
	if _, err := audit.LedgerAt(ctx, g, last, func(line []byte) {
		for i, p := range pins {
			if !found[i] && p.Holds(line) {
				found[i] = true
			}
		}
	}); err != nil {
		return err
	}
	for i, ok := range found {
		if !ok {
			h := l.Heads[i]
			return withHint(fmt.Errorf("the ledger at %s no longer holds the head %s %s the attestation names: a line it held was removed or rewritten", short(last), safetext.Quote(h.File), pins[i]), "intenthook audit over the range names the commit that rewrote the ledger")
		}
	}
	return nil
}

// hasSubject checks that file's sha256 is a subject of st.
func hasSubject(st *Statement, file string) error {
	sub, err := FileSubject(file)
	if err != nil {
		return withHint(err, "--subject names a file the attestation is about")
	}
	for _, s := range st.Subject {
		if s.Digest[SHA256] == sub.Digest[SHA256] {
			return nil
		}
	}
	return withHint(fmt.Errorf("%s (sha256 %s) is not a subject of the attestation", safetext.Quote(file), sub.Digest[SHA256]), "attest --subject FILE makes a file a subject; a file changed since has another digest")
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func lastOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
