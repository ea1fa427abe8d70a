package attest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/safetext"
)

// Usage is attest's help.
const Usage = `usage: intenthook attest [RANGE] [--key KEY [--bundle]] [-o FILE] [flags]
       intenthook attest verify FILE --key PUB [RANGE] [--subject FILE]...
       intenthook attest verify FILE --trusted-root JSON --certificate-identity ID
           --certificate-oidc-issuer ISSUER [RANGE] [--subject FILE]...

attest writes an in-toto Statement v1 of RANGE's agent work (default: the
merge base with the default branch ..HEAD, as audit's). Its subjects are
the range's commits (gitCommit), oldest first, and any --subject files
(sha256); its predicate, https://intenthook.dev/attestation/agent-work/v1,
is what intenthook audit finds there: the ledger's heads at the last
commit, and per commit the intents, sessions, agents and models, the paths
traced, attributed and untraced, the line ranges agents wrote, the
findings by code and the rules changes with their author and signature.

  --key KEY          sign it: a DSSE envelope. KEY is an unencrypted PEM
                     private key, ECDSA P-256 or Ed25519 (cosign verifies
                     these), or an SSH key, signed through ssh-keygen -Y
                     sign (only attest verify checks that: cosign does not)
  --bundle           write a Sigstore bundle v0.3 instead (a PEM key): its
                     verification material is a public-key hint, with no
                     transparency-log entry; verifiers need the key
  -o, --output FILE  write it to FILE (default: standard output)
  --subject FILE     also a subject: a build artifact, by its sha256
                     (repeatable)
  --strict           judge as audit --strict does (untraced is an error)
  --predicate        write the predicate alone (actions/attest's
                     predicate-path)
  --range-file FILE  also write the range's commit ids and segment heads as
                     canonical JSON (actions/attest's subject-path)
  --root DIR         the repository (default: the working directory)

Without --key the statement is written unsigned. An audit with errors
is attested all the same: the predicate says it failed.

attest verify checks FILE offline: its signature with PUB (a PEM public
key, or an SSH public key for an SSH-signed envelope), its predicate
against the schema, that its commit subjects are RANGE's commits in order
(a history rewritten after the attestation fails, naming the first commit
that differs), and that the segment heads it names are still lines of the
ledger at RANGE's last commit. --subject FILE checks that the file is a
subject. A branch named verify is refs/heads/verify here.

A keyless Sigstore bundle (a certificate, as actions/attest makes) is
checked instead against a trusted root, offline: exactly one of --key and
--trusted-root.

  --trusted-root JSON                a Sigstore trusted root
                                     (gh attestation trusted-root)
  --certificate-identity ID          who signed: the certificate's subject
                                     alternative name, exactly
  --certificate-identity-regexp RE   or matching RE
  --certificate-oidc-issuer ISSUER   who vouched for the signer (GitHub
                                     Actions: https://token.actions.githubusercontent.com)

See docs/attest.md.
`

// Main runs an attest command line (after the program's name) and returns
// the exit code: 0, or 1 on any failure.
func Main(args []string, stdout, stderr io.Writer, version string) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, Usage)
		return 0
	}
	var err error
	if len(args) > 0 && args[0] == "verify" {
		err = runVerify(args[1:], stdout)
	} else {
		err = runAttest(args, stdout, stderr, version)
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, Usage)
		return 0
	}
	if err != nil {
		printError(stderr, err)
		return 1
	}
	return 0
}

// multi is a flag given any number of times.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// parse parses flags anywhere on the line (flag stops at the first
// argument that is not one) and returns the arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest, args = append(rest, args[0]), args[1:]
	}
}

func usageError(err error, what string) error {
	return withHint(err, "see 'intenthook "+what+" --help'")
}

type attestOptions struct {
	root, key, output, rangeFile string
	bundle, strict, predicate    bool
	subjects                     multi
}

