package intents

// Node is one intent in the parent_intent hierarchy.
type Node struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Status   Status  `json:"status"`
	Valid    bool    `json:"valid"`
	Children []*Node `json:"children"`
}

// Tree returns the catalog's intents as a forest, in catalog order: an
// intent hangs under its parent_intent; intents without one, or whose parent
// is missing or on a loop of parents, are roots.
func (c *Catalog) Tree() []*Node {
	all := c.All()
	nodes := make(map[*Intent]*Node, len(all))
	for _, in := range all {
		nodes[in] = &Node{ID: in.ID, Name: in.Name, Status: in.Status, Valid: in.Valid(), Children: []*Node{}}
	}
	var roots []*Node
	for _, in := range all {
		parent := c.Find(in.ParentIntent)
		if parent == nil || parent == in || parentLoop(c, in) != nil {
			roots = append(roots, nodes[in])
			continue
		}
		nodes[parent].Children = append(nodes[parent].Children, nodes[in])
	}
	return roots
}

// Children returns the intents whose parent_intent is id, in catalog order.
func (c *Catalog) Children(id string) []*Intent {
	var out []*Intent
	for _, in := range c.All() {
		if in.ParentIntent == id && in.ID != id {
			out = append(out, in)
		}
	}
	return out
}

// Done reports whether in's work is finished: COMPLETE, or ARCHIVED after
// it was completed (completed_at recorded). An intent archived without
// being completed was abandoned, not done.
func (in *Intent) Done() bool {
	return in.Status == Complete || in.Status == Archived && in.CompletedAt != ""
}

// Plan is how far the children of an intent have come.
type Plan struct {
	Done, Total int
	// Next is the first child, in catalog order, that an agent can select
	// now: IN_PROGRESS, or PENDING with every depends_on done. Nil when none.
	Next *Intent
}

// Progress returns the plan of id's children. Children archived without
// being completed were abandoned: they count neither as done nor in the total.
func (c *Catalog) Progress(id string) Plan {
	var p Plan
	for _, ch := range c.Children(id) {
		if ch.Status == Archived && !ch.Done() {
			continue
		}
		p.Total++
		if ch.Done() {
			p.Done++
			continue
		}
		if p.Next == nil && ch.Valid() && c.selectable(ch) {
			p.Next = ch
		}
	}
	return p
}

// selectable reports whether in can be selected and worked on now.
func (c *Catalog) selectable(in *Intent) bool {
	switch in.Status {
	case InProgress:
		return true
	case Pending:
		for _, dep := range in.DependsOn {
			if d := c.Find(dep); d == nil || !d.Done() {
				return false
			}
		}
		return true
	}
	return false
}

// Abandoned reports whether in was archived without completing: work that
// depends on it waits for ever.
func (in *Intent) Abandoned() bool { return in.Status == Archived && in.CompletedAt == "" }

// Stranded reports whether in, not started yet (PENDING or BLOCKED), can
// never start: one of its depends_on (dep) was abandoned, or is stranded
// itself. abandoned is the abandoned intent at the end of that chain.
func (c *Catalog) Stranded(in *Intent) (dep, abandoned string, ok bool) {
	return c.stranded(in, map[string]bool{})
}

func (c *Catalog) stranded(in *Intent, seen map[string]bool) (dep, abandoned string, ok bool) {
	if in == nil || (in.Status != Pending && in.Status != Blocked) || seen[in.ID] {
		return "", "", false
	}
	seen[in.ID] = true
	for _, id := range in.DependsOn {
		d := c.Find(id)
		if d == nil {
			continue
		}
		if d.Abandoned() {
			return id, id, true
		}
		if _, root, ok := c.stranded(d, seen); ok {
			return id, root, true
		}
	}
	return "", "", false
}
