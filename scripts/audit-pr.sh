#!/usr/bin/env bash
# The step of the intenthook GitHub Action (action.yml), runnable anywhere:
# audits the commits a pull request adds to its base branch and writes the
# Markdown summary to $GITHUB_STEP_SUMMARY (and to the log). Exits as
# `intenthook audit` does: 1 when it found errors.
#   BASE                 the branch the pull request targets (fetched from origin)
#   STRICT               true: untraced changes are errors too
#   GITHUB_STEP_SUMMARY  where the summary is appended (default: none)
set -euo pipefail
base="${BASE:?set BASE to the branch the pull request targets}"
git fetch --quiet origin "$base"
range="$(git merge-base FETCH_HEAD HEAD)..HEAD"
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
exit "$status"
