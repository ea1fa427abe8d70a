// Command npmdist writes intenthook's npm packages to dist/npm/ from a
// GoReleaser build in dist/ (make dist runs it after GoReleaser).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/intenthook/intenthook/internal/release"
)

func main() {
	dist := flag.String("dist", "dist", "GoReleaser's output directory")
	src := flag.String("src", "npm/intenthook", "the main package's scripts")
	flag.Parse()
	paths, err := release.NPM(".", *dist, *src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmdist: error:", err)
		os.Exit(1)
	}
	for _, p := range paths {
		fmt.Println(p)
	}
}
