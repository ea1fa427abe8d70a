// Package config holds the workspace settings of .orchestration/config.yaml
// (SPEC §13) with their defaults. It only reads; nothing here writes settings.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/loop"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/roles"
)

// File is the settings file relative to the workspace root.
const File = ".orchestration/config.yaml"

// Verdict settings for shell commands.
const (
	Ask   = "ask"
	Deny  = "deny"
	Allow = "allow"
)

// Shell holds the shell analysis settings.
type Shell struct {
	Destructive string `yaml:"destructive"`
	Opaque      string `yaml:"opaque"`
	Backstop    bool   `yaml:"backstop"`
	// Checks are the commands the project counts as tests and builds
	// ("go test", "npm test", "make"): a shell call running one is
	// recorded with its outcome, even when ledger.shell is quiet. Each is
	// matched on the program and leading arguments of a simple command.
	Checks []string `yaml:"checks"`
}

// Review holds the review settings: default is the review of intents that
// do not say ("required": agents submit, a person approves; "none").
type Review struct {
	Default string `yaml:"default"`
}

// Ledger holds ledger settings.
type Ledger struct {
	Fsync bool `yaml:"fsync"`
	// Shell says which shell calls get a record of their own: "changes"
	// (those that changed files, were asked about or failed; denials are
	// always recorded) or "all".
	Shell string `yaml:"shell"`
	// SegmentBytes is the size at which a ledger segment is sealed and the
	// next record starts a new one.
	SegmentBytes int `yaml:"segment_bytes"`
}

// Delegation holds the settings of intents handed to subagents.
// SessionBudget is what each session may spend, whatever its intents'
// budgets (budget: in config.yaml): tokens of every kind, dollars, tool
// calls. Zero is no limit of that kind.
type SessionBudget struct {
	Tokens int          `yaml:"tokens"`
	USD    money.Amount `yaml:"usd"`
	Calls  int          `yaml:"calls"`
}

// Set reports whether b limits anything.
func (b SessionBudget) Set() bool { return b.Tokens > 0 || b.USD > 0 || b.Calls > 0 }

type Delegation struct {
	// MaxDepth is how many levels of delegation an intent may travel down:
	// 1, a top-level agent's subagents may not delegate further.
	MaxDepth int `yaml:"max_depth"`
}

// Bounds of delegation.max_depth: a value outside them is clamped.
const (
	MinDelegationDepth     = 1
	MaxDelegationDepth     = 10
	DefaultDelegationDepth = 3
)

// Segment sizes: the default, and the largest a setting may ask for (git
// stores a changed file whole; hosts refuse files past 100 MiB).
const (
	DefaultSegmentBytes = 8 << 20
	MaxSegmentBytes     = 16 << 20
)

// Values of ledger.shell.
const (
	ShellChanges = "changes"
	ShellAll     = "all"
)

// People holds what the commit-time check does with people's own commits.
type People struct {
	// Commits: "scoped", every commit is judged as an agent's (the
	// default: a workspace made before the setting keeps its rule);
	// "free", a commit that runs in no agent's process tree is a person's:
	// its untraced changes are listed, not refused, and the commit is
	// marked (the Intenthook-Person trailer) for audit.
	Commits string `yaml:"commits"`
}

// Values of people.commits.
const (
	CommitsScoped = "scoped"
	CommitsFree   = "free"
)

// Export holds the settings of `intenthook export otlp`. The standard
// OTEL_EXPORTER_OTLP_* variables, where set, win over Endpoint and Protocol;
// headers come from the environment only (a committed file holds no token).
type Export struct {
	Endpoint    string        `yaml:"endpoint"`
	Protocol    string        `yaml:"protocol"`     // grpc, http/protobuf, http/json
	Records     string        `yaml:"records"`      // own: this clone's; all: every record (CI)
	When        string        `yaml:"when"`         // session_end, stop, never: what starts an export from a hook
	Batch       int           `yaml:"batch"`        // records per request
	Timeout     time.Duration `yaml:"timeout"`      // one request, retries included
	ServiceName string        `yaml:"service_name"` // service.name, unless OTEL_SERVICE_NAME says
}

