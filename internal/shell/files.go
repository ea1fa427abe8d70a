package shell

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// The commands that write, delete or show files named on their command line.

func (w *walker) rm(c *call) {
	p := options{}.parse(c.args)
	if p.has("r", "R", "recursive") {
		w.destructive(c.text())
	}
	w.targets(c, deletes, p.operands)
}

func (w *walker) shred(c *call) {
	p := options{short: "ns", long: []string{"iterations", "size", "random-source"}}.parse(c.args)
	w.targets(c, writes, p.operands)
	if p.has("u", "remove") {
		w.targets(c, deletes, p.operands)
	}
}

// copyOptions are the options with values of cp, mv and ln.
func copyOptions() options {
	return options{short: "tS", long: []string{"target-directory", "suffix"}}
}

func (w *walker) cp(c *call) {
	p := copyOptions().parse(c.args)
	sources, dest := w.destinations(c.f, p)
	hard, symbolic := cpLinks(p), p.has("s", "symbolic-link")
	if hard {
		w.targets(c, linkSources, w.allAtHome(sources))
	}
	w.targets(c, writes, dest)
	if !hard && !symbolic {
		return
	}
	// cp -l and cp -s make links as ln does: judged by what they point to,
	// and remembered for the later targets of the command.
	for i, src := range sources {
		if i < len(dest) {
			w.remember(c.f, dest[i], src, hard)
		}
	}
}

// cpLinks reports whether cp was told -l or --link, which GNU getopt also takes abbreviated
// (--l, --li, --lin): no other long option of cp starts with an l.
func cpLinks(p parsed) bool {
	for _, o := range p.opts {
		if o.name != "" && strings.HasPrefix("link", o.name) {
			return true
		}
	}
	return false
}

func (w *walker) mv(c *call) {
	p := copyOptions().parse(c.args)
	sources, dest := w.destinations(c.f, p)
	w.targets(c, deletes, sources)
	w.targets(c, writes, dest)
}

func (w *walker) install(c *call) {
	p := options{
		short: "mogtS",
		long:  []string{"mode", "owner", "group", "target-directory", "suffix", "strip-program"},
	}.parse(c.args)
	if p.has("d", "directory") {
		w.targets(c, writes, p.operands) // every operand is a directory to create
		return
	}
	_, dest := w.destinations(c.f, p)
	w.targets(c, writes, dest)
}

// ln makes hard links unless told -s. A link is judged by what it points
// to: that path is a write target too (a link to a protected file, or out
// of the workspace, is refused like a write there; a hard link to a file is
// a second name to write it by), and hard link sources are reported as
// such. The link is remembered: later targets of the same command that go
// through it are checked where they land, since the gate resolves paths
// before the link exists.
func (w *walker) ln(c *call) {
	p := copyOptions().parse(c.args)
	hard := !p.has("s", "symbolic")
	sources, landed := w.destinations(c.f, p)
	if _, ok := p.value("t", "target-directory"); !ok && len(p.operands) == 1 {
		// `ln -s /a/b` makes ./b
		sources, landed = p.operands, []arg{inside(literal(""), p.operands[0])}
	}
	if hard {
		w.targets(c, linkSources, w.allAtHome(sources))
	}
	w.targets(c, writes, landed)
	for i, src := range sources {
		if i < len(landed) {
			w.remember(c.f, landed[i], src, hard)
		}
	}
}

// remember records that name is a link to src (for a symbolic link, src is
// relative to the link's directory), and reports what it points to as a
// write target.
func (w *walker) remember(f *frame, name, src arg, hard bool) {
	if !src.literal && !hard {
		// A hard link's source is a target of its own, already judged.
		if src = w.atHome(src); !src.literal {
			w.opaque("link target is not a literal word: " + src.raw)
			return
		}
	}
	if !name.literal || !src.literal || name.text == "" || src.text == "" {
		return // already opaque, or nothing to follow
	}
	at, ok := f.place(name.text)
	if !ok {
		return
	}
	to := src.text
	switch {
	case hard:
		if to, ok = f.place(src.text); !ok {
			return
		}
	case !strings.HasPrefix(to, "/") && path.Dir(at) != ".":
		// Not cleaned: the gate resolves symlinks before "..", as the kernel does.
		to = join(path.Dir(at), to)
	}
	w.write(to)
	w.links = append(w.links, link{at: path.Clean(at), to: to})
}

// link is a symbolic or hard link made earlier in the command: at its
// placed name, to what it points at.
type link struct{ at, to string }

