// Package delegation hands intents to subagents. A coordinator says which
// intent the next subagent of a type gets (`intenthook select <ID> --for
// <type>`): a pending delegation. The matching key, since coordinators often
// start several subagents of one type at once:
//
//  1. each spawning call (Claude Code's Task or Agent tool, with its
//     subagent_type) takes the oldest pending delegation of that type, in
//     the order the delegations were made, and gets the next place in the
//     session's spawn order;
//  2. the first sighting of a new agent id of that type (its SubagentStart,
//     or else its first tool call) claims the spawned delegation with the
//     lowest place in spawn order: the agent is bound to the intent.
//
// Spawns and starts happen in the same order when the agent starts its
// subagents one after another. When it starts several of one type in one
// turn, their starts may overtake each other, and two subagents may swap
// intents; a subagent's own `intenthook select` overrides what it claimed.
// These are pure steps on a session's state; the gate holds the session's
// lock around them and records what they did.
package delegation

import (
	"fmt"
	"strconv"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/state"
)

// Keep is how long a delegation stays in the session's state: pending ones
// that no spawn took go stale, claimed ones are shown by status until then.
const Keep = 24 * time.Hour

// Add records a pending delegation of intent to the next subagent of
// agentType, made by the agent by (the coordinator; "" for the top-level
// agent), dropping delegations older than Keep.
func Add(s *state.Session, intent, agentType, by string, now time.Time) state.Delegation {
	prune(s, now)
	seq := 1
	for _, d := range s.Delegations {
		seq = max(seq, d.Seq+1)
	}
	d := state.Delegation{Seq: seq, Intent: intent, AgentType: agentType, By: by, At: now.UTC(), Depth: Depth(s, by) + 1}
	s.Delegations = append(s.Delegations, d)
	return d
}

// Depth is how many levels of delegation below the top-level agent agent
// works: 0 for the top-level agent (""), the level of the delegation it
// claimed, else 1 (a subagent started without one).
func Depth(s *state.Session, agent string) int {
	if agent == "" {
		return 0
	}
	for _, d := range s.Delegations {
		if d.Agent == agent {
			return max(d.Depth, 1)
		}
	}
	return 1
}

// MayDelegate says why agent (of session s, "" for the top-level agent),
// working on intent own, may not delegate intent id, or "" when it may: an
// agent hands out only its own intent or one beneath it in the catalog's
// tree (parent_intent), and only while the delegation stays within
// maxDepth levels below the top-level agent. (A person may delegate any
// intent: this holds for agents' calls only.)
func MayDelegate(c *intents.Catalog, s *state.Session, agent, own, id string, maxDepth int) string {
	who := "this session"
	if agent != "" {
		who = "this agent"
	}
	if own == "" {
		return who + " works on no intent: it may delegate only its own intent or one beneath it"
	}
	if !Beneath(c, id, own) {
		return fmt.Sprintf("%s is neither the intent %s works on (%s) nor beneath it in the tree", id, who, own)
	}
	if level := Depth(s, agent) + 1; level > maxDepth {
		return fmt.Sprintf("%s works %s down; its delegation would be level %d, and delegation.max_depth is %d",
			orMain(agent), levels(level-1), level, maxDepth)
	}
	return ""
}

// Beneath reports whether intent id is own or lies below it in the
// catalog's tree.
func Beneath(c *intents.Catalog, id, own string) bool {
	seen := map[string]bool{}
	for cur := id; cur != "" && !seen[cur]; {
		if cur == own {
			return true
		}
		seen[cur] = true
		in := c.Find(cur)
		if in == nil {
			return false
		}
		cur = in.ParentIntent
	}
	return false
}

func orMain(agent string) string {
	if agent == "" {
		return "the top-level agent"
	}
	return agent
}

func levels(n int) string {
	if n == 1 {
		return "one level of delegation"
	}
	return strconv.Itoa(n) + " levels of delegation"
}

// Pending reports whether a spawn of agentType would take a delegation:
// a check on the state already read, so that spawns without delegations
// cost nothing.
func Pending(s *state.Session, agentType string) bool {
	for _, d := range s.Delegations {
		if d.Spawn == "" && d.AgentType == agentType {
			return true
		}
	}
	return false
}

// Attach gives the spawning call toolUseID of a subagent of agentType the
// oldest pending delegation of that type. It returns the delegation taken.
func Attach(s *state.Session, toolUseID, agentType string) (state.Delegation, bool) {
	next := 1
	for _, d := range s.Delegations {
		if d.Spawn == toolUseID && toolUseID != "" {
			return d, false // the same call seen twice
		}
		next = max(next, d.SpawnSeq+1)
	}
	for i := range s.Delegations {
		d := &s.Delegations[i]
		if d.Spawn == "" && d.AgentType == agentType {
			d.Spawn, d.SpawnSeq = toolUseID, next
			if d.Spawn == "" {
				d.Spawn = "spawn-" + strconv.Itoa(next) // a call without an id still takes its place
			}
			return *d, true
		}
	}
	return state.Delegation{}, false
}

// New reports whether agent is a subagent the session has not seen (nor
// bound to an intent).
func New(s *state.Session, agent string) bool {
	if agent == "" {
		return false
	}
	_, seen := s.Agents[agent]
	_, bound := s.AgentIntents[agent]
	return !seen && !bound
}

// Claim records the first sighting of agent (of agentType) and, when a
// spawned delegation of that type waits, binds the agent to its intent:
// the one lowest in spawn order. It returns the delegation claimed.
func Claim(s *state.Session, agent, agentType string, now time.Time) (state.Delegation, bool) {
	if !New(s, agent) {
		return state.Delegation{}, false
	}
	if s.Agents == nil {
		s.Agents = map[string]string{}
	}
	s.Agents[agent] = agentType
	best := -1
	for i, d := range s.Delegations {
		if d.Spawn != "" && d.Agent == "" && d.AgentType == agentType && agentType != "" && (best < 0 || d.SpawnSeq < s.Delegations[best].SpawnSeq) {
			best = i
		}
	}
	if best < 0 {
		return state.Delegation{}, false
	}
	d := &s.Delegations[best]
	d.Agent, d.ClaimedAt = agent, now.UTC()
	s.Select(agent, d.Intent)
	return *d, true
}

// Waiting reports whether agent's first sighting would claim a delegation:
// it is new and a spawned one of its type waits.
func Waiting(s *state.Session, agent, agentType string) bool {
	if !New(s, agent) || agentType == "" {
		return false
	}
	for _, d := range s.Delegations {
		if d.Spawn != "" && d.Agent == "" && d.AgentType == agentType {
			return true
		}
	}
	return false
}

// Recall drops the delegations of agentType that no agent claimed yet and
// returns how many.
func Recall(s *state.Session, agentType string) int {
	kept := s.Delegations[:0]
	n := 0
	for _, d := range s.Delegations {
		if d.Agent == "" && d.AgentType == agentType {
			n++
			continue
		}
		kept = append(kept, d)
	}
	s.Delegations = kept
	return n
}

func prune(s *state.Session, now time.Time) {
	kept := s.Delegations[:0]
	for _, d := range s.Delegations {
		if now.Sub(d.At) <= Keep {
			kept = append(kept, d)
		}
	}
	s.Delegations = kept
}