// Values of export.protocol, export.records and export.when.
const (
	ProtocolGRPC     = "grpc"
	ProtocolProtobuf = "http/protobuf"
	ProtocolJSON     = "http/json"
	RecordsOwn       = "own"
	RecordsAll       = "all"
	WhenSessionEnd   = "session_end"
	WhenStop         = "stop"
	WhenNever        = "never"
)

// Asks holds what becomes of a decision of ask (docs/asks.md): the host's
// own prompt, where it has one (via host, the default), or a pending ask
// the hook waits on, answered by a person's intenthook ask or intenthook
// console (via wait, or via console: the same for the hook), for Timeout
// at most. With Console, a console on another machine (its https URL)
// holds the asks instead (docs/console.md, A console on another
// machine): the hook files each there and polls for its answer with the
// token in the environment variable TokenEnv, and checks the console's
// certificate against ConsoleCert (sha256:HEX of its DER bytes) when set,
// else against the system's roots.
type Asks struct {
	Via         string        `yaml:"via"`
	Timeout     time.Duration `yaml:"timeout"`
	Console     string        `yaml:"console"`
	ConsoleCert string        `yaml:"console_cert"`
	TokenEnv    string        `yaml:"token_env"`
}

// DefaultAskTokenEnv is the environment variable that holds the hook token
// of a console on another machine, when ask.token_env names none.
const DefaultAskTokenEnv = "INTENTHOOK_CONSOLE_TOKEN"

// Remote reports whether the asks wait on a console on another machine.
func (a Asks) Remote() bool { return a.Waits() && a.Console != "" }

// Values of ask.via, and the bounds of ask.timeout: a value outside them
// is clamped. Every host's hook timeout is above the least; the most is
// what a person can be kept waiting for before the host's own prompt, or
// approval_required, takes over.
const (
	AskHost           = "host"
	AskWait           = "wait"
	AskConsole        = "console" // as wait: intenthook console answers too
	DefaultAskTimeout = 120 * time.Second
	MinAskTimeout     = time.Second
	MaxAskTimeout     = 30 * time.Minute
)

// Waits reports whether an ask waits for a person's answer: via wait, or
// via console, the same pending ask answered in intenthook console's page.
func (a Asks) Waits() bool { return a.Via == AskWait || a.Via == AskConsole }

// Checks holds how an intent's checks run (intents verify, submit):
// Network is deny (the default: off the network, docs/threat-model.md) or
// allow, for projects whose checks need it.
type Checks struct {
	Network string `yaml:"network"`
}

// Values of checks.network.
const (
	NetworkDeny  = "deny"
	NetworkAllow = "allow"
)

// Claims says where, besides the repository's common git directory, the
// sessions' claims are shared (docs/workspace.md, Remote claims): Remote
// names a git remote (origin) whose refs hold each claim for teammates'
// machines; "" (the default) keeps them on this machine.
type Claims struct {
	Remote string `yaml:"remote"`
}

// RemoteName reports whether r can name a git remote on git's command
// line: not an option, no space, control character, colon or glob.
func RemoteName(r string) bool {
	if r == "" || r[0] == '-' || r[0] == '.' || len(r) > 100 {
		return false
	}
	for _, ch := range r {
		if ch <= ' ' || ch == 0x7f || strings.ContainsRune(":*?[\\^~", ch) {
			return false
		}
	}
	return true
}

// CheckConsoleURL checks ask.console: https://HOST[:PORT], nothing
// before the host and nothing after it but a slash. The hook sends its
// asks and the token nowhere else, and never in clear.
func CheckConsoleURL(u string) error {
	rest, ok := strings.CutPrefix(u, "https://")
	if !ok {
		return fmt.Errorf("%q is not an https:// URL (the token and the answers travel only over TLS)", u)
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" || strings.ContainsAny(rest, "/?#@ \t\n\\") || strings.IndexFunc(rest, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return fmt.Errorf("%q is not https://HOST[:PORT]", u)
	}
	return nil
}

