package intents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/intenthook/intenthook/internal/codec"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// Parsing YAML is most of what a hook would spend on a large catalog, and a
// hook runs on every tool call. So the parsed catalog is kept in
// state/catalog.cache, keyed by the sha256 of the catalog's bytes: a key of
// content never serves a stale catalog. (A modification time alone is too
// coarse to trust; a large catalog's digest is remembered against its full
// fingerprint once it has settled: mappedKey.)
//
// The cache holds a header (format and key; the catalog's problems; an index
// of ids with the offset and length of each intent) and then the intents in
// the binary form of codec.go, so that a hook reads the header and the one
// intent it needs.

// cacheMagic names the cache's format; it changes whenever the cached shape
// does, so that an old binary's cache is rebuilt rather than misread.
const cacheMagic = "intenthook-catalog-cache/10 "

const cacheName = "catalog.cache"

// maxMapped bounds the catalogs that are mapped rather than read.
const maxMapped = 64 << 20

// cacheHead is how much of the cache is read first: the header of a catalog
// of a few hundred intents fits. Every page read is a page the hook process
// faults in, so it is not larger; a longer header is read in doublings.
const cacheHead = 8 << 10

// LoadCached reads the catalog at path for the workspace at root through the
// parse cache, rebuilding the cache (atomically) on a miss. A cache that
// cannot be read or written only costs a parse.
func LoadCached(root, path string) (*Catalog, error) {
	cachePath := state.Path(root, cacheName)
	if mapped, st, ok := mapCatalog(path); ok {
		if key, ok := mappedKey(root, mapped, st); ok {
			if c, ok := readCache(cachePath, key); ok {
				c.source, c.cachePath = mapped, cachePath
				return c, nil
			}
		}
	}
	// A miss parses a private copy: mapped bytes could change under the
	// parse, and the cache would be keyed by bytes it was not parsed from.
	data, err := osfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	key := digestOf(data)
	if c, ok := readCache(cachePath, key); ok {
		c.source, c.cachePath = data, cachePath
		return c, nil
	}
	c, err := Parse(data)
	if err != nil {
		return nil, err
	}
	writeCache(root, cachePath, key, c)
	return c, nil
}

// Hashing a large catalog is most of what a cache hit costs, so the
// digest is remembered in state/catalog.stat against the file's
// fingerprint, once the file has settled: a hit whose fingerprint matches
// skips the hash. A forged catalog.stat can name only a cache whose intents
// agree with the catalog's text (decode checks each), as a forged cache can.

const statName = "catalog.stat"

// settleTime is how old a catalog's change time must be before its
// fingerprint stands for its content: a write within the same clock tick
// as the one fingerprinted would leave the times unchanged. (A variable for
// the tests.)
var settleTime = 2 * time.Second

// fingerprintFrom is the catalog size from which the fingerprint is used:
// below it, hashing costs less than reading catalog.stat.
const fingerprintFrom = 16 << 10

// mappedKey returns the digest of the mapped catalog, from catalog.stat when
// the fingerprint there is the file's, else by hashing it (and remembering
// it when the file has settled).
func mappedKey(root string, mapped []byte, st os.FileInfo) (string, bool) {
	if st.Size() < fingerprintFrom {
		return digestMapped(mapped)
	}
	fp, changed := fingerprint(st)
	statPath := state.Path(root, statName)
	if fp != "" {
		if data, err := osfile.ReadFile(statPath); err == nil {
			if key, ok := strings.CutPrefix(string(data), fp+" "); ok && len(key) == 64 {
				return key, true
			}
		}
	}
	key, ok := digestMapped(mapped)
	if ok && fp != "" && time.Since(changed) > settleTime && state.Ensure(root) == nil {
		_ = state.WriteFile(statPath, []byte(fp+" "+key), 0o644, false)
	}
	return key, ok
}

func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// digestMapped is digestOf over mapped bytes: ok is false when the catalog
// was cut short in place while mapped (the read faults).
func digestMapped(data []byte) (key string, ok bool) {
	ok = !osfile.Faulted(func() { key = digestOf(data) })
	return key, ok
}

// readCache opens a cache whose key matches and reads its header; intents
// are read from the file when asked for.
func readCache(path, key string) (*Catalog, bool) {
	f, err := osfile.Open(path)
	if err != nil {
		return nil, false
	}
	c, ok := readCacheHeader(f, key)
	if !ok {
		f.Close()
		return nil, false
	}
	return c, true
}

