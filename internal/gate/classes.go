package gate

import "strings"

// Class is what a tool does, as far as governance cares (SPEC §4).
type Class string

// Tool classes.
const (
	ClassWrite        Class = "write"
	ClassDelete       Class = "delete"
	ClassShell        Class = "shell"
	ClassRead         Class = "read"
	ClassSelect       Class = "select"
	ClassExempt       Class = "exempt"
	ClassUnclassified Class = "unclassified"
)

var builtinClasses = map[string]Class{
	// Claude Code
	"Write": ClassWrite, "Edit": ClassWrite, "MultiEdit": ClassWrite, "NotebookEdit": ClassWrite,
	"Bash": ClassShell, "PowerShell": ClassShell,
	"Read": ClassRead, "NotebookRead": ClassRead,
	"Glob": ClassExempt, "Grep": ClassExempt, "LS": ClassExempt, "WebFetch": ClassExempt, "WebSearch": ClassExempt,
	"Task": ClassExempt, "Agent": ClassExempt, "TodoWrite": ClassExempt, "ExitPlanMode": ClassExempt,
	"BashOutput": ClassExempt, "KillShell": ClassExempt,
	// The seeds' (Roo Code) names
	"write_to_file": ClassWrite, "apply_diff": ClassWrite, "edit": ClassWrite, "search_and_replace": ClassWrite,
	"search_replace": ClassWrite, "edit_file": ClassWrite, "insert_code_block": ClassWrite, "apply_patch": ClassWrite,
	"delete_file":          ClassDelete,
	"execute_command":      ClassShell,
	"read_file":            ClassRead,
	"select_active_intent": ClassSelect,
	"list_files":           ClassExempt, "search_files": ClassExempt, "codebase_search": ClassExempt,
	"ask_followup_question": ClassExempt, "attempt_completion": ClassExempt, "switch_mode": ClassExempt,
	"new_task": ClassExempt, "update_todo_list": ClassExempt, "read_command_output": ClassExempt,
	"run_slash_command": ClassExempt, "browser_action": ClassExempt, "skill": ClassExempt,
	"access_mcp_resource": ClassExempt,
}

// Classify returns the class of tool, with config's tools: map overriding
// the built-in table.
func Classify(tool string, overrides map[string]string) Class {
	if c, ok := overrides[tool]; ok {
		return Class(c)
	}
	if c, ok := builtinClasses[tool]; ok {
		return c
	}
	if strings.HasPrefix(tool, "mcp__") && strings.HasSuffix(tool, "__select_active_intent") {
		return ClassSelect
	}
	return ClassUnclassified
}