// followLinks reports where a target reaches through links made earlier in
// the command, following chains of them a few deep: writing to a link, or
// to a path below a linked directory, writes where it points; deleting a
// path below a linked directory deletes there (deleting the link itself
// leaves its target alone).
func (w *walker) followLinks(p string, e effect) {
	cur := path.Clean(p)
	for range 8 {
		next, exact := "", false
		for i := len(w.links) - 1; i >= 0 && next == ""; i-- {
			l := w.links[i]
			switch {
			case cur == l.at:
				next, exact = l.to, true
			case strings.HasPrefix(cur, l.at+"/"):
				next = join(l.to, strings.TrimPrefix(cur, l.at+"/"))
			}
		}
		switch {
		case next == "":
			return
		case e == deletes && exact:
			return
		case e == deletes:
			w.delete(next)
		case e == linkSources:
			w.linkSource(next)
		default:
			w.write(next)
		}
		cur = path.Clean(next)
	}
}

// link is `link FILE1 FILE2`: the link(2) call, which makes FILE2 a hard link to FILE1.
func (w *walker) link(c *call) {
	p := options{}.parse(c.args)
	if len(p.operands) != 2 {
		return // link refuses to run
	}
	w.target(c.f, c.name, linkSources, p.operands[0])
	w.target(c.f, c.name, writes, p.operands[1])
}

// remoteCopy is rsync and scp: like cp, except that an operand may name another host, and that
// rsync copies the contents of a source written with a trailing slash, not the source itself.
func (w *walker) remoteCopy(c *call) {
	o := options{short: "PioFclJSD"} // scp
	if c.name == "rsync" {
		o = options{
			short: "eBfMT",
			long: []string{"rsh", "exclude", "include", "filter", "exclude-from", "include-from",
				"files-from", "temp-dir", "compare-dest", "copy-dest", "link-dest", "backup-dir",
				"suffix", "chmod", "chown", "usermap", "groupmap", "timeout", "contimeout", "port",
				"password-file", "log-file", "out-format", "partial-dir", "max-size", "min-size",
				"bwlimit", "block-size", "rsync-path", "max-delete", "modify-window", "iconv",
				"info", "debug", "sockopts", "address", "protocol", "remote-option"},
		}
	}
	p := o.parse(c.args)
	if len(p.operands) < 2 {
		return
	}
	sources, dest := p.operands[:len(p.operands)-1], p.operands[len(p.operands)-1]
	if c.name == "rsync" && p.has("remove-source-files") {
		w.targets(c, deletes, local(sources))
	}
	if isRemote(dest) {
		return
	}
	if c.name == "rsync" && p.has("delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "del") {
		// what the destination holds beyond the sources goes: the destination is replaced
		w.target(c.f, c.name, deletes, dest)
	}
	if !w.isInto(c.f, dest, len(sources)) {
		w.target(c.f, c.name, writes, dest)
		return
	}
	for _, src := range sources {
		if c.name == "rsync" && strings.HasSuffix(src.text, "/") {
			w.target(c.f, c.name, writes, dest)
		} else {
			w.target(c.f, c.name, writes, inside(dest, src))
		}
	}
}

