#!/usr/bin/env bash
# Checks that every commit of a range builds and passes go vet, so that
# git bisect never stops on a commit that cannot be judged. Each commit is
# checked out, oldest first, in one temporary worktree (git worktree add
# under a temporary directory: the caller's work tree and index are never
# touched) and gets:
#   go build ./... && go vet ./...
#   go build -tags noyaml ./cmd/intenthook
#   go vet -tags noyaml ./internal/intents/... ./internal/config ./internal/full ./internal/hookcmd
#
#   scripts/bisectable.sh [-k] [-n N] [RANGE]
#     RANGE  a git rev-list range (origin/main..HEAD, a single commit);
#            without one, the last N commits of HEAD
#     -n N   check at most the newest N commits of the range (default
#            without a RANGE: 30; with one: all of it)
#     -k     check every commit and list each that fails (default: stop
#            at the first)
# Exits 0 when every commit checked passed, 1 naming the first that
# failed (the oldest, in topological order), 2 on a usage error.
set -euo pipefail

usage() {
	echo "usage: scripts/bisectable.sh [-k] [-n N] [RANGE]" >&2
	exit 2
}
keep=0
max=
while [ $# -gt 0 ]; do
	case "$1" in
	-k) keep=1 ;;
	-n)
		[ $# -ge 2 ] && [ "$2" -gt 0 ] 2>/dev/null || usage
		max=$2
		shift
		;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
[ $# -le 1 ] || usage
cd "$(git rev-parse --show-toplevel)"

if [ $# -eq 1 ]; then
	case "$1" in
	*..*) range=("$1") ;;
	*) range=(-1 "$(git rev-parse --verify "$1^{commit}")") ;;
	esac
else
	range=(HEAD)
	max=${max:-30}
fi
all=$(git rev-list --count "${range[@]}")
commits=$(git rev-list --reverse --topo-order ${max:+--max-count="$max"} "${range[@]}")
total=$(printf '%s\n' "$commits" | grep -c . || true)
if [ "$total" -eq 0 ]; then
	echo "bisectable: no commits in the range"
	exit 0
fi
if [ "$total" -lt "$all" ] && [ $# -eq 1 ]; then
	echo "bisectable: the range holds $all commits; the newest $total are checked"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bisectable.XXXXXX")
wt="$tmp/wt"
cleanup() {
	git worktree remove --force "$wt" >/dev/null 2>&1 || true
	rm -rf "$tmp"
	git worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT
git worktree add --quiet --detach "$wt" "$(printf '%s\n' "$commits" | head -n 1)"

# check runs the steps in the worktree, naming the one that failed; its
# output is in $tmp/out.
check() {
	(cd "$wt" && go build ./... && go vet ./...) >"$tmp/out" 2>&1 || { echo "go build ./... && go vet ./..."; return 1; }
	(cd "$wt" && go build -tags noyaml -o /dev/null ./cmd/intenthook) >"$tmp/out" 2>&1 || { echo "go build -tags noyaml ./cmd/intenthook"; return 1; }
	(cd "$wt" && go vet -tags noyaml ./internal/intents/... ./internal/config ./internal/full ./internal/hookcmd) >"$tmp/out" 2>&1 || { echo "go vet -tags noyaml"; return 1; }
}

echo "bisectable: $total commit(s), oldest first"
failed=()
n=0
start=$SECONDS
for c in $commits; do
	n=$((n + 1))
	git -C "$wt" checkout --quiet --detach --force "$c"
	t0=$SECONDS
	line="$(git log -1 --format='%h %<(60,trunc)%s' "$c")"
	if step=$(check); then
		printf '%3d/%d ok   %s (%ds)\n' "$n" "$total" "$line" $((SECONDS - t0))
		continue
	fi
	printf '%3d/%d FAIL %s (%ds): %s\n' "$n" "$total" "$line" $((SECONDS - t0)) "$step"
	sed -n '1,20s/^/      /p' "$tmp/out"
	failed+=("$c")
	if [ "$keep" = 0 ]; then
		break
	fi
done
if [ ${#failed[@]} -eq 0 ]; then
	echo "bisectable: all $total commit(s) build and vet ($((SECONDS - start))s)"
	exit 0
fi
echo "bisectable: first failing commit: $(git log -1 --format='%H %s' "${failed[0]}")"
if [ "$keep" = 1 ]; then
	echo "bisectable: ${#failed[@]} of $total commit(s) fail:"
	for c in "${failed[@]}"; do
		git log -1 --format='  %h %s' "$c"
	done
fi
exit 1
