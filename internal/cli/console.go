package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

// ConsoleName is the binary that serves `console`: net/http's server
// stays out of this one, which a hook may start.
const ConsoleName = full.Console

const (
	consoleUse   = "console [--listen HOST:PORT] [--tls-cert FILE --tls-key FILE] [--repos DIR,…] [--hook-token-env NAME]"
	consoleShort = "Serve this repository's live decisions and pending asks, answerable, to your browser (a person's command)"
	consoleLong  = `intenthook console serves a page and a JSON API on 127.0.0.1 (--listen to
choose; an address other than loopback needs --tls-cert and --tls-key):
the decisions as the hooks record them, and the asks waiting for a
person's answer (ask.via: console or wait), with allow and deny; with
--repos, other repositories' beside this one's; with --hook-token-env (and
TLS), the asks of hooks on other machines whose ask.console names this
console. It prints a login URL on stdout that works once, within five
minutes; the session lives in this process's memory only. A person's
command: refused from an agent's process. Run by intenthook-console,
installed beside intenthook. See docs/console.md.`
)

// consoleCommand hands `console …` to intenthook-console beside this
// binary, which runs the person's checks itself: each answer given in the
// console is checked again in its process, the one whose ancestors count.
func (a *app) consoleCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:                consoleUse,
		Short:              consoleShort,
		Long:               consoleLong,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.handOff(ConsoleName, args)
		},
	}
	consoleFlags(cmd) // for intenthook help console: intenthook-console parses them
	return cmd
}

// consoleFlags declares intenthook console's flags on cmd.
func consoleFlags(cmd *cobra.Command) (listen, cert, key, tokenEnv *string, repos *[]string) {
	listen = cmd.Flags().String("listen", "127.0.0.1:0", "HOST:PORT to serve on (port 0: a free one)")
	cert = cmd.Flags().String("tls-cert", "", "TLS certificate file (PEM), needed off loopback")
	key = cmd.Flags().String("tls-key", "", "TLS private key file (PEM), needed off loopback")
	repos = cmd.Flags().StringSlice("repos", nil, "more workspaces to serve (DIR,DIR…; repeatable): the page and the API name each by its directory's name (?repo=NAME)")
	tokenEnv = cmd.Flags().String("hook-token-env", "", "take the asks of hooks on other machines (their ask.console) that send the token this environment variable holds (needs --tls-cert)")
	return listen, cert, key, tokenEnv, repos
}

// ConsoleServer is the serving half of intenthook console, package
// console's, which only intenthook-console links and gives ConsoleMain:
// this package keeps the command (its flags, the person's checks, the
// workspace, the answers) and links no HTTP server.
type ConsoleServer struct {
	// IsLoopback reports whether host is this machine's own: a console
	// there needs no TLS.
	IsLoopback func(host string) bool
	// Serve serves site on ln until ctx ends; it calls site.Ready with
	// the login URL before it serves.
	Serve func(ctx context.Context, ln net.Listener, site ConsoleSite) error
	// Notify sends each new pending ask of the workspace at root to the
	// webhook at rawURL until ctx ends, telling report of each; it fails
	// at once on a URL it cannot send to.
	Notify func(ctx context.Context, root, rawURL string, report func(asks.Ask, error)) error
}

// ConsoleSite is one console to serve.
type ConsoleSite struct {
	// Repos are the repositories served: the workspace the command runs
	// in first, then those --repos names.
	Repos []ConsoleRepo
	// Addr is the host:port the console answers as: the address listened
	// on, or the host name --listen gave with the port.
	Addr              string
	CertFile, KeyFile string                // TLS when CertFile is not ""
	Ready             func(loginURL string) // says where to log in, once
	// HookToken lets hooks on other machines file asks (ask.console);
	// "" refuses them.
	HookToken string
	// Person names who answers such an ask with verdict, after the
	// person's checks (By, User and Via of the answer).
	Person func(ctx context.Context, asked asks.Ask, verdict string) (asks.Answer, error)
}

