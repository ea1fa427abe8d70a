// Package consolecmd is intenthook-console's program: intenthook
// console's command (cli.ConsoleMain: its flags, the person's checks, the
// workspace, the answers) served by package console. It is a package, not
// the binary's main alone, so that the testscripts run the same program in
// process.
package consolecmd

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/cli"
	"github.com/intenthook/intenthook/internal/console"
	"github.com/intenthook/intenthook/internal/notify"
)

// Main runs `intenthook console`'s command line after the word console
// and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == AskRemote {
		return askRemote(args[1:], stdin, stdout, stderr)
	}
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
	srv, err := console.New(console.Config{Repos: repos, Addr: site.Addr, TLS: site.CertFile != "", HookToken: site.HookToken, Person: site.Person})
	if err != nil {
		return err
	}
	site.Ready(srv.LoginURL())
	return srv.Serve(ctx, ln, site.CertFile, site.KeyFile)
}

// AskRemote is the hidden command a hook runs to wait on a console on
// another machine (ask.console): the hook's binary links no HTTP client.
const AskRemote = asks.RemoteCommand

// Exit codes of AskRemote beside 0 (answered: the answer on stdout).
const (
	askRemoteFailed   = 1 // the console could not be asked: stderr says why
	askRemoteNoAnswer = asks.RemoteNoAnswer
)

// remotePoll is how often the helper asks the console for the answer.
const remotePoll = 500 * time.Millisecond

// askRemote files the ask on stdin (an asks.Filed without its id) with the
// console --url names, with the token in the variable --token-env names,
// and waits for its answer until the ask's deadline: it prints an
// asks.RemoteAnswer and exits 0, or prints it without an answer and exits
// askRemoteNoAnswer.
func askRemote(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(AskRemote, flag.ContinueOnError)
	fs.SetOutput(stderr)
	rawURL := fs.String("url", "", "the console's https URL (ask.console)")
	pin := fs.String("cert", "", "its certificate's sha256:HEX (ask.console_cert)")
	tokenEnv := fs.String("token-env", "", "the variable holding the hook token (ask.token_env)")
	if err := fs.Parse(args); err != nil {
		return askRemoteFailed
	}
	var f asks.Filed
	if err := json.NewDecoder(io.LimitReader(stdin, 256<<10)).Decode(&f); err != nil {
		fmt.Fprintf(stderr, "intenthook: %s: the ask on stdin: %v\n", AskRemote, err)
		return askRemoteFailed
	}
	c, err := console.NewRemoteClient(*rawURL, *pin, os.Getenv(*tokenEnv))
	if err != nil {
		fmt.Fprintf(stderr, "intenthook: ask.console: %v\n", err)
		return askRemoteFailed
	}
	ctx, cancel := context.WithDeadline(context.Background(), f.Ask.Deadline)
	defer cancel()
	if f.Machine == "" {
		f.Machine, _ = os.Hostname()
	}
	a, err := c.File(ctx, f)
	if err != nil {
		fmt.Fprintf(stderr, "intenthook: ask.console: %v\n", err)
		return askRemoteFailed
	}
	ans, ok := c.Wait(ctx, a.ID, a.Deadline, remotePoll)
	if err := json.NewEncoder(stdout).Encode(asks.RemoteAnswer{ID: a.ID, Answer: ans}); err != nil {
		return askRemoteFailed
	}
	if !ok {
		return askRemoteNoAnswer
	}
	return 0
}