// isRemote reports whether an rsync or scp operand names another host: host:path, user@host:path.
func isRemote(a arg) bool {
	text := cmp.Or(a.text, a.raw)
	colon := strings.IndexByte(text, ':')
	slash := strings.IndexByte(text, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}

func local(list []arg) []arg {
	var out []arg
	for _, a := range list {
		if !isRemote(a) {
			out = append(out, a)
		}
	}
	return out
}

// destinations splits the operands of cp, mv, install and ln into sources and the paths they
// land on: the destination itself, or each source's name inside it when it is a directory.
func (w *walker) destinations(f *frame, p parsed) (sources, landed []arg) {
	var dir arg
	if d, ok := p.value("t", "target-directory"); ok {
		sources, dir = p.operands, d
	} else {
		n := len(p.operands)
		if n < 2 {
			return p.operands, nil
		}
		sources, dir = p.operands[:n-1], p.operands[n-1]
		if p.has("T", "no-target-directory") || !w.isInto(f, dir, len(sources)) {
			return sources, []arg{dir}
		}
	}
	for _, src := range sources {
		if p.has("parents") {
			landed = append(landed, under(dir, src))
		} else {
			landed = append(landed, inside(dir, src))
		}
	}
	return sources, landed
}

// isInto reports whether sources copied to dest land inside it: dest is a directory, says so
// with a trailing slash, or there are several sources.
func (w *walker) isInto(f *frame, dest arg, sources int) bool {
	return sources > 1 || w.isDirWord(f, dest)
}

// isDirWord reports whether a word names a directory: it ends in a slash, or the caller knows it.
func (w *walker) isDirWord(f *frame, a arg) bool {
	if strings.HasSuffix(a.text, "/") {
		return true
	}
	if !a.literal {
		return false
	}
	p, ok := f.place(a.text)
	return ok && w.isDirectory(p)
}

// inside returns where src lands in directory dir: dir/<base name of src>.
func inside(dir, src arg) arg {
	base := path.Base(src.text)
	if src.literal && dir.literal && (base == "." || base == ".." || base == "/") {
		return dir // the contents go into dir itself
	}
	return placed(dir, src, base, path.Base(src.raw))
}

// under returns where src lands in dir with cp --parents: dir/<src as written>.
func under(dir, src arg) arg {
	return placed(dir, src, src.text, src.raw)
}

func placed(dir, src arg, text, raw string) arg {
	return arg{
		text:    join(dir.text, text),
		raw:     join(dir.raw, raw),
		literal: dir.literal && src.literal,
		feed:    cmp.Or(src.feed, dir.feed),
	}
}

// dd writes the file of its of= operand; a device there is destructive.
func (w *walker) dd(c *call) {
	for _, a := range c.args {
		out, ok := keyValue(a, "of=")
		if !ok {
			continue
		}
		if strings.HasPrefix(out.text, "/dev/") && !isDevice(out.text) {
			w.destructive(c.text())
		}
		w.target(c.f, c.name, writes, out)
	}
}

// keyValue returns the value of a key=value word such as of=FILE, not literal if the word is not.
func keyValue(a arg, key string) (arg, bool) {
	switch {
	case a.literal && strings.HasPrefix(a.text, key):
		return assigned(a.text[len(key):]), true
	case !a.literal && strings.HasPrefix(a.raw, key):
		return arg{raw: a.raw[len(key):], feed: a.feed}, true
	}
	return arg{}, false
}

// view reports the files cat, head, tail, less and more show.
func (w *walker) view(c *call) {
	var o options
	switch c.name {
	case "head", "tail":
		o = options{short: "nc", long: []string{"lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"}}
	case "less":
		o = options{short: "bhjkoOpPtTxyz", long: []string{"log-file", "pattern", "tag", "tabs", "shift"}}
	case "more":
		o = options{short: "n", long: []string{"lines"}}
	}
	for _, a := range o.parse(c.args).operands {
		if !strings.HasPrefix(a.text, "+") { // less +F, more +10: commands, not files
			w.viewed(c.f, a)
		}
	}
}

// grep reports the file grep or rg searches when there is exactly one and it is not a tree.
func (w *walker) grep(c *call) {
	o := options{
		short: "efmABCdD",
		long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context",
			"devices", "directories", "label", "include", "exclude", "exclude-dir", "exclude-from",
			"binary-files", "group-separator"},
	}
	if c.name == "rg" {
		o = options{
			short: "efgtTmABCjMEr",
			long: []string{"regexp", "file", "glob", "iglob", "type", "type-not", "max-count",
				"after-context", "before-context", "context", "threads", "max-columns", "encoding",
				"replace", "max-depth", "max-filesize", "type-add", "pre", "pre-glob", "sort", "sortr",
				"color", "colors", "context-separator", "path-separator", "ignore-file", "engine"},
		}
	}
	p := o.parse(c.args)
	if prog, ok := p.value("pre"); ok && c.name == "rg" {
		w.opaque("rg --pre runs a program: " + prog.raw)
	}
	files := p.operands
	if !p.has("e", "f", "regexp", "file") && len(files) > 0 {
		files = files[1:] // the pattern
	}
	if len(files) != 1 || (c.name != "rg" && p.has("r", "R", "recursive", "dereference-recursive")) {
		return
	}
	file := files[0]
	if file.text == "." || file.text == ".." || w.isDirWord(c.f, file) {
		return
	}
	w.viewed(c.f, file)
}

// download reports the files curl -o and wget -O write.
func (w *walker) download(c *call) {
	o, names := options{short: "oDc", long: []string{"output", "dump-header", "cookie-jar"}},
		[]string{"o", "D", "c", "output", "dump-header", "cookie-jar"}
	if c.name == "wget" {
		o, names = options{short: "Ooa", long: []string{"output-document", "output-file", "append-output"}},
			[]string{"O", "o", "a", "output-document", "output-file", "append-output"}
	}
	for _, opt := range o.parse(c.args).opts {
		if slices.Contains(names, opt.name) && opt.value.text != "-" {
			w.target(c.f, c.name, writes, opt.value)
		}
	}
}