func runAttest(args []string, stdout, stderr io.Writer, version string) error {
	var o attestOptions
	fs := flag.NewFlagSet("intenthook attest", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.root, "root", "", "")
	fs.StringVar(&o.key, "key", "", "")
	fs.StringVar(&o.output, "o", "", "")
	fs.StringVar(&o.output, "output", "", "")
	fs.StringVar(&o.rangeFile, "range-file", "", "")
	fs.BoolVar(&o.bundle, "bundle", false, "")
	fs.BoolVar(&o.strict, "strict", false, "")
	fs.BoolVar(&o.predicate, "predicate", false, "")
	fs.Var(&o.subjects, "subject", "")
	pos, err := parse(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return err
	case err != nil:
		return usageError(err, "attest")
	case len(pos) > 1:
		return usageError(fmt.Errorf("attest takes one range, got %d arguments (%s)", len(pos), safetext.Quote(strings.Join(pos, " "))), "attest")
	case o.bundle && o.key == "":
		return withHint(errors.New("--bundle needs --key: a bundle is signed"), "intenthook attest --key attest.pem --bundle -o attest.sigstore.json")
	case o.predicate && (o.key != "" || len(o.subjects) > 0):
		return withHint(errors.New("--predicate writes the predicate alone, unsigned and without subjects"), "drop --key and --subject, or --predicate")
	}
	var sign signer
	if o.key != "" {
		if sign, err = loadSigner(o.key); err != nil {
			return err
		}
	}
	var files []Subject
	for _, f := range o.subjects {
		s, err := FileSubject(f)
		if err != nil {
			return withHint(fmt.Errorf("--subject: %w", err), "--subject names a build artifact to attest with the range")
		}
		files = append(files, s)
	}
	ctx := context.Background()
	start := o.root
	if start == "" {
		start, _ = os.Getwd()
	}
	g, _, err := git.Locate(ctx, start, start)
	if err != nil {
		return withHint(err, "intenthook attest runs in a git repository, with git on PATH")
	}
	rng := ""
	if len(pos) == 1 {
		rng = pos[0]
	} else if rng, err = g.DefaultRange(ctx); err != nil {
		return err
	}
	res, err := audit.Run(ctx, g, rng, o.strict)
	if err != nil {
		return err
	}
	if res.Commits == 0 {
		return withHint(fmt.Errorf("the range %s holds no commit: there is nothing to attest", safetext.Quote(rng)), "on the default branch its merge base is HEAD itself: pass the range, e.g. intenthook attest HEAD~10..HEAD, or the first commit's parent..HEAD")
	}
	pred := NewPredicate(res, o.strict, version)
	if o.rangeFile != "" {
		b, err := NewRangeFile(pred).Bytes()
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.rangeFile, b, 0o644); err != nil {
			return fmt.Errorf("write the range file: %w", err)
		}
	}
	out, what, err := render(ctx, pred, files, sign, o)
	if err != nil {
		return err
	}
	if o.output == "" {
		_, err = stdout.Write(out)
	} else {
		err = os.WriteFile(o.output, out, 0o644)
	}
	if err != nil {
		return fmt.Errorf("write the attestation: %w", err)
	}
	where := "to standard output"
	if o.output != "" {
		where = "to " + safetext.Quote(o.output)
	}
	fmt.Fprintf(stderr, "intenthook: attest: %s of %s (%d commit(s), segment heads %s) written %s\n", what, safetext.Quote(rng), res.Commits, orNone(pred.Ledger.Digest), where)
	if res.Failed() {
		fmt.Fprintf(stderr, "intenthook: attest: the audit of the range failed (%d error(s)): the predicate says so; intenthook audit %s lists them\n", pred.Audit.Errors, safetext.Quote(rng))
	}
	return nil
}

// render makes the output: the predicate alone, the statement unsigned,
// a DSSE envelope, or a Sigstore bundle; and names it.
func render(ctx context.Context, pred *Predicate, files []Subject, sign signer, o attestOptions) ([]byte, string, error) {
	if o.predicate {
		b, err := marshal(pred)
		return append(b, '\n'), "the predicate", err
	}
	st, err := NewStatement(pred, files)
	if err != nil {
		return nil, "", err
	}
	body, err := marshal(st)
	if err != nil {
		return nil, "", err
	}
	switch {
	case sign == nil:
		return append(body, '\n'), "an unsigned statement", nil
	case o.bundle:
		b, err := signBundle(sign, body)
		return append(b, '\n'), "a Sigstore bundle signed by " + sign.describe(), err
	}
	sig, keyID, err := sign.sign(ctx, PAE(PayloadType, body))
	if err != nil {
		return nil, "", err
	}
	// The keyid is left empty: a verifier is given the key, and one that
	// computes an id of its own for it (in-toto's, from the key's
	// canonical JSON) skips a signature whose keyid is another.
	env := Envelope{PayloadType: PayloadType, Payload: encode64(body), Signatures: []Signature{{Sig: encode64(sig)}}}
	b, err := marshal(env)
	return append(b, '\n'), "a DSSE envelope signed by " + describeSigned(sign, keyID), err
}

