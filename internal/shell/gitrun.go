package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// The git options, settings and environment that make git run a program the command chooses:
// a one-shot -c core.fsmonitor=…, --exec-path, --upload-pack, rebase --exec, a merge strategy
// of its own, GIT_SSH_COMMAND=…. Each is opaque, as python -c is; `git config KEY …` that sets
// one of the keys asks like the destructive commands (gitConfig).

// gitRisky reports whether a setting (its key in lower case) makes git run a program, or
// changes where git works: the hooks, the pager and editors, drivers, filters, helpers,
// transports, includes.
func gitRisky(key string) bool {
	switch key {
	case "core.hookspath", "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand",
		"core.askpass", "core.gitproxy", "core.alternaterefscommand", "core.worktree",
		"diff.external", "sequence.editor", "credential.helper", "gpg.program",
		"interactive.difffilter", "uploadpack.packobjectshook", "protocol.allow", "init.templatedir",
		"web.browser", "sendemail.sendmailcmd", "sendemail.smtpserver", "sendemail.tocmd",
		"sendemail.cccmd", "sendemail.headercmd":
		return true
	}
	first, rest, _ := strings.Cut(key, ".")
	last := rest[strings.LastIndexByte(rest, '.')+1:]
	switch first {
	case "filter", "alias", "include", "includeif", "pager":
		return true
	case "diff":
		return last == "textconv" || last == "command"
	case "merge":
		return last == "driver"
	case "credential":
		return last == "helper"
	case "gpg":
		return last == "program"
	case "remote":
		return last == "uploadpack" || last == "receivepack" || last == "vcs" || last == "proxy"
	case "protocol":
		return last == "allow"
	case "difftool", "mergetool", "man", "browser":
		return last == "cmd" || last == "path"
	case "submodule":
		return last == "update"
	case "url":
		return last == "insteadof" || last == "pushinsteadof"
	}
	return false
}

// harmlessGitValue reports a one-shot value of a risky key that runs nothing of the command's
// own: a pager or editor that is cat, less or true, an fsmonitor turned on or off, a helper
// reset, the built-in credential caches.
func harmlessGitValue(key, value string) bool {
	v, _, _ := strings.Cut(strings.TrimSpace(value), " ")
	switch {
	case key == "core.pager" || key == "core.editor" || key == "sequence.editor" || strings.HasPrefix(key, "pager."):
		switch v {
		case "", "cat", "less", "more", "true", "false", ":":
			return true
		}
	case key == "core.fsmonitor":
		return v == "true" || v == "false" || v == ""
	case key == "credential.helper":
		return v == "" || v == "cache" || v == "store"
	case key == "core.sshcommand":
		return plainSSH(value)
	}
	return false
}

// plainSSH reports an ssh command line that runs no program of its own:
// ssh with options, none of which names a command to run.
func plainSSH(value string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(value), " ")
	if path.Base(first) != "ssh" {
		return false
	}
	v := strings.ToLower(value)
	// ProxyCommand, LocalCommand and KnownHostsCommand run programs; a
	// config file (-F, Include) may name them
	for _, opt := range []string{"proxycommand", "localcommand", "knownhostscommand", "include", "-f"} {
		if strings.Contains(v, opt) {
			return false
		}
	}
	return !strings.ContainsAny(value, "$`;|&<>")
}

// gitConfigReads reports a `git config` word that makes the command read, not set.
func gitConfigReads(a arg) bool {
	switch a.text {
	case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "get", "list":
		return true
	}
	return false
}

// gitSetting judges a one-shot setting (`git -c KEY=VALUE`, `git --config-env KEY=ENVVAR`):
// an alias to a shell command is walked (git runs it in this command line), a risky key is
// opaque unless its value runs nothing; a value from the environment cannot be read.
func (w *walker) gitSetting(c *call, how string, setting arg, fromEnv bool) {
	if !setting.literal {
		w.opaque(fmt.Sprintf("git %s setting is not a literal word: %s", how, setting.raw))
		return
	}
	key, value, _ := strings.Cut(setting.text, "=")
	key = strings.ToLower(key)
	if strings.HasPrefix(key, "alias.") && !fromEnv {
		w.gitAlias(c, key, value)
		return
	}
	if gitRisky(key) && (fromEnv || !harmlessGitValue(key, value)) {
		w.opaque(fmt.Sprintf("git %s %s makes git run a program", how, key))
	}
}

