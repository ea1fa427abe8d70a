package console

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
)

// RemoteClient is the hook's side of a console on another machine: it
// files an ask there and waits for the answer, with the hook token. It
// runs in intenthook-console __ask-remote, which the hook starts (the
// hook's own binary links no HTTP client).
type RemoteClient struct {
	url, token string
	http       *http.Client
}

// NewRemoteClient is a client of the console at rawURL (ask.console),
// checking its certificate against pin (ask.console_cert: sha256:HEX of
// the certificate's DER bytes) or, with pin "", against the system's
// roots.
func NewRemoteClient(rawURL, pin, token string) (*RemoteClient, error) {
	if err := config.CheckConsoleURL(rawURL); err != nil {
		return nil, err
	}
	if token == "" {
		return nil, errors.New("no hook token: the variable ask.token_env names is empty or unset")
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if pin != "" {
		if !config.CertPin(pin) {
			return nil, fmt.Errorf("ask.console_cert %q is not sha256: and 64 hexadecimal digits", pin)
		}
		want, _ := hex.DecodeString(strings.TrimPrefix(strings.ToLower(pin), "sha256:"))
		// The pin replaces the chain's check, not the check itself: the
		// certificate the console shows must be the one pinned.
		tc.InsecureSkipVerify = true
		tc.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("the console showed no certificate")
			}
			got := sha256.Sum256(cs.PeerCertificates[0].Raw)
			if subtle.ConstantTimeCompare(got[:], want) != 1 {
				return fmt.Errorf("the console's certificate is sha256:%x, not the one ask.console_cert pins", got)
			}
			return nil
		}
	}
	tr := &http.Transport{TLSClientConfig: tc, Proxy: nil, ForceAttemptHTTP2: false, MaxIdleConns: 1}
	return &RemoteClient{url: strings.TrimSuffix(rawURL, "/"), token: token, http: &http.Client{Transport: tr, Timeout: 10 * time.Second}}, nil
}

// do sends one request and decodes a JSON answer into out; the status
// comes back with any error.
func (c *RemoteClient) do(ctx context.Context, method, path string, body any, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.url+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<10))
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode/100 != 2 {
		var e struct{ Error string }
		_ = json.Unmarshal(data, &e)
		return resp.StatusCode, fmt.Errorf("the console answered %s: %s", resp.Status, e.Error)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, fmt.Errorf("the console's answer: %w", err)
		}
	}
	return resp.StatusCode, nil
}

// File files f's ask under a fresh id (another one if the console holds
// that id already) and returns the ask as filed.
func (c *RemoteClient) File(ctx context.Context, f asks.Filed) (asks.Ask, error) {
	var err error
	for range 3 {
		f.Ask.ID = asks.NewID()
		var status int
		status, err = c.do(ctx, http.MethodPost, hookAsks, f, nil)
		if status != http.StatusConflict {
			break
		}
	}
	if err != nil {
		return f.Ask, fmt.Errorf("file the ask with %s: %w", c.url, err)
	}
	return f.Ask, nil
}

// Wait polls for the answer to ask id every poll until deadline or ctx's
// end: false when none came. A console that cannot be reached for a while
// is asked again until then; one that no longer holds the ask, or no
// longer takes the token, ends it.
func (c *RemoteClient) Wait(ctx context.Context, id string, deadline time.Time, poll time.Duration) (asks.Answer, bool) {
	for {
		var st asks.Status
		status, err := c.do(ctx, http.MethodGet, hookAsks+"/"+id, nil, &st)
		switch {
		case err == nil && st.State == asks.StateAnswered && st.Answer != nil:
			if v := st.Answer.Verdict; v == asks.Allow || v == asks.Deny {
				return *st.Answer, true
			}
			return asks.Answer{}, false
		case status == http.StatusNotFound || status == http.StatusUnauthorized:
			// Forgotten, or a console started again with another token:
			// no answer will come.
			return asks.Answer{}, false
		}
		left := time.Until(deadline)
		if left <= 0 {
			return asks.Answer{}, false
		}
		select {
		case <-ctx.Done():
			return asks.Answer{}, false
		case <-time.After(min(poll, left)):
		}
	}
}
