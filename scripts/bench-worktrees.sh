#!/usr/bin/env bash
# Many agents at once, measured on real git: WORKTREES work trees of one
# repository (default 8), one agent session each, WRITES writes each
# (default 200) through the real hook binary — pre, the write, post, as
# Claude Code runs them —, each work tree's work committed on its branch,
# then every branch merged into main. It fails on a merge conflict (in the
# ledger, in intent_map.md or anywhere), and runs ledger verify and audit
# on the merge. It prints the figures docs/performance.md quotes.
#
#   make build && scripts/bench-worktrees.sh            # bin/intenthook
#   BIN=/path/to/intenthook WORKTREES=4 WRITES=50 scripts/bench-worktrees.sh
set -euo pipefail

BIN=$(cd "$(dirname "${BIN:-bin/intenthook}")" && pwd)/$(basename "${BIN:-bin/intenthook}")
WORKTREES=${WORKTREES:-8}
WRITES=${WRITES:-200}
[ -x "$BIN" ] || { echo "bench-worktrees: no $BIN (make build first)" >&2; exit 1; }
export PATH="$(dirname "$BIN"):$PATH" TZ=UTC GIT_CONFIG_NOSYSTEM=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-worktrees.XXXXXX")
trap 'rm -rf "$dir"' EXIT
now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

main="$dir/main"
mkdir -p "$main" && cd "$main"
git init -q -b main
git config user.name Bench && git config user.email bench@example.com
"$BIN" init >/dev/null
{
	echo "active_intents:"
	for w in $(seq 1 "$WORKTREES"); do
		printf '  - {id: INT-%03d, name: "Work %d", status: IN_PROGRESS, owned_scope: ["src/w%d/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}\n' "$w" "$w" "$w"
	done
} >.orchestration/active_intents.yaml
git add -A && git commit -qm "rules"
base=$(git rev-parse HEAD)
for w in $(seq 1 "$WORKTREES"); do
	git worktree add -q "$dir/wt$w" -b "w$w"
done

# One session per work tree, all at once.
run() {
	local w=$1 root="$dir/wt$1" s="s$1" id
	id=$(printf 'INT-%03d' "$w")
	cd "$root"
	printf '{"session_id":"%s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"intenthook select %s"},"tool_use_id":"sel-%s"}' \
		"$s" "$root" "$id" "$s" | "$BIN" pre >/dev/null
	for i in $(seq 1 "$WRITES"); do
		local f="$root/src/w$w/f$i.go"
		printf '{"session_id":"%s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"%s","content":"package w\\n"},"tool_use_id":"t-%s-%d"}' \
			"$s" "$root" "$f" "$s" "$i" | "$BIN" pre >/dev/null || { echo "bench-worktrees: pre refused $f" >&2; return 1; }
		mkdir -p "$(dirname "$f")" && printf 'package w\n' >"$f"
		printf '{"session_id":"%s","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"%s","content":"package w\\n"},"tool_response":{"type":"create"},"tool_use_id":"t-%s-%d"}' \
			"$s" "$root" "$f" "$s" "$i" | "$BIN" post >/dev/null
	done
	git add -A && git commit -qm "work $w"
}
t0=$(now)
pids=()
for w in $(seq 1 "$WORKTREES"); do
	run "$w" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
t1=$(now)

cd "$main"
for w in $(seq 1 "$WORKTREES"); do
	if ! git merge -q --no-edit "w$w" >/dev/null 2>&1; then
		echo "bench-worktrees: merging w$w conflicts:" >&2
		git diff --name-only --diff-filter=U >&2
		exit 1
	fi
done
t2=$(now)
"$BIN" ledger verify >/dev/null
t3=$(now)
"$BIN" audit "$base..HEAD" >"$dir/audit.txt" || { cat "$dir/audit.txt" >&2; exit 1; }
t4=$(now)

calls=$(( WORKTREES * WRITES * 2 ))
records=$(cat .orchestration/ledger/*/*/*.jsonl | wc -l)
echo "work trees: $WORKTREES, writes each: $WRITES, hook calls: $calls"
echo "sessions, all at once: $(ms "$t0" "$t1") ms, $(( ($t1 - $t0) / (WRITES * 2) / 1000 )) µs a hook call in each session (with its write and its work tree's commit); load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
echo "merging $WORKTREES branches into main: $(ms "$t1" "$t2") ms, no conflict"
echo "ledger verify on the merge: $(ms "$t2" "$t3") ms ($records records, $(ls -d .orchestration/ledger/*/ | wc -l) writers)"
echo "audit $base..HEAD: $(ms "$t3" "$t4") ms, passed"