// gitAlias walks the shell command of `git -c alias.NAME=!command`: git runs
// it when the alias is called, in the same command line.
func (w *walker) gitAlias(c *call, key, value string) {
	if !strings.HasPrefix(strings.TrimSpace(value), "!") {
		return
	}
	if c.f.depth >= maxDepth {
		w.opaque("git alias scripts nested too deeply")
		return
	}
	w.script(c.f.nested(strings.TrimPrefix(strings.TrimSpace(value), "!")), "git alias "+key+": ")
}

// builtinStrategies are the merge strategies git carries; any other name runs git-merge-NAME
// from the PATH.
func builtinStrategy(a arg) bool {
	switch a.text {
	case "ort", "recursive", "resolve", "octopus", "ours", "subtree":
		return a.literal
	}
	return false
}

// gitRunners finds the subcommands' options that run a program: transports (--upload-pack,
// --receive-pack, --exec, an ext:: URL), rebase --exec, merge strategies, difftool -x, grep -O,
// filter-branch; bisect run and submodule foreach are walked as the commands they run. It
// also reports the files the diff family's --output and the archivers' -o write.
func (w *walker) gitRunners(g gitCall, sub string) {
	switch sub {
	case "fetch", "pull", "clone", "ls-remote", "push", "archive", "remote", "submodule":
		for _, a := range g.args {
			if t := cmpText(a); strings.HasPrefix(t, "ext::") || strings.HasPrefix(t, "--remote=ext::") {
				w.opaque(fmt.Sprintf("git %s: an ext:: URL runs a command: %s", sub, a.raw))
			}
		}
	}
	switch sub {
	case "fetch", "pull", "clone", "ls-remote", "push", "archive":
		p := options{
			short: "uoObcs",
			long: []string{"upload-pack", "receive-pack", "exec", "output", "origin", "branch", "config",
				"push-option", "server-option", "remote", "prefix", "format", "depth", "strategy"},
		}.parse(g.args)
		for _, name := range []string{"upload-pack", "receive-pack", "exec"} {
			if prog, ok := p.value(name); ok {
				w.opaque(fmt.Sprintf("git %s --%s runs a program: %s", sub, name, prog.raw))
			}
		}
		if prog, ok := p.value("u"); ok && (sub == "clone" || sub == "ls-remote") {
			w.opaque(fmt.Sprintf("git %s -u runs a program: %s", sub, prog.raw))
		}
		if out, ok := p.value("o", "output"); ok && sub == "archive" && out.text != "-" {
			w.target(g.f, "git archive", writes, out)
		}
		if sub == "pull" {
			w.gitStrategy(g, sub, p)
		}
	case "rebase":
		p := options{short: "xsX", attached: "CS", long: []string{"exec", "strategy", "strategy-option", "onto", "empty", "whitespace"}}.parse(g.args)
		for _, o := range p.opts {
			if isNamed(o.name, []string{"x", "exec"}) {
				w.opaque(fmt.Sprintf("git rebase --exec runs a command: %s", o.value.raw))
				break
			}
		}
		w.gitStrategy(g, sub, p)
	case "merge", "cherry-pick", "revert":
		p := options{short: "sXmF", attached: "S", long: []string{"strategy", "strategy-option", "message", "file", "mainline", "cleanup", "into-name"}}.parse(g.args)
		w.gitStrategy(g, sub, p)
	case "bisect":
		if len(g.args) > 1 && g.args[0].literal && g.args[0].text == "run" {
			w.run(g.f, g.args[1:], stdin{})
		}
	case "submodule":
		w.gitForeach(g)
	case "difftool":
		p := options{short: "xt", long: []string{"extcmd", "tool"}}.parse(g.args)
		if prog, ok := p.value("x", "extcmd"); ok {
			w.opaque("git difftool --extcmd runs a program: " + prog.raw)
		}
	case "grep":
		p := options{short: "efABCm", attached: "O", long: []string{"max-depth", "threads", "context", "after-context", "before-context", "max-count"}}.parse(g.args)
		if pager, ok := p.value("O", "open-files-in-pager"); ok && pager.raw != "" {
			w.opaque("git grep --open-files-in-pager runs a program: " + pager.raw)
		}
	case "filter-branch":
		w.opaque("git filter-branch runs its filters as shell commands")
	case "filter-repo":
		if slices.ContainsFunc(g.args, func(a arg) bool {
			name, _, _ := strings.Cut(cmpText(a), "=")
			return strings.HasPrefix(name, "--") && strings.HasSuffix(name, "-callback")
		}) {
			w.opaque("git filter-repo runs its callbacks as Python code")
		}
	case "send-email":
		p := options{long: []string{"to-cmd", "cc-cmd", "header-cmd", "sendmail-cmd", "smtp-server"}}.parse(g.args)
		for _, name := range []string{"to-cmd", "cc-cmd", "header-cmd", "sendmail-cmd"} {
			if prog, ok := p.value(name); ok {
				w.opaque(fmt.Sprintf("git send-email --%s runs a program: %s", name, prog.raw))
			}
		}
	case "format-patch":
		p := options{short: "ov", long: []string{"output-directory", "start-number", "subject-prefix", "suffix", "to", "cc", "from", "in-reply-to", "base", "signature-file"}}.parse(g.args)
		if dir, ok := p.value("o", "output-directory"); ok {
			w.target(g.f, "git format-patch", writes, dir)
		}
	case "bundle":
		if len(g.args) > 1 && g.args[0].literal && g.args[0].text == "create" {
			p := options{}.parse(g.args[1:])
			if len(p.operands) > 0 && p.operands[0].text != "-" {
				w.target(g.f, "git bundle", writes, p.operands[0])
			}
		}
	}
	switch sub {
	case "diff", "log", "show", "whatchanged", "diff-tree", "diff-index", "diff-files", "range-diff", "stash", "format-patch":
		p := options{short: "SGOlUMCB", long: []string{"output", "format", "pretty", "grep", "author", "since", "until", "committer"}}.parse(g.args)
		if out, ok := p.value("output"); ok && out.text != "-" {
			w.target(g.f, "git "+sub, writes, out)
		}
	}
}