// ConsoleMain is intenthook-console's entry point: args are `intenthook
// console`'s command line after the word console (intenthook-full hands
// them on, with the global --root); srv serves. Its help, flags and
// errors are those of intenthook console.
func ConsoleMain(args []string, stdin io.Reader, stdout, stderr io.Writer, srv ConsoleServer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	root := &cobra.Command{Use: "intenthook", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().StringVar(&a.root, "root", "", "workspace root (default: found from the working directory)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return withHint(err, "see 'intenthook "+commandPath(c)+" --help'")
	})
	root.AddCommand(a.consoleServeCommand(srv), a.notifyServeCommand(srv))
	if len(args) == 0 || args[0] != "ask" {
		args = append([]string{"console"}, args...)
	}
	return a.execute(root, args)
}

// consoleServeCommand is intenthook console itself, in intenthook-console.
func (a *app) consoleServeCommand(srv ConsoleServer) *cobra.Command {
	var listen, cert, key, tokenEnv *string
	var repos *[]string
	cmd := &cobra.Command{
		Use:   consoleUse,
		Short: consoleShort,
		Long:  consoleLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			const what = "intenthook console"
			listen, cert, key := *listen, *cert, *key
			if err := a.personOnly(what); err != nil {
				return err
			}
			if (cert == "") != (key == "") {
				return errors.New("--tls-cert and --tls-key go together")
			}
			hookToken, err := a.hookToken(*tokenEnv, cert != "")
			if err != nil {
				return err
			}
			host, _, err := net.SplitHostPort(listen)
			if err != nil {
				return fmt.Errorf("--listen %s: want HOST:PORT: %w", safetext.Quote(listen), err)
			}
			if !srv.IsLoopback(host) && cert == "" {
				return withHint(fmt.Errorf("--listen %s is not a loopback address: a console anyone else can reach is served over TLS only", safetext.Quote(listen)),
					"give --tls-cert FILE --tls-key FILE, or listen on 127.0.0.1")
			}
			if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
				// The console answers only to the Host it serves as.
				return withHint(fmt.Errorf("--listen %s names no one address: the console answers only requests to its own host name", safetext.Quote(listen)),
					"name the address or host name browsers will use, such as --listen console.example:8443")
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			if err := a.personActNow(cmd.Context(), ws, what, "console", ""); err != nil {
				return err
			}
			more, err := a.consoleRepos(cmd.Context(), ws, *repos)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return fmt.Errorf("console: %w", err)
			}
			defer ln.Close()
			addr := ln.Addr().String()
			if net.ParseIP(host) == nil && host != "" {
				// A name: the browser's Host names it, not the address.
				_, port, _ := net.SplitHostPort(addr)
				addr = net.JoinHostPort(host, port)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if name := ws.Config.Notify.WebhookURLEnv; name != "" {
				rawURL, err := a.webhookURL(ws)
				if err == nil {
					go func() {
						if err := srv.Notify(ctx, ws.Root, rawURL, a.notified(ws)); err != nil {
							fmt.Fprintf(a.stderr, "intenthook: warning: notify: %v\n", err)
						}
					}()
				} else {
					fmt.Fprintf(a.stderr, "intenthook: note: %v: no pending ask is sent\n", err)
				}
			}
			return srv.Serve(ctx, ln, ConsoleSite{Repos: append([]ConsoleRepo{a.consoleRepo(ws)}, more...), Addr: addr, CertFile: cert, KeyFile: key,
				HookToken: hookToken, Person: a.consolePerson(ws),
				Ready: func(loginURL string) {
					fmt.Fprintln(a.stdout, loginURL)
					fmt.Fprintf(a.stderr, "intenthook: console of %s on %s: open the URL above within 5 minutes; it logs one browser in, once; stop with Ctrl-C\n", safetext.Quote(ws.Root), addr)
					if !ws.Config.Ask.Waits() {
						fmt.Fprintf(a.stderr, "intenthook: note: ask.via is %s: the hooks ask the host, and no ask waits for the console (set ask.via: %s in %s)\n", ws.Config.Ask.Via, config.AskConsole, config.File)
					}
				}})
		},
	}
	listen, cert, key, tokenEnv, repos = consoleFlags(cmd)
	return cmd
}

