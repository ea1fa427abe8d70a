package audit

import (
	"encoding/json"
	"io"
)

// sarifRules describes each finding code for SARIF readers (GitHub code
// scanning shows the short description as the alert's title).
func sarifRules() []sarifRule {
	return []sarifRule{
		{ID: OutOfScope, Short: sarifText{"Change outside every active intent's scope"}, Full: sarifText{"A commit changed a file that no IN_PROGRESS, IN_REVIEW or COMPLETE intent of its first parent's catalog owns."}},
		{ID: Untraced, Short: sarifText{"Change not traced by the ledger"}, Full: sarifText{"No ledger record ends in the committed content (or deletion) of the file: it was changed without the hooks."}},
		{ID: PersonChange, Short: sarifText{"A person's change, not bound to an intent"}, Full: sarifText{"A commit marked Intenthook-Person (the commit-msg hook's mark of a commit no agent's process made), whose first parent's settings say people.commits: free, changed a file no ledger record ends in. A commit made with --no-verify can carry the mark forged."}},
		{ID: CatalogUnreadable, Short: sarifText{"Catalog cannot be read"}, Full: sarifText{"The .orchestration/active_intents.yaml of the commit's first parent, which the commit is judged by, is missing or does not parse."}},
		{ID: CatalogRemoved, Short: sarifText{"Rules removed"}, Full: sarifText{"The commit's first parent has no .orchestration/active_intents.yaml, but the history it descends from held one: the rules were taken away, which adopts nothing."}},
		{ID: Unruled, Short: sarifText{"Commit made without rules merged into governed history"}, Full: sarifText{"A commit whose history never held the catalog (a branch forked before the rules were adopted) reached a range with rules: nothing judged it."}},
		{ID: LedgerShrank, Short: sarifText{"Ledger shrank"}, Full: sarifText{"A commit left the ledger shorter than a parent's: the ledger must only grow."}},
		{ID: LedgerRewritten, Short: sarifText{"Ledger line removed or rewritten"}, Full: sarifText{"A line of the ledger before the range is missing from the range's last ledger."}},
		{ID: TraceGap, Short: sarifText{"File changed outside the hooks during a session"}, Full: sarifText{"A session's record found a file in a state (pre_hash) other than the one the session's previous record left it in (post_hash), and no commit holds that content: something outside the hooks changed it."}},
		{ID: SelfWidening, Short: sarifText{"Change allowed only by rules the same commit changes"}, Full: sarifText{"A commit changed the catalog or .intentignore and a file only the changed rules allow: a commit is judged by its parent's rules, so the rules change must be committed first."}},
		{ID: RulesUnsigned, Short: sarifText{"Rules widened without an allowed signature"}, Full: sarifText{"With --strict and gpg.ssh.allowedSignersFile set, a commit that widens the rules must be signed by a key in that file."}},
		{ID: RulesCommittedByAgent, Short: sarifText{"Rules committed by an agent's command"}, Full: sarifText{"A governance_tampered record names the commit: an agent's shell command made it, and it changed the rules; the guard put the work tree back, the commit still carries the change."}},
		{ID: CompleteUnapproved, Short: sarifText{"Intent completed without a person's approval"}, Full: sarifText{"An intent that requires review became COMPLETE in the commit, and the ledger at the range's last commit holds no approve record for it."}},
		{ID: AttributesChanged, Short: sarifText{"Attributes of governance files changed"}, Full: sarifText{"A .gitattributes changed the diff, merge, text, eol, filter, ident or encoding attributes of a governance path (git check-attr at the commit and its first parent)."}},
		{ID: LedgerInvalid, Short: sarifText{"Ledger does not verify"}, Full: sarifText{"The hash chain of the range's last ledger is broken (seq, prev, duplicates, forks not of a union merge's shape)."}},
		{ID: LedgerSealed, Short: sarifText{"Line added to a sealed ledger segment"}, Full: sarifText{"A segment has lines after the record its writer's next segment says it was sealed at: a sealed segment never changes."}},
		{ID: LedgerUnrooted, Short: sarifText{"Ledger chain starting from nothing on a ledger that was not empty"}, Full: sarifText{"A ledger file (a segment, or the legacy file or a part of it) whose first record has prev null was added where the ledger already held records, or beside the legacy file's own first record: every segment continues a record of the ledger it is written on."}},
	}
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID    string    `json:"id"`
	Short sarifText `json:"shortDescription"`
	Full  sarifText `json:"fullDescription"`
}

type sarifLocation struct {
	Physical struct {
		Artifact struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
	} `json:"physicalLocation"`
}

type sarifResult struct {
	RuleID       string            `json:"ruleId"`
	Level        string            `json:"level"`
	Message      sarifText         `json:"message"`
	Locations    []sarifLocation   `json:"locations"`
	Fingerprints map[string]string `json:"partialFingerprints"`
	Properties   map[string]string `json:"properties"`
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool struct {
		Driver struct {
			Name    string      `json:"name"`
			Version string      `json:"version"`
			URI     string      `json:"informationUri"`
			Rules   []sarifRule `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	Results []sarifResult `json:"results"`
}

// SARIF writes the findings as a SARIF 2.1.0 log (GitHub code scanning
// reads it), one rule per finding code; version names intenthook's.
func (r *Result) SARIF(w io.Writer, version string) error {
	var run sarifRun
	run.Tool.Driver.Name = "intenthook"
	run.Tool.Driver.Version = version
	run.Tool.Driver.URI = "https://github.com/intenthook/intenthook"
	run.Tool.Driver.Rules = sarifRules()
	run.Results = []sarifResult{}
	for _, f := range r.Findings {
		var loc sarifLocation
		loc.Physical.Artifact.URI = f.Path
		run.Results = append(run.Results, sarifResult{
			RuleID:       f.Code,
			Level:        f.Severity, // "error" and "warning" are SARIF levels too
			Message:      sarifText{f.Message},
			Locations:    []sarifLocation{loc},
			Fingerprints: map[string]string{"intenthook/v1": f.Code + ":" + f.Commit + ":" + f.Path},
			Properties:   map[string]string{"commit": f.Commit},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}
