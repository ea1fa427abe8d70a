#!/usr/bin/env bash
# Installs the agent CLIs the end-to-end harness runs, at pinned versions, into
# a cache outside the repository. Already installed clients are kept.
set -euo pipefail
cache="${INTENTHOOK_E2E_CACHE:-$HOME/.cache/intenthook-e2e}"
install() { # dir, packages...
  local dir="$cache/$1"; shift
  [ -d "$dir/node_modules" ] && return 0
  mkdir -p "$dir"
  (cd "$dir" && npm install --no-audit --no-fund --prefix . "$@" > install.log 2>&1) || { echo "e2e: npm install $* failed, see $dir/install.log" >&2; return 1; }
}
install claude @anthropic-ai/claude-code@2.1.330
install gemini @google/gemini-cli@0.61.0
install codex @openai/codex@0.169.0
install qwen node@22 @qwen-code/qwen-code@0.24.4 # Qwen needs Node 22; on Node 20 npm picks 0.15.x
install copilot @github/copilot@1.0.102
install droid @factory/cli@0.225.1 @factory/cli-linux-x64@0.225.2 # its postinstall may not run
install auggie @augmentcode/auggie@0.36.0 # run against the mock as its Augment tenant
install opencode opencode-ai@1.18.33 # bun binary; its platform package comes as a dependency
install kilo @kilocode/cli@7.7.7 # OpenCode-derived bun binary; 7.8.1's platform package is missing from the registry
install cline cline@3.0.65 # the SDK CLI (bun binary); its platform package comes as a dependency
