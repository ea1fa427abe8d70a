// Package consolecmd is intenthook-console's program: intenthook
// console's command (cli.ConsoleMain: its flags, the person's checks, the
// workspace, the answers) served by package console. It is a package, not
// the binary's main alone, so that the testscripts run the same program in
// process.
package consolecmd

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/cli"
	"github.com/intenthook/intenthook/internal/console"
	"github.com/intenthook/intenthook/internal/notify"
)

// Main runs `intenthook console`'s command line after the word console
// and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.ConsoleMain(args, stdin, stdout, stderr, cli.ConsoleServer{IsLoopback: console.IsLoopback, Serve: serve, Notify: sendAsks})
}

// sendAsks sends each new pending ask of root to the webhook at rawURL
// until ctx ends.
func sendAsks(ctx context.Context, root, rawURL string, report func(asks.Ask, error)) error {
	s, err := notify.NewSender(rawURL)
	if err != nil {
		return fmt.Errorf("the webhook's URL: %w", err)
	}
	notify.Watch(ctx, root, s, 500*time.Millisecond, time.Now, report)
	return nil
}

// serve serves site with a console of package console's.
func serve(ctx context.Context, ln net.Listener, site cli.ConsoleSite) error {
	repos := make([]console.Repo, 0, len(site.Repos))
	for _, r := range site.Repos {
		repos = append(repos, console.Repo{Name: r.Name, Root: r.Root, Answer: r.Answer, Review: r.Review})
	}
	srv, err := console.New(console.Config{Repos: repos, Addr: site.Addr, TLS: site.CertFile != ""})
	if err != nil {
		return err
	}
	site.Ready(srv.LoginURL())
	return srv.Serve(ctx, ln, site.CertFile, site.KeyFile)
}
