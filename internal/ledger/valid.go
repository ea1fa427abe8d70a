package ledger

// validJSON reports whether b is one JSON value (RFC 8259), as json.Valid
// does, but several times faster on ledger lines, which are mostly long
// strings: verify checks every line of a ledger that may hold millions.
// FuzzValidJSON holds it to json.Valid.
func validJSON(b []byte) bool {
	ok, _ := validRecord(b)
	return ok
}

// validRecord is validJSON, also returning the offset of the value of the
// last "metadata" member of the top-level object (-1 when there is none),
// which verify reads the chain fields from.
func validRecord(b []byte) (ok bool, metadata int) {
	sc := scanner{metadata: -1}
	i, ok := sc.value(b, skipSpace(b, 0), 0)
	return ok && skipSpace(b, i) == len(b), sc.metadata
}

// scanner remembers where the top-level metadata member's value starts.
type scanner struct{ metadata int }

// maxDepth bounds nesting, as encoding/json does (10000).
const maxDepth = 10000

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// value parses one value at i and returns the offset after it.
func (sc *scanner) value(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth > maxDepth {
		return i, false
	}
	switch c := b[i]; {
	case c == '"':
		return str(b, i)
	case c == '{':
		return sc.object(b, i, depth+1)
	case c == '[':
		return sc.array(b, i, depth+1)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return number(b, i)
	}
	return i, false
}

func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

func (sc *scanner) object(b []byte, i, depth int) (int, bool) {
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		key := i
		var ok bool
		if i, ok = str(b, i); !ok {
			return i, false
		}
		isMeta := depth == 1 && string(b[key:i]) == `"metadata"`
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		start := skipSpace(b, i+1)
		if i, ok = sc.value(b, start, depth); !ok {
			return i, false
		}
		if isMeta {
			sc.metadata = start
		}
		i = skipSpace(b, i)
		switch {
		case i >= len(b):
			return i, false
		case b[i] == '}':
			return i + 1, true
		case b[i] != ',':
			return i, false
		}
		i = skipSpace(b, i+1)
	}
}

func (sc *scanner) array(b []byte, i, depth int) (int, bool) {
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = sc.value(b, i, depth); !ok {
			return i, false
		}
		i = skipSpace(b, i)
		switch {
		case i >= len(b):
			return i, false
		case b[i] == ']':
			return i + 1, true
		case b[i] != ',':
			return i, false
		}
		i = skipSpace(b, i+1)
	}
}

// str parses a string starting at its opening quote. Like json.Valid it
// checks escapes and control characters, not UTF-8.
func str(b []byte, i int) (int, bool) {
	i++
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) {
				return i, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return i, false
				}
				for _, h := range b[i+2 : i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return i, false
					}
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
	return i, false
}

func number(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return i, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return i, false
		}
	}
	return i, true
}
