#!/usr/bin/env bash
# make demo: a scripted agent session through the real binary, in a throwaway
# copy of testdata/demo. Each step prints the tool call and intenthook's answer.
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
ws=$(mktemp -d "${TMPDIR:-/tmp}/intenthook-demo.XXXXXX")
trap 'rm -rf "$ws"' EXIT
cp -R "$here/testdata/demo/." "$ws/"
cd "$ws"
git init -q . && git add -A && git -c user.name=demo -c user.email=demo@example.com commit -qm "demo project"

session=demo-session-1
n=0
bold=$'\e[1m'; dim=$'\e[2m'; off=$'\e[0m'
[ -t 1 ] || { bold=; dim=; off=; }

# field NAME: the JSON string field NAME of the answer on stdin, unescaped
# (escaped quotes and backslashes kept inside the value), one line per line.
field() {
  sed -E 's/.*"'"$1"'":"(([^"\\]|\\.)*)".*/\1/; s/\\n/\n/g; s/\\"/"/g; s/\\u003c/</g; s/\\u003e/>/g; s/\\u0026/\&/g; s/\\\\/\\/g'
}

# event HOOK TOOL INPUT-JSON [RESPONSE-JSON]: send one event, print the answer.
event() {
  local hook=$1 tool=$2 input=$3 response=${4:-}
  n=$((n + 1))
  local use=${use_id:-toolu_$n}
  local name=PreToolUse
  [ "$hook" = post ] && name=PostToolUse
  local json="{\"session_id\":\"$session\",\"transcript_path\":\"/home/dev/.claude/projects/demo/$session.jsonl\",\"cwd\":\"$ws\",\"hook_event_name\":\"$name\",\"tool_name\":\"$tool\",\"tool_input\":$input,\"tool_use_id\":\"$use\"${response:+,\"tool_response\":$response}}"
  printf '%s%2d. %s %s%s %s%s%s\n' "$bold" "$n" "$name" "$tool" "$off" "$dim" "${input//$ws\//}" "$off"
  local out err code=0
  out=$("$bin" "$hook" <<<"$json" 2>"$ws/.stderr") || code=$?
  err=$(cat "$ws/.stderr")
  verdict=allow
  if [ "$code" = 2 ]; then
    verdict=deny
    echo "    → DENY (exit 2)"
    sed 's/^/      /' <<<"${err//$ws\//}"
  elif [[ "$out" == *'"permissionDecision":"ask"'* ]]; then
    verdict=ask
    echo "    → ASK the human:"
    field permissionDecisionReason <<<"${out//$ws\//}" | sed 's/^/      /'
  elif [[ "$out" == *'"permissionDecision":"allow"'* ]]; then
    echo "    → ALLOW with context for the agent:"
    field additionalContext <<<"$out" | sed 's/^/      /'
  elif [ "$hook" = post ] && [ "$tool" = Read ]; then
    echo "    → noted: the session read this version (kept for the stale-file check; no ledger record)${err:+ ($err)}"
  elif [ "$hook" = post ]; then
    echo "    → recorded${err:+ ($err)}"
  else
    echo "    → allow (silent)"
  fi
  echo
}
write() { # write PATH CONTENT: a Write tool call; when allowed, the file is written and post runs
  local input="{\"file_path\":\"$ws/$1\",\"content\":\"$2\"}"
  use_id=toolu_w$n
  event pre Write "$input"
  if [ "$verdict" = allow ]; then
    printf '%s\n' "$2" > "$ws/$1"
    event post Write "$input" "{\"type\":\"update\",\"filePath\":\"$ws/$1\"}"
  fi
  use_id=
}

echo "${bold}intenthook demo${off} — workspace $ws"
echo "${dim}catalog: INT-001 (PENDING, owns src/billing/**), INT-002 (IN_PROGRESS, requires approval, owns src/api/**)${off}"
echo

