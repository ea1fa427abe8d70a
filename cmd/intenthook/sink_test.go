package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
)

// webhookSink is a webhook receiver for the testscripts, run as a program
// of its own: webhook-sink ADDRFILE LOGFILE STATUS listens on 127.0.0.1,
// writes its address to ADDRFILE once it listens, and answers every
// request with STATUS, appending "METHOD PATH CONTENT-TYPE BODY" as one
// line to LOGFILE. It serves until interrupted.
func webhookSink() int {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: webhook-sink ADDRFILE LOGFILE STATUS")
		return 2
	}
	status, err := strconv.Atoi(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var mu sync.Mutex
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		f, err := os.OpenFile(os.Args[2], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%s %s %s %s\n", r.Method, r.URL.Path, r.Header.Get("Content-Type"), body)
			f.Close()
		}
		mu.Unlock()
		w.WriteHeader(status)
	})
	tmp := os.Args[1] + ".tmp"
	if err := os.WriteFile(tmp, []byte(ln.Addr().String()), 0o644); err != nil || os.Rename(tmp, os.Args[1]) != nil {
		fmt.Fprintln(os.Stderr, "cannot write the address")
		return 1
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	go func() { <-stop; ln.Close() }()
	if err := http.Serve(ln, handler); err != nil && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