func readCacheHeader(f *os.File, key string) (*Catalog, bool) {
	size := int64(cacheHead)
	if st, err := f.Stat(); err == nil && st.Size() < size {
		size = st.Size()
	}
	c, complete := parseCacheHeader(f, key, size)
	if !complete {
		// A header longer than the first read: read more, up to all of it.
		if st, err := f.Stat(); err == nil {
			for !complete && size < st.Size() {
				size = min(2*size, st.Size())
				c, complete = parseCacheHeader(f, key, size)
			}
		}
	}
	return c, c != nil && complete
}

// parseCacheHeader parses the header within the first size bytes; complete
// is false when the index runs past them.
func parseCacheHeader(f io.ReaderAt, key string, size int64) (c *Catalog, complete bool) {
	buf := make([]byte, size)
	n, err := f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return nil, false
	}
	buf = buf[:n]
	prefix := cacheMagic + key + "\n"
	if !bytes.HasPrefix(buf, []byte(prefix)) {
		return nil, true
	}
	pos := len(prefix)
	line := func() ([]byte, bool) {
		i := bytes.IndexByte(buf[pos:], '\n')
		if i < 0 {
			return nil, false
		}
		l := buf[pos : pos+i]
		pos += i + 1
		return l, true
	}
	problems, ok := line()
	count, ok2 := line()
	n, err = strconv.Atoi(string(count))
	if !ok || !ok2 || err != nil || n < 0 {
		return nil, !ok || !ok2
	}
	c = &Catalog{file: f, count: n}
	raw, err := hex.DecodeString(string(problems))
	if err != nil {
		return nil, true
	}
	d := &decoder{codec.Decoder{B: raw}}
	if c.Problems = d.problems(); d.Err != nil {
		return nil, true
	}
	start := pos
	for i := 0; i < n; i++ {
		l, ok := line()
		if !ok {
			return c, false
		}
		if _, _, _, ok := indexLine(l); !ok {
			return nil, true
		}
	}
	// The index is kept as read: Find scans it for the one id a hook asks
	// for, and only All parses it into lists (expand).
	c.lines, c.base = buf[start:pos], int64(pos)
	return c, true
}

// indexLine reads a line of the cache's index: the intent's id as
// strconv.Quote wrote it, and its offset and length in the body; ok is
// false for a line of another form.
func indexLine(l []byte) (quoted []byte, off, n int64, ok bool) {
	// The id is quoted and may hold spaces: the two numbers are the line's
	// last two fields.
	rest, length, _ := cutLast(l, ' ')
	quoted, offset, _ := cutLast(rest, ' ')
	off, ok1 := atoi(offset)
	n, ok2 := atoi(length)
	return quoted, off, n, ok1 && ok2 && validQuoted(quoted)
}

// expand parses a cached catalog's index into its lists, once: All and
// decode need them, Find does not. An intent Find decoded keeps its place.
func (c *Catalog) expand() {
	if c.lines == nil || c.ids != nil {
		return
	}
	c.ids, c.at, c.list = make([]string, c.count), make([][2]int64, c.count), make([]*Intent, c.count)
	rest := c.lines
	for i := range c.count {
		l, r, _ := bytes.Cut(rest, []byte{'\n'})
		rest = r
		quoted, off, n, _ := indexLine(l)
		c.ids[i], _ = unquoteID(quoted)
		c.at[i] = [2]int64{c.base + off, n}
	}
	for id, in := range c.byID {
		if i := c.firstIndex(id); i >= 0 {
			c.list[i] = in
		}
	}
}

// findIndexed decodes the first intent of a cached catalog's index whose
// id is id, without parsing the rest of the index.
func (c *Catalog) findIndexed(id string) *Intent {
	rest := c.lines
	for len(rest) > 0 {
		l, r, _ := bytes.Cut(rest, []byte{'\n'})
		rest = r
		quoted, off, n, _ := indexLine(l)
		if !quotedIs(quoted, id) {
			continue
		}
		in := c.decodeAt(id, c.base+off, n)
		if in.ID == id {
			if c.byID == nil {
				c.byID = map[string]*Intent{}
			}
			c.byID[id] = in
		}
		return in
	}
	return nil
}

// cutLast slices b around the last sep.
func cutLast(b []byte, sep byte) (before, after []byte, found bool) {
	if i := bytes.LastIndexByte(b, sep); i >= 0 {
		return b[:i], b[i+1:], true
	}
	return b, nil, false
}

// plainQuoted reports whether q is a quoted id with nothing to unquote:
// most are, and a hook reads the index's ids.
func plainQuoted(q []byte) bool {
	return len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' && bytes.IndexByte(q[1:len(q)-1], '\\') < 0 && bytes.IndexByte(q[1:len(q)-1], '"') < 0 && utf8.Valid(q)
}

