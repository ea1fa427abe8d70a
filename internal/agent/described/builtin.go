package described

import (
	"embed"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
)

// The descriptions of the agents intenthook ships as data, one file each.
//
//go:embed builtin/*.json
var builtinFiles embed.FS

// Builtin is one shipped description: its name (the file's), its
// governance rows and its agent, both made on first use.
type Builtin struct {
	Name string
	file string
	desc func() *Description
}

// Agent returns the described agent.
func (b Builtin) Agent() protocol.Agent { return b.desc().Agent() }

// Governance returns the agent's rows of the governance table, without
// parsing the description (rows.go holds them, TestBuiltinRows holds
// rows.go to the files).
func (b Builtin) Governance() governed.Table { return BuiltinRows(b.Name) }

// BuiltinNames lists the shipped descriptions' names, sorted, without
// reading them. Callers must not change the list.
func BuiltinNames() []string { return builtinNames[:] }

// BuiltinRows returns the governance rows of the shipped description name
// (none for another name) without parsing it. Callers must not change them.
func BuiltinRows(name string) governed.Table {
	if i, ok := slices.BinarySearch(builtinNames[:], name); ok {
		return builtinTables[i]
	}
	return nil
}

// BuiltinNamed returns the shipped description name.
func BuiltinNamed(name string) (Builtin, bool) {
	list := Builtins()
	i, ok := slices.BinarySearchFunc(list, name, func(b Builtin, name string) int { return strings.Compare(b.Name, name) })
	if !ok {
		return Builtin{}, false
	}
	return list[i], true
}

// Description returns the decoded description.
func (b Builtin) Description() *Description { return b.desc() }

// Builtins lists the shipped descriptions by name. A shipped file that
// does not parse is a bug the tests catch: it panics on first use.
func Builtins() []Builtin {
	builtins.once.Do(func() { builtins.list = listBuiltins() })
	return builtins.list
}

// builtins is Builtins' list, made on first use (a sync.Once's zero value
// costs no start-up work, as sync.OnceValue's call would).
var builtins struct {
	once sync.Once
	list []Builtin
}

func listBuiltins() []Builtin {
	entries, _ := builtinFiles.ReadDir("builtin")
	var out []Builtin
	for _, e := range entries {
		file := path.Join("builtin", e.Name())
		name := strings.TrimSuffix(e.Name(), ".json")
		out = append(out, Builtin{Name: name, file: file, desc: sync.OnceValue(func() *Description {
			if enc, ok := builtinEncoded(name); ok {
				if d, err := decode([]byte(enc)); err == nil {
					return d
				}
			}
			data, _ := builtinFiles.ReadFile(file)
			d, err := Parse(data)
			if err != nil {
				panic("intenthook: shipped agent description " + file + ": " + err.Error())
			}
			return d
		})})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// BuiltinSource returns a shipped description's bytes.
func BuiltinSource(name string) ([]byte, bool) {
	data, err := builtinFiles.ReadFile("builtin/" + name + ".json")
	return data, err == nil
}