// gitStrategy makes a merge strategy that git does not carry opaque: git runs git-merge-NAME.
func (w *walker) gitStrategy(g gitCall, sub string, p parsed) {
	if s, ok := p.value("s", "strategy"); ok && !builtinStrategy(s) {
		w.opaque(fmt.Sprintf("git %s --strategy runs git-merge-%s", sub, s.raw))
	}
}

// gitForeach walks the command `git submodule foreach` runs in each submodule, whose
// directory the text does not name.
func (w *walker) gitForeach(g gitCall) {
	args := g.args
	for len(args) > 0 && isOption(args[0]) {
		args = args[1:]
	}
	if len(args) < 2 || !args[0].literal || args[0].text != "foreach" {
		return
	}
	args = args[1:]
	for len(args) > 0 && isOption(args[0]) {
		args = args[1:]
	}
	f := g.f.subshell()
	f.lost = true
	if len(args) == 1 {
		w.inline(&call{f: f, prog: g.c.prog, name: "git submodule foreach"}, args[0])
		return
	}
	w.run(f, args, stdin{})
}

// cmpText is a word's text, or for one that is not literal, its literal start.
func cmpText(a arg) string {
	if a.literal {
		return a.text
	}
	return a.lead
}

// gitEnv reports the environment variables that make git (or less) run a program.
func gitEnv(name string) bool {
	switch name {
	case "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_CONFIG", "GIT_CONFIG_COUNT", "GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH", "GIT_SSH",
		"GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_CONFIG_PARAMETERS",
		"GIT_TEMPLATE_DIR", "LESSOPEN", "LESSCLOSE":
		return true
	}
	return false
}

// harmlessEnv reports the values of those variables that run nothing of the command's own.
func harmlessEnv(name, value string) bool {
	v, _, _ := strings.Cut(strings.TrimSpace(value), " ")
	switch name {
	case "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR":
		return slices.Contains([]string{"", "cat", "less", "more", "true", "false", ":"}, v)
	case "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG":
		return v == "/dev/null"
	case "GIT_CONFIG_COUNT":
		return v == "0"
	case "GIT_SSH_COMMAND":
		return plainSSH(value)
	case "LESSOPEN", "LESSCLOSE":
		return v == ""
	}
	return false
}

// assignment judges a VAR=value in front of a command, after env, or exported: the git
// environment that runs programs is opaque.
func (w *walker) assignment(name string, value arg) {
	switch {
	case !gitEnv(name):
	case !value.literal:
		w.opaque(fmt.Sprintf("%s is set from a word that is not literal: %s", name, value.raw))
	case !harmlessEnv(name, value.text):
		w.opaque(fmt.Sprintf("%s=%s makes git run a program", name, value.text))
	}
}