// minHookToken is the shortest hook token a console takes: a token is a
// password anyone who reaches the console may guess at.
const minHookToken = 32

// hookToken reads the hook token from the person's variable name ("" for
// none): set, at least minHookToken bytes, and only with TLS.
func (a *app) hookToken(name string, tls bool) (string, error) {
	if name == "" {
		return "", nil
	}
	tok := a.getenv(name)
	switch {
	case !tls:
		return "", withHint(errors.New("--hook-token-env: a console takes other machines' asks over TLS only"), "give --tls-cert FILE --tls-key FILE, and pin the certificate in the agents' ask.console_cert")
	case len(tok) < minHookToken:
		return "", withHint(fmt.Errorf("--hook-token-env %s: the variable holds %d bytes, want at least %d", safetext.Quote(name), len(tok), minHookToken),
			"make one with: head -c 32 /dev/urandom | base64, and give the agents' machines the same in ask.token_env's variable")
	}
	return tok, nil
}

// consolePerson is who answers an ask filed from another machine in a
// console serving ws: the process rule asked again, as intenthook ask
// asks it for a local answer (a refusal is recorded with the same line),
// then the answerer.
func (a *app) consolePerson(ws *workspace.Workspace) func(ctx context.Context, asked asks.Ask, verdict string) (asks.Answer, error) {
	return func(ctx context.Context, asked asks.Ask, verdict string) (asks.Answer, error) {
		if err := a.personActNow(ctx, ws, "intenthook console", "ask "+verdict+" "+asked.ID, asked.Intent); err != nil {
			return asks.Answer{}, err
		}
		return a.answerer(ctx, ws, "console"), nil
	}
}

// ConsoleRepo is a repository a console serves: its name (its
// directory's), workspace root, and the person's answers and reviews
// there, given as intenthook ask allow|deny and intents approve|reject give
// them (the person's checks, in this process), recorded via the console.
type ConsoleRepo struct {
	Name, Root string
	Answer     func(ctx context.Context, id, verdict, reason string) (asks.Ask, asks.Answer, error)
	Review     func(ctx context.Context, id, decision, reason string) error
}

// consoleRepo is ws as a console serves it: answers and reviews given in
// the console, recorded in ws.
func (a *app) consoleRepo(ws *workspace.Workspace) ConsoleRepo {
	return ConsoleRepo{Name: filepath.Base(ws.Root), Root: ws.Root,
		Answer: func(ctx context.Context, id, verdict, reason string) (asks.Ask, asks.Answer, error) {
			return a.answerAsk(ctx, ws, "intenthook console", "console", id, verdict, reason)
		},
		Review: func(ctx context.Context, id, decision, reason string) error {
			if decision == "reject" {
				return a.rejectIntent(ctx, ws, id, reason, "console")
			}
			_, err := a.approveIntent(ctx, ws, id, reason, "console")
			return err
		}}
}

// consoleRepos opens the workspaces --repos names, each checked as the
// first was (a person's command, not in an agent's process tree there),
// each named by its directory's name, distinct from the others'.
func (a *app) consoleRepos(ctx context.Context, first *workspace.Workspace, dirs []string) ([]ConsoleRepo, error) {
	names := map[string]string{filepath.Base(first.Root): first.Root}
	var out []ConsoleRepo
	for _, dir := range dirs {
		root, err := workspace.Locate(dir, dir)
		if err != nil {
			return nil, withHint(fmt.Errorf("--repos %s: %w", safetext.Quote(dir), err), "name a governed workspace (intenthook init makes one)")
		}
		if root == first.Root || slices.ContainsFunc(out, func(r ConsoleRepo) bool { return r.Root == root }) {
			continue
		}
		if other, ok := names[filepath.Base(root)]; ok {
			return nil, fmt.Errorf("--repos: %s and %s have one name, %s: the console names a repository by its directory's name", safetext.Quote(other), safetext.Quote(root), safetext.Quote(filepath.Base(root)))
		}
		ws, err := workspace.Load(root, workspace.Governance(agent.Governance()), a.getenv, nowFunc)
		if err != nil {
			return nil, fmt.Errorf("--repos %s: %w", safetext.Quote(dir), err)
		}
		if err := a.personActNow(ctx, ws, "intenthook console", "console", ""); err != nil {
			return nil, err
		}
		names[filepath.Base(root)] = root
		out = append(out, a.consoleRepo(ws))
	}
	return out, nil
}

