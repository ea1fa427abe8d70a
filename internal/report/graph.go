package report

// Graph is the intents' dependency graph, laid out in columns: an intent
// sits one column right of the furthest intent it depends on (or its
// parent), so arrows run left to right.
type Graph struct {
	Width, Height int
	Nodes         []Node
	Edges         []Edge
}

// Node is one intent's box.
type Node struct {
	ID, Name, Status string
	X, Y             int
}

// Edge runs from the box at (X1, Y1) to the one at (X2, Y2); Parent marks
// a parent-child edge (dashed), else a dependency.
type Edge struct {
	X1, Y1, X2, Y2 int
	Parent         bool
}

const (
	nodeW, nodeH = 180, 44
	colW, rowH   = 230, 64
	margin       = 16
)

func layout(list []*Intent) Graph {
	byID := map[string]*Intent{}
	for _, in := range list {
		if in.Known {
			byID[in.ID] = in
		}
	}
	depth := map[string]int{}
	var visit func(id string, seen map[string]bool) int
	visit = func(id string, seen map[string]bool) int {
		if d, ok := depth[id]; ok {
			return d
		}
		if seen[id] { // a cycle (validate reports it): cut it here
			return 0
		}
		seen[id] = true
		in := byID[id]
		d := 0
		for _, dep := range append(append([]string{}, in.DependsOn...), in.Parent) {
			if _, ok := byID[dep]; ok && dep != "" {
				d = max(d, visit(dep, seen)+1)
			}
		}
		depth[id] = d
		return d
	}
	var g Graph
	rows := map[int]int{}
	pos := map[string]Node{}
	for _, in := range list {
		if !in.Known {
			continue
		}
		d := visit(in.ID, map[string]bool{})
		n := Node{ID: in.ID, Name: in.Name, Status: in.Status, X: margin + d*colW, Y: margin + rows[d]*rowH}
		rows[d]++
		pos[in.ID] = n
		g.Nodes = append(g.Nodes, n)
		g.Width = max(g.Width, n.X+nodeW+margin)
		g.Height = max(g.Height, n.Y+nodeH+margin)
	}
	for _, in := range list {
		to, ok := pos[in.ID]
		if !ok {
			continue
		}
		link := func(from string, parent bool) {
			if f, ok := pos[from]; ok {
				g.Edges = append(g.Edges, Edge{X1: f.X + nodeW, Y1: f.Y + nodeH/2, X2: to.X, Y2: to.Y + nodeH/2, Parent: parent})
			}
		}
		for _, dep := range in.DependsOn {
			link(dep, false)
		}
		if in.Parent != "" {
			link(in.Parent, true)
		}
	}
	return g
}