// validQuoted reports whether q is an id the index wrote with
// strconv.Quote.
func validQuoted(q []byte) bool {
	if plainQuoted(q) {
		return true
	}
	_, ok := unquoteID(q)
	return ok
}

// quotedIs reports whether the quoted id q is id, without allocating for a
// plain one.
func quotedIs(q []byte, id string) bool {
	if plainQuoted(q) {
		return string(q[1:len(q)-1]) == id
	}
	got, ok := unquoteID(q)
	return ok && got == id
}

// unquoteID reads an id the index wrote with strconv.Quote.
func unquoteID(q []byte) (string, bool) {
	if plainQuoted(q) {
		return string(q[1 : len(q)-1]), true
	}
	id, err := strconv.Unquote(string(q))
	return id, err == nil
}

// atoi reads a non-negative decimal of the index.
func atoi(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// decode turns cached intent i into an Intent, once.
func (c *Catalog) decode(i int) *Intent {
	if c.list[i] != nil {
		return c.list[i]
	}
	in := c.decodeAt(c.ids[i], c.at[i][0], c.at[i][1])
	c.list[i] = in
	if _, seen := c.byID[in.ID]; !seen && in.ID != "" && c.firstIndex(in.ID) == i {
		if c.byID == nil {
			c.byID = map[string]*Intent{}
		}
		c.byID[in.ID] = in
	}
	return in
}

// decodeAt decodes the cached intent the index lists as id, n bytes at off.
func (c *Catalog) decodeAt(id string, off, n int64) *Intent {
	in := &Intent{}
	raw := make([]byte, n)
	_, err := c.file.ReadAt(raw, off)
	if err == nil {
		in, err = decodeIntent(raw)
	}
	if err == nil && in.ID != id {
		// The index lists the intent at another's place: each intent
		// agrees with the catalog, yet a hook asking for one would be
		// handed the other's rules.
		err = fmt.Errorf("lists %q where %q lies (removed; the next call re-reads the catalog)", id, in.ID)
		_ = os.Remove(c.cachePath)
	}
	if err == nil && c.source != nil && !c.agreesSafely(in) {
		// Keyed with the catalog's own digest, yet saying something the
		// catalog does not: a forged cache. It must not change the rules:
		// the intent reads as invalid, and the cache is removed so the next
		// call parses the catalog itself.
		err = fmt.Errorf("does not match %s (removed; the next call re-reads the catalog)", File)
		_ = os.Remove(c.cachePath)
	}
	if err != nil {
		// The cache was written by this format; a damaged line reads as
		// an invalid intent rather than as a crash.
		in = &Intent{ID: id, Problems: []Problem{{ID: id, Severity: Error, Message: "catalog cache damaged: " + err.Error()}}}
	}
	return in
}

func (c *Catalog) firstIndex(id string) int {
	for i, x := range c.ids {
		if x == id {
			return i
		}
	}
	return -1
}

func writeCache(root, path, key string, c *Catalog) {
	if state.Ensure(root) != nil {
		return
	}
	// Every intenthook process may write the cache: it is derived from the
	// catalog, and a hit is checked against it (agrees).
	out := cacheBytes(key, c)
	guard.Journal(root, ".orchestration/state/"+cacheName, out)
	_ = state.WriteFile(path, out, 0o644, false)
}

// cacheBytes is the cache's form of c, parsed from a catalog whose digest
// is key: a header (key, problems, an index of the intents) and the
// intents, encoded.
func cacheBytes(key string, c *Catalog) []byte {
	var body []byte
	var index strings.Builder
	for _, in := range c.list {
		start := len(body)
		body = appendIntent(body, in)
		fmt.Fprintf(&index, "%s %d %d\n", strconv.Quote(in.ID), start, len(body)-start)
	}
	e := &encoder{}
	e.problems(c.Problems)
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s%s\n%s\n%d\n%s", cacheMagic, key, hex.EncodeToString(e.B), len(c.list), index.String())
	out.Write(body)
	return out.Bytes()
}

// fromCacheBytes decodes every intent of b, the cache's form of the catalog
// whose digest is key.
func fromCacheBytes(b []byte, key string) (*Catalog, error) {
	if !bytes.HasPrefix(b, []byte(cacheMagic)) {
		// The full binary is of another build than this one.
		return nil, fmt.Errorf("the catalog's parse came back in another form than %q: install intenthook and intenthook-full from one build", strings.TrimSpace(cacheMagic))
	}
	c, complete := parseCacheHeader(bytes.NewReader(b), key, int64(len(b)))
	if c == nil || !complete {
		return nil, errors.New("the catalog's parse came back unreadable")
	}
	c.All()
	return c, nil
}

// agrees checks a cached intent against the catalog text it claims to come
// from, cheaply: the lines of its list item (from its line to the next item
// at the same indentation) must name its id, its status and every pattern
// of its owned_scope. A cache built from the catalog always agrees; one
// built elsewhere to widen a scope or revive an intent does not.
// agreesSafely is agrees over source bytes that may be mapped: a catalog cut
// short under the mapping does not agree.
func (c *Catalog) agreesSafely(in *Intent) (ok bool) {
	if osfile.Faulted(func() { ok = c.agrees(in) }) {
		return false
	}
	return ok
}

func (c *Catalog) agrees(in *Intent) bool {
	span, ok := c.itemSpan(in.lineStart)
	if !ok || !hasValue(span, "id", in.ID) || !hasValue(span, "status", string(in.Status)) {
		return false
	}
	for _, p := range in.OwnedScope {
		if !hasItem(span, p) {
			return false
		}
	}
	return true
}

// hasItem reports whether span holds p as a whole list item (quoted or
// not): "src/**" does not hold "**".
func hasItem(span []byte, p string) bool {
	for i := 0; ; {
		j := bytes.Index(span[i:], []byte(p))
		if j < 0 || p == "" {
			return false
		}
		at := i + j
		end := at + len(p)
		before := byte(' ')
		if at > 0 {
			before = span[at-1]
		}
		after := byte('\n')
		if end < len(span) {
			after = span[end]
		}
		if strings.IndexByte(` "'[,-`+"\t", before) >= 0 && strings.IndexByte(` "'],#`+"\t\r\n", after) >= 0 {
			return true
		}
		i = at + 1
	}
}

// itemSpan returns the text of the list item holding the line that begins
// at offset start: from its "-" line (that line, or the nearest one above
// it) to the next line indented no deeper. An offset that is not a line's
// beginning holds no item.
func (c *Catalog) itemSpan(start int) ([]byte, bool) {
	src := c.source
	if start < 0 || start >= len(src) || start > 0 && src[start-1] != '\n' {
		return nil, false
	}
	for back := 0; !bytes.HasPrefix(bytes.TrimLeft(lineAt(src, start), " "), []byte("-")); back++ {
		if back == 2 || start == 0 {
			return nil, false
		}
		start = bytes.LastIndexByte(src[:start-1], '\n') + 1
	}
	first := lineAt(src, start)
	indent := len(first) - len(bytes.TrimLeft(first, " "))
	end := start + len(first)
	for end < len(src) {
		l := lineAt(src, end)
		t := bytes.TrimLeft(l, " ")
		if len(bytes.TrimSpace(l)) > 0 && len(l)-len(t) <= indent && !bytes.HasPrefix(t, []byte("#")) {
			break
		}
		end += len(l)
	}
	return src[start:end], true
}

// setLineStarts sets each intent's lineStart from its Line, in one pass
// over data when the intents are in the file's order (a parse's are).
func setLineStarts(data []byte, list []*Intent) {
	line, at := 1, 0
	for _, in := range list {
		if in.Line < line {
			line, at = 1, 0
		}
		for line < in.Line && at < len(data) {
			i := bytes.IndexByte(data[at:], '\n')
			if i < 0 {
				at = len(data)
				break
			}
			at += i + 1
			line++
		}
		in.lineStart = at
	}
}

// lineAt returns the line of src starting at offset at, with its newline.
func lineAt(src []byte, at int) []byte {
	if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
		return src[at : at+i+1]
	}
	return src[at:]
}

// hasValue reports whether span sets key to value: "key: value", quoted or
// not, in block or flow style.
func hasValue(span []byte, key, value string) bool {
	for rest := span; ; {
		i := bytes.Index(rest, []byte(key+":"))
		if i < 0 {
			return false
		}
		if i == 0 || strings.ContainsRune(" \t{,-", rune(rest[i-1])) {
			v := bytes.TrimLeft(rest[i+len(key)+1:], " \t")
			v = bytes.TrimLeft(v, `"'`)
			if bytes.HasPrefix(v, []byte(value)) {
				after := v[len(value):]
				if len(after) == 0 || strings.ContainsRune(`"', }#`+"\r\n", rune(after[0])) {
					return true
				}
			}
		}
		rest = rest[i+len(key)+1:]
	}
}
