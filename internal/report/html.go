package report

import (
	_ "embed"
	"html/template"
	"io"
	"strings"
)

//go:embed report.html.tmpl
var page string

// parse compiles the page. It is not a package-level variable: the hook
// binary links this package, and every hook call would pay the parse at init.
func parse() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
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
}

// Write renders r as one self-contained HTML page.
func (r *Report) Write(w io.Writer) error {
	return parse().Execute(w, r)
}
