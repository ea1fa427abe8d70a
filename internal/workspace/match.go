package workspace

import (
	"strings"

	"github.com/gobwas/glob"
)

var absCompiler = glob.Compiler{Separators: []rune{'/'}, Globstar: true}

// matchAbs matches an absolute slash path against a glob where "d/**" also
// covers d itself.
func matchAbs(pattern, p string) (bool, error) {
	g, err := absCompiler.Compile(pattern)
	if err != nil {
		return false, err
	}
	if g.Match(p) {
		return true, nil
	}
	dir, ok := strings.CutSuffix(pattern, "/**")
	return ok && dir == p, nil
}