// notifyServeCommand is intenthook ask serve-notify, in intenthook-console
// (which links net/http): ask's own word around it, so that its help and
// errors read as intenthook's.
func (a *app) notifyServeCommand(srv ConsoleServer) *cobra.Command {
	ask := &cobra.Command{Use: "ask", Short: "Asks waiting for a person", Hidden: true}
	ask.AddCommand(&cobra.Command{
		Use:   notifyUse,
		Short: notifyShort,
		Long:  notifyLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			const what = "intenthook ask serve-notify"
			if err := a.personOnly(what); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			if err := a.personActNow(cmd.Context(), ws, what, "ask serve-notify", ""); err != nil {
				return err
			}
			rawURL, err := a.webhookURL(ws)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(a.stderr, "intenthook: sending each new pending ask of %s to the webhook in $%s; stop with Ctrl-C\n", safetext.Quote(ws.Root), ws.Config.Notify.WebhookURLEnv)
			if !ws.Config.Ask.Waits() {
				fmt.Fprintf(a.stderr, "intenthook: note: ask.via is %s: no ask waits for a person (set ask.via: %s in %s)\n", ws.Config.Ask.Via, config.AskWait, config.File)
			}
			return srv.Notify(ctx, ws.Root, rawURL, a.notified(ws))
		},
	})
	return ask
}

const (
	notifyUse   = "serve-notify"
	notifyShort = "Send each new pending ask to the webhook notify.webhook_url_env names, until stopped (a person's command)"
	notifyLong  = `intenthook ask serve-notify POSTs each new pending ask (ask.via: wait or
console) as JSON to a webhook: a one-line "text" a chat shows, and the ask's
fields, the agent's words labelled as the agent's. The URL is read from the
environment variable notify.webhook_url_env in .orchestration/config.yaml
names, in your environment: never from a file, never from an agent's.
A message that fails is tried four times in all, then given up; intenthook
doctor shows the last failure. The hooks never wait on it. intenthook console
sends them too, while it runs. Run by intenthook-console, installed beside
intenthook. See docs/asks.md.`
)

// webhookURL is the webhook's URL, from the variable the settings name, in
// this person's environment.
func (a *app) webhookURL(ws *workspace.Workspace) (string, error) {
	name := ws.Config.Notify.WebhookURLEnv
	if name == "" {
		return "", withHint(errors.New("notify.webhook_url_env is not set in "+config.File),
			"name the environment variable that holds the webhook's URL: notify: {webhook_url_env: INTENTHOOK_WEBHOOK}")
	}
	rawURL := a.getenv(name)
	if rawURL == "" {
		return "", withHint(fmt.Errorf("$%s, which notify.webhook_url_env names, is empty in this environment", safetext.Quote(name)),
			"set it to the webhook's URL in your own shell: it is read from there only")
	}
	return rawURL, nil
}

// notified tells the person of each send, and keeps the last for doctor.
func (a *app) notified(ws *workspace.Workspace) func(asks.Ask, error) {
	return func(p asks.Ask, err error) {
		n := asks.Notified{At: nowFunc().UTC(), Ask: p.ID}
		if err != nil {
			n.Error = err.Error()
			fmt.Fprintf(a.stderr, "intenthook: ask %s: not sent: %v\n", p.ID, err)
		} else {
			fmt.Fprintf(a.stderr, "intenthook: ask %s: sent\n", p.ID)
		}
		if err := asks.For(ws.Root).NoteNotified(n); err != nil {
			fmt.Fprintf(a.stderr, "intenthook: warning: %v\n", err)
		}
	}
}
