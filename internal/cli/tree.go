package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/intents"
)

func (a *app) treeCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tree",
		Short: "Draw the intents' parent_intent hierarchy with their statuses",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			tree := ws.Catalog.Tree()
			if asJSON {
				return a.printJSON(emptyIfNil(tree))
			}
			for _, n := range tree {
				drawNode(a.stdout, n, "", "")
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: [{id, name, status, valid, children}]")
	return cmd
}

// drawNode prints n on one line after lead, and its children below it with
// box-drawing branches; indent continues the lines of n's ancestors.
func drawNode(w io.Writer, n *intents.Node, lead, indent string) {
	name := n.Name
	if !n.Valid {
		name += " (invalid)"
	}
	fmt.Fprintf(w, "%s%s %s [%s]\n", lead, dash(n.ID), name, dash(string(n.Status)))
	for i, ch := range n.Children {
		if i == len(n.Children)-1 {
			drawNode(w, ch, indent+"└── ", indent+"    ")
		} else {
			drawNode(w, ch, indent+"├── ", indent+"│   ")
		}
	}
}
