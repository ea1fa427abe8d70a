package ledger

import "strings"

// IsPath reports whether rel (root-relative, slash-separated) is a ledger
// file: the legacy FileName or a .jsonl segment under .orchestration/ledger/.
// Every check that compares ledger content (precommit, audit) decides with
// it.
func IsPath(rel string) bool {
	return rel == FileName || strings.HasPrefix(rel, ".orchestration/ledger/") && strings.HasSuffix(rel, ".jsonl")
}
