package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/console"
	"github.com/intenthook/intenthook/internal/safetext"
)

func (a *app) consoleCommand() *cobra.Command {
	var listen, cert, key string
	cmd := &cobra.Command{
		Use:   "console",
		Short: "Serve this repository's live decisions and pending asks, answerable, to your browser (a person's command)",
		Long: `intenthook console serves a page and a JSON API on 127.0.0.1 (--listen to
choose; an address other than loopback needs --tls-cert and --tls-key): the
decisions as the hooks record them, and the asks waiting for a person's
answer (ask.via: console or wait), with allow and deny. It prints a login
URL on stdout that works once, within five minutes; the session lives in
this process's memory only. A person's command: refused from an agent's
process. See docs/console.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			const what = "intenthook console"
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
			if !console.IsLoopback(host) && cert == "" {
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
			srv, err := console.New(console.Config{Root: ws.Root, Addr: addr, TLS: cert != "",
				Answer: func(ctx context.Context, id, verdict, reason string) (asks.Ask, asks.Answer, error) {
					return a.answerAsk(ctx, ws, what, "console", id, verdict, reason)
				}})
			if err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, srv.LoginURL())
			fmt.Fprintf(a.stderr, "intenthook: console of %s on %s: open the URL above within 5 minutes; it logs one browser in, once; stop with Ctrl-C\n", safetext.Quote(ws.Root), addr)
			if !ws.Config.Ask.Waits() {
				fmt.Fprintf(a.stderr, "intenthook: note: ask.via is %s: the hooks ask the host, and no ask waits for the console (set ask.via: %s in %s)\n", ws.Config.Ask.Via, config.AskConsole, config.File)
			}
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go func() {
				<-ctx.Done()
				hs.Close() // the live feeds never end by themselves
			}()
			if cert != "" {
				err = hs.ServeTLS(ln, cert, key)
			} else {
				err = hs.Serve(ln)
			}
			if errors.Is(err, http.ErrServerClosed) {
				return nil
			}
			return err
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:0", "HOST:PORT to serve on (port 0: a free one)")
	cmd.Flags().StringVar(&cert, "tls-cert", "", "TLS certificate file (PEM), needed off loopback")
	cmd.Flags().StringVar(&key, "tls-key", "", "TLS private key file (PEM), needed off loopback")
	return cmd
}