// describeSigned names the key that signed: an SSH key by the fingerprint
// ssh-keygen's signature names.
func describeSigned(s signer, keyID string) string {
	if _, ok := s.(*sshSigner); ok && keyID != "" {
		return s.describe() + " (" + keyID + ")"
	}
	return s.describe()
}

func runVerify(args []string, stdout io.Writer) error {
	var o verifyOptions
	var root string
	var files multi
	fs := flag.NewFlagSet("intenthook attest verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&root, "root", "", "")
	fs.StringVar(&o.key, "key", "", "")
	fs.StringVar(&o.trustedRoot, "trusted-root", "", "")
	fs.StringVar(&o.identity.san, "certificate-identity", "", "")
	fs.StringVar(&o.identity.sanRegexp, "certificate-identity-regexp", "", "")
	fs.StringVar(&o.identity.issuer, "certificate-oidc-issuer", "", "")
	fs.Var(&files, "subject", "")
	pos, err := parse(fs, args)
	keyless := o.trustedRoot != "" || o.identity != identity{}
	switch {
	case errors.Is(err, flag.ErrHelp):
		return err
	case err != nil:
		return usageError(err, "attest")
	case len(pos) == 0:
		return usageError(errors.New("attest verify needs the attestation: intenthook attest verify FILE --key PUB [RANGE]"), "attest")
	case len(pos) > 2:
		return usageError(fmt.Errorf("attest verify takes a file and a range, got %d arguments", len(pos)), "attest")
	case o.key != "" && keyless:
		return usageError(errors.New("attest verify takes --key or --trusted-root with a certificate identity, not both: a bundle is key-signed or keyless"), "attest")
	case o.key == "" && !keyless:
		return withHint(errors.New("attest verify needs --key PUB: the public key of the key that signed it"), "a keyless attestation (actions/attest) is checked with --trusted-root trusted_root.json --certificate-identity ID --certificate-oidc-issuer ISSUER (see docs/attest.md)")
	case keyless && o.trustedRoot == "":
		return withHint(errors.New("attest verify needs --trusted-root JSON to check a keyless bundle's certificate"), trustedRootHint)
	case keyless && o.identity.san == "" && o.identity.sanRegexp == "":
		return withHint(errors.New("attest verify --trusted-root needs --certificate-identity ID or --certificate-identity-regexp RE: whom the certificate must name"), "for actions/attest, the workflow's URL at its ref, e.g. --certificate-identity-regexp '^https://github.com/OWNER/REPO/'")
	case o.identity.san != "" && o.identity.sanRegexp != "":
		return usageError(errors.New("attest verify takes --certificate-identity or --certificate-identity-regexp, not both"), "attest")
	case keyless && o.identity.issuer == "":
		return withHint(errors.New("attest verify --trusted-root needs --certificate-oidc-issuer ISSUER: who vouched for the signer"), "GitHub Actions' is https://token.actions.githubusercontent.com")
	}
	o.file, o.files = pos[0], files
	if len(pos) == 2 {
		o.rng = pos[1]
	}
	o.start = root
	if o.start == "" {
		o.start, _ = os.Getwd()
	}
	if err := verifyAttestation(context.Background(), o, stdout); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "intenthook: attest verify: ok")
	return nil
}

// hinted is an error with hints for the person.
type hinted struct {
	err   error
	hints []string
}

func (h hinted) Error() string { return h.err.Error() }
func (h hinted) Unwrap() error { return h.err }

func withHint(err error, hints ...string) error { return hinted{err: err, hints: hints} }

// printError prints intenthook's error lines: the error, then its hints.
func printError(w io.Writer, err error) {
	fmt.Fprintf(w, "intenthook: error: %s\n", strings.TrimSuffix(safetext.OneLine(err.Error()), "."))
	var h hinted
	if errors.As(err, &h) {
		for _, hint := range h.hints {
			fmt.Fprintf(w, "intenthook: hint: %s\n", hint)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
