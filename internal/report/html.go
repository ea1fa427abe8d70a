package report

import (
	_ "embed"
	"html/template"
	"io"
	"strings"
)

//go:embed report.html.tmpl
var page string

var tmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"lower": func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "-")) },
	"join":  func(s []string) string { return strings.Join(s, ", ") },
	"nodeW": func() int { return nodeW },
	"nodeH": func() int { return nodeH },
	"add":   func(a, b int) int { return a + b },
	"short": func(s string, n int) string {
		if r := []rune(s); len(r) > n {
			return string(r[:n-1]) + "…"
		}
		return s
	},
}).Parse(page))

// Write renders r as one self-contained HTML page.
func (r *Report) Write(w io.Writer) error {
	return tmpl.Execute(w, r)
}