// CertPin reports whether pin is sha256: and 64 lower- or upper-case
// hexadecimal digits, as ask.console_cert names a certificate.
func CertPin(pin string) bool {
	hex, ok := strings.CutPrefix(pin, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for _, ch := range hex {
		if !('0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'f' || 'A' <= ch && ch <= 'F') {
			return false
		}
	}
	return true
}

// Notify says where a person's side of intenthook (intenthook ask
// serve-notify, intenthook console) sends each new pending ask
// (docs/asks.md): WebhookURLEnv names an environment variable, read from
// that person's environment only, that holds the URL. The hooks read
// none of it.
type Notify struct {
	WebhookURLEnv string `yaml:"webhook_url_env"`
}

// Price is what a model's tokens cost, in dollars per million tokens of
// each kind, as Claude's usage names the kinds: input (without the cached
// kinds), output, writes to the prompt cache and reads from it.
type Price struct {
	Input         money.Amount `yaml:"input"`
	Output        money.Amount `yaml:"output"`
	CacheCreation money.Amount `yaml:"cache_creation"`
	CacheRead     money.Amount `yaml:"cache_read"`
}

// valid reports whether every kind's price is an amount.
func (p Price) valid() bool {
	return p.Input >= 0 && p.Output >= 0 && p.CacheCreation >= 0 && p.CacheRead >= 0
}

// Cost is what the tokens cost at p, in micro-dollars, rounded to the
// nearest (a sum past what an int64 holds is held at its largest).
func (p Price) Cost(input, output, cacheCreation, cacheRead int64) int64 {
	var hi, lo uint64
	for _, k := range [...][2]int64{{input, int64(p.Input)}, {output, int64(p.Output)}, {cacheCreation, int64(p.CacheCreation)}, {cacheRead, int64(p.CacheRead)}} {
		if k[0] <= 0 || k[1] <= 0 {
			continue
		}
		h, l := bits.Mul64(uint64(k[0]), uint64(k[1]))
		var carry uint64
		lo, carry = bits.Add64(lo, l, 0)
		hi += h + carry
	}
	// Micro-dollars per million tokens times tokens, over a million.
	var carry uint64
	lo, carry = bits.Add64(lo, perMillion/2, 0)
	hi += carry
	if hi >= perMillion {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, perMillion)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}

const perMillion = 1_000_000

// PriceOf returns the price of model: the entry named exactly so, else
// the longest whose name, followed by "-", begins the model's.
func (c *Config) PriceOf(model string) (Price, bool) {
	if p, ok := c.Prices[model]; ok {
		return p, true
	}
	best, found := "", false
	for name := range c.Prices {
		if len(name) > len(best) && strings.HasPrefix(model, name+"-") {
			best, found = name, true
		}
	}
	return c.Prices[best], found
}

// Config is the effective settings of one workspace.
type Config struct {
	FailMode               string            `yaml:"fail_mode"`
	ProtectGovernanceFiles bool              `yaml:"protect_governance_files"`
	ProtectedPaths         []string          `yaml:"protected_paths"`
	OutsideWorkspace       string            `yaml:"outside_workspace"`
	OutsideAllow           []string          `yaml:"outside_allow"`
	Shell                  Shell             `yaml:"shell"`
	Tools                  map[string]string `yaml:"tools"`
	ExclusiveIntents       bool              `yaml:"exclusive_intents"`
	StaleCheck             bool              `yaml:"stale_check"`
	LessonsFile            string            `yaml:"lessons_file"`
	LessonsMax             int               `yaml:"lessons_max"`
	ContextBudgetBytes     int               `yaml:"context_budget_bytes"`
	LockTimeout            time.Duration     `yaml:"lock_timeout"`
	Ledger                 Ledger            `yaml:"ledger"`
	Loop                   loop.Settings     `yaml:"loop"`
	Roles                  roles.Roles       `yaml:"roles"`
	Review                 Review            `yaml:"review"`
	Delegation             Delegation        `yaml:"delegation"`
	Export                 Export            `yaml:"export"`
	People                 People            `yaml:"people"`
	Ask                    Asks              `yaml:"ask"`
	Notify                 Notify            `yaml:"notify"`
	Checks                 Checks            `yaml:"checks"`
	Claims                 Claims            `yaml:"claims"`
	// Prices are what each model's tokens cost, by model name (the
	// longest name that is the model's or begins it, followed by "-",
	// applies: "claude-sonnet-4-5" prices claude-sonnet-4-5-20250929).
	Prices map[string]Price `yaml:"prices"`
	// Budget is each session's budget (budget_exceeded once spent).
	Budget SessionBudget `yaml:"budget"`

	// Warnings lists unknown keys and other non-fatal findings.
	Warnings []string `yaml:"-"`
}

// Default returns the settings used when config.yaml is absent.
func Default() *Config {
	return &Config{
		FailMode:               "open",
		ProtectGovernanceFiles: true,
		OutsideWorkspace:       Deny,
		OutsideAllow:           []string{"/tmp/**", "$TMPDIR/**"},
		Shell:                  Shell{Destructive: Ask, Opaque: Ask, Backstop: true},
		Tools:                  map[string]string{},
		StaleCheck:             true,
		LessonsFile:            ".orchestration/CLAUDE.md",
		LessonsMax:             50,
		ContextBudgetBytes:     9500,
		LockTimeout:            2 * time.Second,
		Ledger:                 Ledger{Shell: ShellChanges, SegmentBytes: DefaultSegmentBytes},
		Loop:                   loop.Default(),
		Delegation:             Delegation{MaxDepth: DefaultDelegationDepth},
		Export:                 DefaultExport(),
		People:                 People{Commits: CommitsScoped},
		Ask:                    Asks{Via: AskHost, Timeout: DefaultAskTimeout},
		Checks:                 Checks{Network: NetworkDeny},
	}
}

// DefaultExport is the export settings when config.yaml has none: nothing
// starts from a hook until `when` says so.
func DefaultExport() Export {
	return Export{Protocol: ProtocolProtobuf, Records: RecordsOwn, When: WhenNever, Batch: 512, Timeout: 10 * time.Second, ServiceName: "intenthook"}
}

// topKeys are config.yaml's top-level keys: an array the linker lays
// out, where a map literal would be built by the package's initialiser on
// every hook's start.
var topKeys = [...]string{
	"fail_mode", "protect_governance_files", "protected_paths", "outside_workspace",
	"outside_allow", "shell", "tools", "exclusive_intents", "stale_check",
	"lessons_file", "lessons_max", "context_budget_bytes", "lock_timeout", "ledger", "loop", "roles",
	"review", "delegation",
	"export", "people", "ask", "notify", "checks", "prices", "budget",
	"claims",
}

// known reports whether key is a top-level key of config.yaml.
func known(key string) bool { return slices.Contains(topKeys[:], key) }

// Load reads root's config.yaml over the defaults, then applies
// INTENTHOOK_FAIL_MODE from getenv. A missing file is the defaults.
func Load(root string, getenv func(string) string) (*Config, error) {
	c := Default()
	data, err := osfile.ReadFile(filepath.Join(root, filepath.FromSlash(File)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return c.withEnv(getenv), fmt.Errorf("read %s: %w", File, err)
	default:
		if err := c.parse(data); err != nil {
			return c.withEnv(getenv), fmt.Errorf("%s: %w", File, err)
		}
	}
	c.withEnv(getenv)
	c.clamp()
	c.clampExport()
	return c, c.check()
}

// Parse reads config.yaml's bytes over the defaults, as Load does, without
// the environment: the settings a commit holds (audit).
func Parse(data []byte) (*Config, error) {
	c := Default()
	if err := c.parse(data); err != nil {
		return c, fmt.Errorf("%s: %w", File, err)
	}
	c.clamp()
	c.clampExport()
	return c, c.check()
}

// clamp brings the settings that must never turn governance off back
// within their bounds, with a warning (a config error would fail open).
func (c *Config) clamp() {
	if c.Budget.Tokens < 0 || c.Budget.Calls < 0 || c.Budget.USD < 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: budget: tokens and calls are whole numbers >= 0 and usd an amount of dollars: a kind that is not is not limited", File))
		c.Budget.Tokens, c.Budget.Calls, c.Budget.USD = max(c.Budget.Tokens, 0), max(c.Budget.Calls, 0), max(c.Budget.USD, 0)
	}
	names := make([]string, 0, len(c.Prices))
	for name := range c.Prices {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !c.Prices[name].valid() {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: prices.%s: a price is not an amount of dollars per million tokens (0.30): the model is left unpriced", File, name))
			delete(c.Prices, name)
		}
	}
	switch c.Review.Default {
	case "", "required", "none":
	default:
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: review.default is %q, want required or none: using required", File, c.Review.Default))
		c.Review.Default = "required"
	}
	for name, r := range c.Roles {
		kept := r.Paths[:0:0]
		for _, p := range r.Paths {
			if err := roles.CheckPath(p); err != nil {
				c.Warnings = append(c.Warnings, fmt.Sprintf("%s: roles.%s.paths: %v: left out (writes it would have allowed are denied)", File, name, err))
				continue
			}
			kept = append(kept, p)
		}
		if len(kept) != len(r.Paths) {
			r.Paths = kept
			if len(kept) == 0 {
				r.Paths = []string{}
			}
			c.Roles[name] = r
		}
	}
	switch c.People.Commits {
	case CommitsScoped, CommitsFree:
	default:
		// The stricter rule: a typo must not let commits through.
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: people.commits is %q, want free or scoped: scoped is used", File, c.People.Commits))
		c.People.Commits = CommitsScoped
	}
	d := &c.Delegation.MaxDepth
	if v := min(max(*d, MinDelegationDepth), MaxDelegationDepth); v != *d {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: delegation.max_depth %d is out of range %d to %d: %d is used", File, *d, MinDelegationDepth, MaxDelegationDepth, v))
		*d = v
	}
	if n := c.Checks.Network; n != NetworkDeny && n != NetworkAllow {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: checks.network is %q, want deny or allow: deny is used", File, n))
		c.Checks.Network = NetworkDeny
	}
	if r := c.Claims.Remote; r != "" && !RemoteName(r) {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: claims.remote is %q, not a git remote's name: claims stay on this machine", File, r))
		c.Claims.Remote = ""
	}
	switch c.Ask.Via {
	case AskHost, AskWait, AskConsole:
	default:
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ask.via is %q, want host, wait or console: host is used (the host's prompt, or approval_required)", File, c.Ask.Via))
		c.Ask.Via = AskHost
	}
	if c.Ask.Console != "" {
		if err := CheckConsoleURL(c.Ask.Console); err != nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ask.console: %v: the asks wait on this machine", File, err))
			c.Ask.Console = ""
		} else if c.Ask.Via != AskConsole {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ask.console is set but ask.via is %s: no ask goes to it (set ask.via: %s)", File, c.Ask.Via, AskConsole))
		}
	}
	if pin := c.Ask.ConsoleCert; pin != "" && !CertPin(pin) {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ask.console_cert is %q, not sha256: and 64 hexadecimal digits: the asks wait on this machine", File, pin))
		c.Ask.ConsoleCert, c.Ask.Console = "", ""
	}
	if c.Ask.TokenEnv == "" {
		c.Ask.TokenEnv = DefaultAskTokenEnv
	}
	if t := c.Ask.Timeout; t < MinAskTimeout || t > MaxAskTimeout {
		v := min(max(t, MinAskTimeout), MaxAskTimeout)
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ask.timeout %s is out of range %s to %s: %s is used", File, t, MinAskTimeout, MaxAskTimeout, v))
		c.Ask.Timeout = v
	}
	switch n := c.Ledger.SegmentBytes; {
	case n > MaxSegmentBytes:
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ledger.segment_bytes %d is above %d: %d is used", File, n, MaxSegmentBytes, MaxSegmentBytes))
		c.Ledger.SegmentBytes = MaxSegmentBytes
	case n <= 0:
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: ledger.segment_bytes %d is not positive: %d is used", File, n, DefaultSegmentBytes))
		c.Ledger.SegmentBytes = DefaultSegmentBytes
	}
}

func (c *Config) withEnv(getenv func(string) string) *Config {
	if getenv == nil {
		return c
	}
	if m := getenv("INTENTHOOK_FAIL_MODE"); m == "open" || m == "closed" {
		c.FailMode = m
	}
	return c
}

// Closed reports whether errors deny (fail_mode: closed).
func (c *Config) Closed() bool { return c.FailMode == "closed" }

func (c *Config) parse(data []byte) error {
	if fastParse(data, c) {
		return nil
	}
	return c.parseYAML(data)
}

func (c *Config) check() error {
	oneOf := func(key, v string, allowed ...string) error {
		for _, a := range allowed {
			if v == a {
				return nil
			}
		}
		return fmt.Errorf("%s: %s is %q, want one of %v", File, key, v, allowed)
	}
	var classes []error
	for tool, class := range c.Tools {
		classes = append(classes, oneOf("tools."+tool, class, "write", "delete", "shell", "read", "select", "exempt", "unclassified"))
	}
	return errors.Join(append(classes,
		oneOf("fail_mode", c.FailMode, "open", "closed"),
		oneOf("outside_workspace", c.OutsideWorkspace, Deny, Allow),
		oneOf("shell.destructive", c.Shell.Destructive, Ask, Deny, Allow),
		oneOf("shell.opaque", c.Shell.Opaque, Ask, Deny, Allow),
		oneOf("ledger.shell", c.Ledger.Shell, ShellChanges, ShellAll),
		within("context_budget_bytes", c.ContextBudgetBytes, 512, 10000),
		within("lessons_max", c.LessonsMax, 1, 10000),
		positive("lock_timeout", int(c.LockTimeout)),
		prefixed(c.Loop.Check()),
		prefixed(c.Roles.Check()),
	)...)
}

// within bounds a setting: Claude Code cuts hook strings at 10,000
// characters, and below 512 bytes no intent context fits.
func within(key string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s: %s must be between %d and %d", File, key, lo, hi)
	}
	return nil
}