echo "${bold}# A session starts: intenthook context tells the agent the rules${off}"
printf '{"session_id":"%s","transcript_path":"/home/dev/.claude/projects/demo/%s.jsonl","cwd":"%s","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-5"}' "$session" "$session" "$ws" |
  "$bin" context | field additionalContext | sed 's/^/      /'
echo

echo "${bold}# The agent writes before selecting an intent${off}"
write src/billing/invoice.go "package billing"

echo "${bold}# It selects INT-001 with the shell command the deny message suggested${off}"
event pre Bash '{"command":"intenthook select INT-001","description":"Select the billing intent"}'
echo "${dim}the catalog's INT-001 line now reads:$(grep -m1 'status:' .orchestration/active_intents.yaml)${off}"
echo

echo "${bold}# An allowed write inside the scope${off}"
event post Read "{\"file_path\":\"$ws/src/billing/invoice.go\"}"
write src/billing/invoice.go "package billing // cents"

echo "${bold}# A write outside the scope${off}"
write src/api/client.go "package api // hacked"

echo "${bold}# A write to a protected governance file${off}"
write .orchestration/active_intents.yaml "active_intents: []"

echo "${bold}# A path escaping the workspace${off}"
write ../../etc/cron.d/job "* * * * * root true"

echo "${bold}# An ignored file needs no intent${off}"
write debug.log "trace"

echo "${bold}# Another person changes the file the agent read: its edit is stale${off}"
printf 'package billing // edited by a person\n' > src/billing/invoice.go
event pre Edit "{\"file_path\":\"$ws/src/billing/invoice.go\",\"old_string\":\"cents\",\"new_string\":\"int64 cents\"}"

echo "${bold}# It re-reads the file, then edits it${off}"
event post Read "{\"file_path\":\"$ws/src/billing/invoice.go\"}"
use_id=toolu_edit
event pre Edit "{\"file_path\":\"$ws/src/billing/invoice.go\",\"old_string\":\"person\",\"new_string\":\"person, in cents\"}"
sed -i 's/person/person, in cents/' src/billing/invoice.go
event post Edit "{\"file_path\":\"$ws/src/billing/invoice.go\",\"old_string\":\"person\",\"new_string\":\"person, in cents\"}" '{"filePath":"src/billing/invoice.go","structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-a","+b"]}]}'
use_id=

echo "${bold}# A shell command that writes outside the scope${off}"
event pre Bash '{"command":"echo \"// TODO\" >> src/api/client.go","description":"Leave a note"}'

echo "${bold}# A destructive shell command asks the human${off}"
event pre Bash '{"command":"rm -rf src/billing","description":"Start over"}'

echo "${bold}# The agent switches to INT-002, which requires approval${off}"
event pre select_active_intent '{"intent_id":"INT-002"}'
write src/api/client.go "package api // v2"

echo "${bold}# A person verifies INT-001: its checks run, and it becomes COMPLETE${off}"
"$bin" intents verify INT-001 --confirm-manual | sed 's/^/    /'
echo

echo "${bold}# The ledger the session wrote (segments under .orchestration/ledger/)${off}"
"$bin" ledger query | sed 's/^/    /'
echo
"$bin" ledger verify | sed 's/^/    /'
echo
echo "${bold}# One record in full${off}"
"$bin" ledger query --json --file src/billing/invoice.go -n 1 | sed 's/^/    /'
echo
echo "${bold}# The intent map (.orchestration/intent_map.md)${off}"
sed 's/^/    /' .orchestration/intent_map.md
echo
echo "${bold}# Lessons recorded for agents (.orchestration/CLAUDE.md, Lessons Learned)${off}"
sed -n '/^## Lessons Learned/,/^## Project/p' .orchestration/CLAUDE.md | grep '^- ' | sed 's/^/    /'
echo
echo "${bold}# The report people look at (intenthook report)${off}"
"$bin" report -o "${INTENTHOOK_DEMO_REPORT:-$here/bin/intenthook-report.html}" | sed 's/^/    /'
echo "    open it in a browser: a board of the intents, their dependencies, and each one's timeline"
