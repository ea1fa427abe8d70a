package cli

import (
	"github.com/spf13/cobra"
)

// AttestName is the binary that holds `attest`: Sigstore's libraries stay
// out of this one, which hooks start.
const AttestName = "intenthook-attest"

// attestCommand hands `attest …` to intenthook-attest beside this binary,
// as exportCommand hands `export`.
func (a *app) attestCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "attest [RANGE] [--key KEY [--bundle]] [-o FILE] | attest verify FILE --key PUB|--trusted-root JSON [RANGE]",
		Short: "Write a signed in-toto attestation of a range's agent work, or verify one",
		Long: `Write an in-toto Statement v1 of a range's agent work (default: as audit's),
its subjects the range's commits, its predicate what audit finds there and
the ledger's heads, signed with --key as a DSSE envelope or, with --bundle, as
a Sigstore bundle; or check one offline with 'attest verify FILE --key PUB
[RANGE]' (a keyless bundle, as actions/attest makes, with --trusted-root
JSON --certificate-identity ID --certificate-oidc-issuer ISSUER): its
signature, its commits against the range's, and the segment heads it names
against the ledger. Run by intenthook-attest, installed beside
intenthook; 'intenthook attest --help' lists its flags. See docs/attest.md.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.handOff(AttestName, args)
		},
	}
}