// prefixed names the settings file in err.
func prefixed(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", File, err)
}

// clampExport brings export settings out of range back in, with a
// warning: a bad setting must never be a config error, which would fail
// the hooks open.
func (c *Config) clampExport() {
	d, e := DefaultExport(), &c.Export
	warn := func(key string, bad any, kept any) {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: export.%s is %q, using %v", File, key, fmt.Sprint(bad), kept))
	}
	oneOf := func(key string, v *string, def string, allowed ...string) {
		for _, a := range allowed {
			if *v == a {
				return
			}
		}
		warn(key, *v, def)
		*v = def
	}
	oneOf("protocol", &e.Protocol, d.Protocol, ProtocolGRPC, ProtocolProtobuf, ProtocolJSON)
	oneOf("records", &e.Records, d.Records, RecordsOwn, RecordsAll)
	oneOf("when", &e.When, d.When, WhenSessionEnd, WhenStop, WhenNever)
	if e.Batch < 1 || e.Batch > 10000 {
		v := min(max(e.Batch, 1), 10000)
		warn("batch", e.Batch, v)
		e.Batch = v
	}
	if e.Timeout < time.Second || e.Timeout > 5*time.Minute {
		v := min(max(e.Timeout, time.Second), 5*time.Minute)
		warn("timeout", e.Timeout, v)
		e.Timeout = v
	}
	if e.ServiceName == "" {
		e.ServiceName = d.ServiceName
	}
}

func positive(key string, v int) error {
	if v <= 0 {
		return fmt.Errorf("%s: %s must be positive", File, key)
	}
	return nil
}
