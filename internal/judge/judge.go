// Package judge holds the rules' judgement of one write: the steps of the
// decision chain (SPEC §5, steps 7–15) that depend only on the rules — the
// role's paths and intents, the protected paths, the ignore files, the
// intent's existence, validity and status, its allowed_tools and its
// owned_scope. It is the one place these are decided: `pre` calls it for
// every target, and a replay calls it for every recorded write against
// candidate rules. It reads no file and no session state: the path, the
// intent, its status, the role and a put-back are handed in, and what
// depends on the moment (the path's resolution, the stale-file check, the
// ask for approval, locks) stays with the caller. It writes no message
// either: the gate turns a verdict into the deny an agent reads.
package judge

import (
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/roles"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Steps, in the order they are judged; a Verdict names the one that
// decided ("" when every step passed: the path is in the intent's scope).
const (
	StepRole       = "role"            // the role's tool class and paths
	StepProtected  = "protected"       // a governance file
	StepIgnored    = "intentignore"    // an ignore file lists it: allowed
	StepRevert     = "revert"          // a put-back a violation named: allowed
	StepIntent     = "intent-selected" // no intent in force
	StepStatus     = "intent-status"   // missing, invalid, not IN_PROGRESS
	StepRoleIntent = "role-intent"     // the role's intents
	StepTools      = "allowed-tools"   // the intent's allowed_tools
	StepScope      = "scope"           // the intent's owned_scope
)

// Steps are the step names in order.
var Steps = []string{StepRole, StepProtected, StepIgnored, StepRevert, StepIntent, StepStatus, StepRoleIntent, StepTools, StepScope}

// Catalog finds an intent by id: a workspace's *intents.Catalog, or a
// replay's candidate, which may weigh a scope change not yet made.
type Catalog interface {
	Find(id string) *intents.Intent
}

// Rules are the rules a write is judged by: a workspace's, or a
// candidate's in a replay.
type Rules struct {
	Catalog   Catalog
	Protected *workspace.Protected
	Ignore    *workspace.Ignore
	Roles     roles.Roles
	// Alias, when set, says whether rel is another name (a hard link) of
	// a governance file, and which: the one look at a file, left to the
	// caller (a replay has no file at hand).
	Alias func(rel string) (string, bool)
}

// Write is one write (or deletion) to judge.
type Write struct {
	Path   string // root-relative, "/" separators
	Dir    bool   // the path is a directory, or one the write makes: .intentignore's dir/ patterns match it
	Tool   string // the writing tool's name (allowed_tools)
	Delete bool   // a deletion: the role needs delete rather than write
	// Role is the call's role name (roles.Name); "" when none applies.
	Role string
	// Intent is the id of the intent in force ("" for none).
	Intent string
	// Status is the intent's status the write is judged under: for a
	// replay, as it was when the write was recorded (a later COMPLETE
	// must not turn past work into denials); "" takes the catalog's.
	Status intents.Status
	// Revert: the write puts back a file the session's last violation
	// named, as it said (SPEC §8).
	Revert bool
}

// Verdict is the rules' answer for one write.
type Verdict struct {
	// Step is the step that decided; "" when the path is in scope.
	Step string
	// Code is the deny code, "" for an allow.
	Code string
	// Scope is the record's scope value for an allow: PASS, IGNORED, or
	// REVERT for a put-back.
	Scope string
	// Match is what decided: the protected glob or the governance file
	// a hard link names, the role's or the intent's matching pattern.
	Match string
	// Nested: a protected path because it lies in a governance directory
	// below the root; Alias: because it is a hard link to Match.
	Nested, Alias bool
	// Intent is the intent judged under, when the catalog has it.
	Intent *intents.Intent
	// RoleClass is the role class the write needed (write or delete).
	RoleClass string
}

// Denied reports whether the verdict is a deny.
func (v Verdict) Denied() bool { return v.Code != "" }

// Scope values of an allow.
const (
	ScopePass    = "PASS"
	ScopeIgnored = "IGNORED"
	ScopeRevert  = "REVERT"
)

// Judge runs the rules' steps over w, in order, and returns the first that
// decides, or an allow in scope.
func Judge(r *Rules, w Write) Verdict {
	v := Verdict{RoleClass: "write"}
	if w.Delete {
		v.RoleClass = "delete"
	}
	role, hasRole := r.Roles.For(w.Role)
	if hasRole {
		if !role.Allows(v.RoleClass) {
			return deny(v, StepRole, hook.CodeRoleNotAllowed)
		}
		if _, ok := role.AllowsPath(w.Path); !ok {
			return deny(v, StepRole, hook.CodeRoleNotAllowed)
		}
	}
	if glob, ok := protected(r, w.Path); ok {
		v.Match = glob
		return deny(v, StepProtected, hook.CodeProtectedPath)
	} else if workspace.Nested(w.Path) {
		v.Nested = true
		return deny(v, StepProtected, hook.CodeProtectedPath)
	} else if r.Alias != nil {
		if file, ok := r.Alias(w.Path); ok {
			v.Match, v.Alias = file, true
			return deny(v, StepProtected, hook.CodeProtectedPath)
		}
	}
	if r.Ignore.Match(w.Path, w.Dir) {
		v.Step, v.Scope = StepIgnored, ScopeIgnored
		return v
	}
	if w.Revert {
		v.Step, v.Scope = StepRevert, ScopeRevert
		return v
	}
	if w.Intent == "" {
		return deny(v, StepIntent, hook.CodeIntentRequired)
	}
	var code string
	v.Intent, code = Status(r.Catalog, w.Intent, w.Status)
	if code != "" {
		return deny(v, StepStatus, code)
	}
	if hasRole && !role.AllowsIntent(w.Intent) {
		return deny(v, StepRoleIntent, hook.CodeRoleNotAllowed)
	}
	if !v.Intent.AllowsTool(w.Tool) {
		return deny(v, StepTools, hook.CodeToolNotAllowed)
	}
	pattern, ok := v.Intent.Match(w.Path)
	if !ok {
		return deny(v, StepScope, hook.CodeScopeViolation)
	}
	v.Match, v.Scope = pattern, ScopePass
	return v
}

// Status judges the intent id a write or a destructive command is made
// under: the catalog must hold it and it must be valid, and its status
// (the catalog's when status is "") must be IN_PROGRESS. It returns the
// intent (nil when the catalog lacks it) and the deny code, "" for a pass.
func Status(c Catalog, id string, status intents.Status) (*intents.Intent, string) {
	var in *intents.Intent
	if c != nil {
		in = c.Find(id)
	}
	if in == nil {
		return nil, hook.CodeIntentNotFound
	}
	if !in.Valid() {
		return in, hook.CodeCatalogInvalid
	}
	if status == "" {
		status = in.Status
	}
	if status != intents.InProgress {
		return in, hook.CodeIntentNotInProgress
	}
	return in, ""
}

func protected(r *Rules, rel string) (string, bool) {
	if r.Protected == nil {
		return "", false
	}
	return r.Protected.Match(rel)
}

func deny(v Verdict, step, code string) Verdict {
	v.Step, v.Code, v.Scope = step, code, ""
	return v
}
