package intents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/intenthook/intenthook/internal/state"
)

// Parsing YAML is most of what a hook would spend on a large catalog, and a
// hook runs on every tool call. So the parsed catalog is kept in
// state/catalog.cache, keyed by the sha256 of the catalog's bytes: reading
// and hashing the catalog costs microseconds, and a key of content (not of
// modification time, which is too coarse to trust) never serves a stale
// catalog. The cache is a header line (key, ids, problems) and then one JSON
// line per intent, so that a hook decodes only the intents it asks for.

// cacheMagic names the cache's format; it changes whenever the cached shape
// does, so that an old binary's cache is rebuilt rather than misread.
const cacheMagic = "intenthook-catalog-cache/3 "

const cacheName = "catalog.cache"

// LoadCached reads the catalog at path for the workspace at root through the
// parse cache, rebuilding the cache (atomically) on a miss. A cache that
// cannot be read or written only costs a parse.
func LoadCached(root, path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	cachePath := state.Path(root, cacheName)
	if c, ok := readCache(cachePath, key); ok {
		return c, nil
	}
	c, err := Parse(data)
	if err != nil {
		return nil, err
	}
	writeCache(root, cachePath, key, c)
	return c, nil
}

// readCache reads a cache whose key matches: the first line names the format
// and the key, the second holds the catalog's problems, and each further line
// is an intent's id, a tab and the intent as JSON.
func readCache(path, key string) (*Catalog, bool) {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte(cacheMagic+key+"\n")) {
		return nil, false
	}
	rest := data[len(cacheMagic)+len(key)+1:]
	problems, rest, _ := bytes.Cut(rest, []byte("\n"))
	c := &Catalog{byID: map[string]*Intent{}}
	if err := json.Unmarshal(problems, &c.Problems); err != nil {
		return nil, false
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		id, raw, ok := bytes.Cut(line, []byte("\t"))
		if !ok {
			return nil, false
		}
		c.ids = append(c.ids, string(id))
		c.raw = append(c.raw, raw)
	}
	c.list = make([]*Intent, len(c.raw))
	return c, true
}

// decode turns cached intent i into an Intent, once.
func (c *Catalog) decode(i int) *Intent {
	if c.list[i] != nil {
		return c.list[i]
	}
	in := &Intent{}
	if err := json.Unmarshal(c.raw[i], in); err != nil {
		// The cache was written by this format; a damaged line reads as
		// an invalid intent rather than as a crash.
		in = &Intent{ID: c.ids[i], Problems: []Problem{{ID: c.ids[i], Severity: Error, Message: "catalog cache damaged: " + err.Error()}}}
	}
	c.list[i] = in
	if _, seen := c.byID[in.ID]; !seen && in.ID != "" && c.firstIndex(in.ID) == i {
		c.byID[in.ID] = in
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
	var buf bytes.Buffer
	buf.WriteString(cacheMagic + key + "\n")
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(emptyIfNil(c.Problems)) != nil {
		return
	}
	for _, in := range c.list {
		// Ids are event-independent catalog text; a tab or newline in one
		// would break the line format, so such an intent is written under
		// an empty id and found by decoding.
		id := in.ID
		if strings.ContainsAny(id, "\t\n") {
			id = ""
		}
		buf.WriteString(id + "\t")
		if enc.Encode(in) != nil {
			return
		}
	}
	if state.Ensure(root) != nil {
		return
	}
	_ = state.WriteFile(path, buf.Bytes(), 0o644, false)
}

func emptyIfNil(ps []Problem) []Problem {
	if ps == nil {
		return []Problem{}
	}
	return ps
}
