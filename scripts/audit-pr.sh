#!/usr/bin/env bash
# The step of the intenthook GitHub Action (action.yml), runnable anywhere:
# audits the commits a pull request adds to its base branch and writes the
# Markdown summary to $GITHUB_STEP_SUMMARY (and to the log). Exits as
# `intenthook audit` does: 1 when it found errors.
#   BASE                 the branch the pull request targets (fetched from origin)
#   RANGE                a revision range to audit instead (a push: before..sha)
#   STRICT               true: untraced changes are errors too
#   ATTEST               true: also write what actions/attest attests, in
#                        ATTEST_DIR: range.json (the range's commit ids and
#                        segment heads, canonical JSON: the subject) and
#                        predicate.json, named in $GITHUB_OUTPUT as
#                        subject-path, predicate-path and predicate-type
#   GITHUB_STEP_SUMMARY  where the summary is appended (default: none)
set -euo pipefail
range="${RANGE:-}"
if [ -z "$range" ]; then
	base="${BASE:?set BASE to the branch the pull request targets, or RANGE to the revisions}"
	git fetch --quiet origin "$base"
	range="$(git merge-base FETCH_HEAD HEAD)..HEAD"
fi
flags=(--markdown)
if [ "${STRICT:-false}" = true ]; then
	flags+=(--strict)
fi
status=0
summary="$(intenthook audit "$range" "${flags[@]}")" || status=$?
printf '%s\n' "$summary"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	printf '%s\n' "$summary" >> "$GITHUB_STEP_SUMMARY"
fi
if [ "${ATTEST:-false}" = true ]; then
	dir="${ATTEST_DIR:?set ATTEST_DIR to the directory for the files actions/attest takes}"
	mkdir -p "$dir"
	attest=(attest "$range" --predicate -o "$dir/predicate.json" --range-file "$dir/range.json")
	if [ "${STRICT:-false}" = true ]; then
		attest+=(--strict)
	fi
	intenthook "${attest[@]}"
	{
		echo "subject-path=$dir/range.json"
		echo "predicate-path=$dir/predicate.json"
		echo "predicate-type=https://intenthook.dev/attestation/agent-work/v1"
	} >> "${GITHUB_OUTPUT:-/dev/null}"
fi
exit "$status"
