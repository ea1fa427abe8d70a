package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/safetext"
)

// ConsoleName is the binary that serves `console`: net/http's server
// stays out of this one, which a hook may start.
const ConsoleName = "intenthook-console"

const (
	consoleUse   = "console [--listen HOST:PORT] [--tls-cert FILE --tls-key FILE]"
	consoleShort = "Serve this repository's live decisions and pending asks, answerable, to your browser (a person's command)"
	consoleLong  = `intenthook console serves a page and a JSON API on 127.0.0.1 (--listen to
choose; an address other than loopback needs --tls-cert and --tls-key): the
decisions as the hooks record them, and the asks waiting for a person's
answer (ask.via: console or wait), with allow and deny. It prints a login
URL on stdout that works once, within five minutes; the session lives in
this process's memory only. A person's command: refused from an agent's
process. Run by intenthook-console, installed beside intenthook. See
docs/console.md.`
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
func consoleFlags(cmd *cobra.Command) (listen, cert, key *string) {
	listen = cmd.Flags().String("listen", "127.0.0.1:0", "HOST:PORT to serve on (port 0: a free one)")
	cert = cmd.Flags().String("tls-cert", "", "TLS certificate file (PEM), needed off loopback")
	key = cmd.Flags().String("tls-key", "", "TLS private key file (PEM), needed off loopback")
	return listen, cert, key
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
}

// ConsoleSite is one console to serve.
type ConsoleSite struct {
	Root string // the workspace root
	// Addr is the host:port the console answers as: the address listened
	// on, or the host name --listen gave with the port.
	Addr              string
	CertFile, KeyFile string // TLS when CertFile is not ""
	// Answer answers a pending ask for the person, as intenthook ask
	// allow|deny does (answerAsk: the person's checks, in this process).
	Answer func(ctx context.Context, id, verdict, reason string) (asks.Ask, asks.Answer, error)
	Ready  func(loginURL string) // says where to log in, once
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
	root.AddCommand(a.consoleServeCommand(srv))
	return a.execute(root, append([]string{"console"}, args...))
}

// consoleServeCommand is intenthook console itself, in intenthook-console.
func (a *app) consoleServeCommand(srv ConsoleServer) *cobra.Command {
	var listen, cert, key *string
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
			if err := a.personAct(cmd.Context(), ws, what, "console", ""); err != nil {
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
			return srv.Serve(ctx, ln, ConsoleSite{Root: ws.Root, Addr: addr, CertFile: cert, KeyFile: key,
				Answer: func(ctx context.Context, id, verdict, reason string) (asks.Ask, asks.Answer, error) {
					return a.answerAsk(ctx, ws, what, "console", id, verdict, reason)
				},
				Ready: func(loginURL string) {
					fmt.Fprintln(a.stdout, loginURL)
					fmt.Fprintf(a.stderr, "intenthook: console of %s on %s: open the URL above within 5 minutes; it logs one browser in, once; stop with Ctrl-C\n", safetext.Quote(ws.Root), addr)
					if !ws.Config.Ask.Waits() {
						fmt.Fprintf(a.stderr, "intenthook: note: ask.via is %s: the hooks ask the host, and no ask waits for the console (set ask.via: %s in %s)\n", ws.Config.Ask.Via, config.AskConsole, config.File)
					}
				}})
		},
	}
	listen, cert, key = consoleFlags(cmd)
	return cmd
}
