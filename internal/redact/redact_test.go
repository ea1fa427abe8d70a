package redact

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		// Assignments whose names say they hold a secret.
		{`GITHUB_TOKEN=ghx123 gh pr list`, `GITHUB_TOKEN=[REDACTED] gh pr list`},
		{`export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG`, `export AWS_SECRET_ACCESS_KEY=[REDACTED]`},
		{`export API_KEY="abc def"`, `export API_KEY="[REDACTED]"`},
		{`DB_PASSWORD='p@ss w0rd' ./migrate`, `DB_PASSWORD='[REDACTED]' ./migrate`},
		{`env OPENAI_API_KEY=xyz python run.py`, `env OPENAI_API_KEY=[REDACTED] python run.py`},
		{`NPM_AUTH_TOKEN=t npm publish`, `NPM_AUTH_TOKEN=[REDACTED] npm publish`},
		{`client_secret=s3cr3t`, `client_secret=[REDACTED]`},
		{`MY_CREDENTIALS=a:b deploy`, `MY_CREDENTIALS=[REDACTED] deploy`},
		{`PGPASSWD=x psql`, `PGPASSWD=[REDACTED] psql`},
		// Flags.
		{`mysql --password=hunter2 db`, `mysql --password=[REDACTED] db`},
		{`vault login --token s.abcdef`, `vault login --token [REDACTED]`},
		{`cli --api-key 'k e y' run`, `cli --api-key '[REDACTED]' run`},
		{`tool --client-secret=abc`, `tool --client-secret=[REDACTED]`},
		// Authorization schemes.
		{`curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x" https://api.x`, `curl -H "Authorization: Bearer [REDACTED]" https://api.x`},
		{`curl -H 'Authorization: Basic dXNlcjpwYXNz' u`, `curl -H 'Authorization: Basic [REDACTED]' u`},
		{`curl -H "Authorization: token abc123def" u`, `curl -H "Authorization: token [REDACTED]" u`},
		{`http GET x bearer xyz`, `http GET x bearer [REDACTED]`},
		// Token shapes anywhere.
		{`git push https://x:ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@github.com/o/r`, `git push https://x:[REDACTED]@github.com/o/r`},
		{`echo ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`, `echo [REDACTED]`},
		{`echo github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz`, `echo [REDACTED]`},
		{`echo gho_ABCDEFGHIJKLMNOPQRSTUVWX`, `echo [REDACTED]`},
		{`echo glpat-ABCDEFGHIJKLMNOPQRST`, `echo [REDACTED]`},
		{`echo sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ`, `echo [REDACTED]`},
		{`echo sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV`, `echo [REDACTED]`},
		{`slack xoxb-1234567890-abcdefghij`, `slack [REDACTED]`},
		{`slack xoxp-1234567890-abcdefghij`, `slack [REDACTED]`},
		{`aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE`, `aws configure set aws_access_key_id [REDACTED]`},
		{`key ASIAIOSFODNN7EXAMPLE!`, `key [REDACTED]!`},
		{`gcloud x AIzaSyA-1234567890abcdefghijklmnopqrstu`, `gcloud x [REDACTED]`},
		{`npm config set //r/:_authToken npm_ABCDEFGHIJKLMNOPQRSTUVWXYZ`, `npm config set //r/:_authToken [REDACTED]`},
		// URL userinfo.
		{`git clone https://user:pa55@git.example.com/r.git`, `git clone https://user:[REDACTED]@git.example.com/r.git`},
		{`psql postgres://admin:secret@db:5432/app`, `psql postgres://admin:[REDACTED]@db:5432/app`},
		{`git clone https://oauth2token@host/r`, `git clone https://[REDACTED]@host/r`},
		// Private keys.
		{"cat > k <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nEOF", "cat > k <<EOF\n[REDACTED]\nEOF"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE", "[REDACTED]"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, changed := Text(tt.in)
			if got != tt.want || !changed {
				t.Errorf("Text(%q)\n = %q, %v\nwant %q", tt.in, got, changed, tt.want)
			}
		})
	}
}

// TestOrdinaryUnchanged: the commands agents run every day keep every byte,
// including ones that mention keys, tokens and passwords without holding
// one.
func TestOrdinaryUnchanged(t *testing.T) {
	for _, cmd := range []string{
		`ls -la`, `git status`, `git diff HEAD~1`, `git log --oneline -5`, `git checkout main`,
		`git push origin main`, `git branch -a`, `git stash list`, `go test ./...`,
		`go build ./... 2>&1 | head -20`, `npm test`, `grep -r foo .`, `rg TODO src/`, `echo hi >&2`,
		`cmd > /dev/null 2>&1`, `printf '%s\n' x >/dev/stderr`, `pwd`, `which go && command -v rm`,
		`find . -name '*.go' -type f`, `wc -l < main.go`, `echo "$HOME" "rm -rf /"`, `sort -k 2 x | uniq -c`,
		`ps aux | grep go`, `kill 1234`, `chmod +x script.sh`, `python3 -m pytest -q`, `node --version`,
		`curl -s https://api.example.com | jq .`, `docker ps`, `./gradlew test`, `export PATH=$PATH:/opt/bin`,
		`time go test ./...`, `sed 's/a/b/' < in.txt`, `echo x > out.txt`, `cp a.go b.go`, `rm -rf build`,
		`git commit -m "rotate the api key; fix token parsing"`, `grep -rn password src/`, `go test -run TestToken ./auth`,
		`echo $GITHUB_TOKEN | wc -c`, `git clone https://github.com/o/r.git`, `curl https://example.com/a?b=c#d`,
		`make test`, `cat README.md`, `npm install --save-dev eslint`, `skip-test --sketchy`,
		"intenthook select INT-001", `git log --author=me@example.com`,
	} {
		if got, changed := Text(cmd); got != cmd || changed {
			t.Errorf("Text(%q) = %q", cmd, got)
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add(`curl -H "Authorization: Bearer x" https://u:p@h/ TOKEN=1 ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ`)
	f.Fuzz(func(t *testing.T, s string) {
		out, changed := Text(s)
		if changed != (out != s) {
			t.Fatal("changed does not match")
		}
		if again, _ := Text(out); again != out {
			t.Fatalf("not idempotent: %q -> %q", out, again)
		}
		if changed && !strings.Contains(out, Mark) {
			t.Fatalf("changed without a mark: %q", out)
		}
	})
}
