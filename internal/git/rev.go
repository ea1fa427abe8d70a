package git

// Reading HEAD without git: a hook pays for every process it starts, so the
// commit records name is found from the repository's files (HEAD, loose refs,
// packed-refs, worktree links). The reftable ref format, the object store and
// the index are not read here.

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// maxSymrefDepth bounds chains of symbolic refs (git itself stops at 5), so a
// loop of refs pointing at each other cannot hang a hook.
const maxSymrefDepth = 5

// Revision returns the hex commit id of HEAD for the repository containing
// root, or "" when root is not inside a repository or HEAD does not resolve
// to a commit (an unborn branch, an unreadable or unknown ref format).
func Revision(root string) string {
	gitDir, ok := findGitDir(root)
	if !ok {
		return ""
	}
	commonDir := readCommonDir(gitDir)
	head, err := osfile.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	return resolve(gitDir, commonDir, strings.TrimSpace(string(head)), 0)
}

// findGitDir walks up from root to the first directory holding .git, and
// returns the git directory it names: .git itself, or the target of a
// "gitdir: <path>" file (worktrees, submodules).
func findGitDir(root string) (string, bool) {
	dir, err := filepath.Abs(root)
	if err != nil {
		return "", false
	}
	for {
		dotGit := filepath.Join(dir, ".git")
		if st, err := os.Stat(dotGit); err == nil {
			if st.IsDir() {
				return dotGit, true
			}
			if target, ok := readGitFile(dotGit); ok {
				return target, true
			}
			// A .git that is neither a directory nor a gitdir link is not a
			// repository; git stops looking here too, and so do we.
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// readGitFile reads a "gitdir: <path>" link; a relative path is relative to
// the directory holding the link.
func readGitFile(path string) (string, bool) {
	b, err := osfile.ReadFile(path)
	if err != nil {
		return "", false
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	target = strings.TrimSpace(target)
	if !ok || target == "" {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	if st, err := os.Stat(target); err != nil || !st.IsDir() {
		return "", false
	}
	return target, true
}

// readCommonDir returns the directory holding shared refs: a linked
// worktree's gitdir names it in its commondir file; otherwise it is the
// gitdir itself.
func readCommonDir(gitDir string) string {
	b, err := osfile.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	dir := strings.TrimSpace(string(b))
	if dir == "" {
		return gitDir
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitDir, dir)
	}
	return dir
}

// resolve turns the content of HEAD or of a loose ref into a commit id.
func resolve(gitDir, commonDir, content string, depth int) string {
	name, symbolic := strings.CutPrefix(content, "ref:")
	if !symbolic {
		if isHex(content) {
			return strings.ToLower(content)
		}
		return ""
	}
	if depth >= maxSymrefDepth {
		return ""
	}
	name = strings.TrimSpace(name)
	if !validRefName(name) {
		return ""
	}
	// Per-worktree refs live in the worktree's gitdir, shared ones in the
	// common dir; looking in both, the worktree's first, finds either.
	dirs := []string{gitDir}
	if commonDir != gitDir {
		dirs = append(dirs, commonDir)
	}
	for _, dir := range dirs {
		b, err := osfile.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err == nil {
			return resolve(gitDir, commonDir, strings.TrimSpace(string(b)), depth+1)
		}
	}
	return packedRef(commonDir, name)
}

// packedRef looks name up in packed-refs: "<hex> <refname>" lines, skipping
// the "#" header and the "^<hex>" peeled values of annotated tags.
func packedRef(commonDir, name string) string {
	f, err := osfile.Open(filepath.Join(commonDir, "packed-refs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	want := []byte(name)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		id, ref, ok := bytes.Cut(line, []byte(" "))
		if ok && bytes.Equal(bytes.TrimSpace(ref), want) && isHex(string(id)) {
			return strings.ToLower(string(id))
		}
	}
	return ""
}

// validRefName keeps a ref name from reading outside the git directory.
func validRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") || strings.ContainsRune(name, '\\') {
		return false
	}
	return !strings.ContainsAny(name, "\x00 \t\n~^:?*[")
}

// isHex reports whether s is a full object id: 40 hex digits for SHA-1
// repositories, 64 for SHA-256 ones.
func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// Top returns the top of the work tree holding dir (the directory with the
// .git entry), and its git directory, without running git; ok is false
// outside a repository.
func Top(dir string) (top, gitDir string, ok bool) {
	gitDir, ok = findGitDir(dir)
	if !ok {
		return "", "", false
	}
	abs, _ := filepath.Abs(dir)
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, gitDir, true
		}
		if filepath.Dir(d) == d {
			return "", "", false
		}
	}
}

// BuiltinFSMonitor reports whether the repository's own config turns on
// git's built-in file system monitor (core.fsmonitor = true). Any other
// value names a program to run, which intenthook never lets git start.
func BuiltinFSMonitor(gitDir string) bool {
	data, err := osfile.ReadFile(filepath.Join(readCommonDir(gitDir), "config"))
	if err != nil {
		return false
	}
	v, ok := coreValue(data, "fsmonitor")
	return ok && strings.EqualFold(v, "true")
}

// coreValue returns the value of core.<key> in a git config file's text
// (the first one; enough for the keys read here).
func coreValue(config []byte, key string) (string, bool) {
	inCore := false
	for _, line := range strings.Split(string(config), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inCore = strings.EqualFold(strings.Trim(line, "[] \t"), "core")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if inCore && ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// HeadRef names what HEAD points at, without running git: the branch
// ("main"), or "detached" when HEAD is a commit, or "" outside a
// repository.
func HeadRef(root string) string {
	gitDir, ok := findGitDir(root)
	if !ok {
		return ""
	}
	head, err := osfile.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref, isRef := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if !isRef {
		return "detached"
	}
	return strings.TrimPrefix(ref, "refs/heads/")
}

// ConfigAndHooks returns the repository's config file and the directory
// git runs hooks from (core.hooksPath when the repository's config sets
// it, relative to the work tree's top; else the hooks directory), without
// running git. Both are "" outside a repository.
func ConfigAndHooks(root string) (config, hooks string) {
	top, gitDir, ok := Top(root)
	if !ok {
		return "", ""
	}
	common := readCommonDir(gitDir)
	config = filepath.Join(common, "config")
	hooks = filepath.Join(common, "hooks")
	data, err := osfile.ReadFile(config)
	if err != nil {
		return config, hooks
	}
	if v, ok := coreValue(data, "hookspath"); ok {
		p := strings.Trim(v, `"`)
		if strings.HasPrefix(p, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				p = filepath.Join(home, p[2:])
			}
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(top, p)
		}
		hooks = p
	}
	return config, hooks
}

// ReflogEntry is one line of HEAD's reflog.
type ReflogEntry struct {
	Old, New, Message string
}

// ReflogSize is the size of HEAD's reflog (0 when there is none): what
// Reflog later reads from.
func ReflogSize(root string) int64 {
	gitDir, ok := findGitDir(root)
	if !ok {
		return 0
	}
	st, err := os.Stat(filepath.Join(gitDir, "logs", "HEAD"))
	if err != nil {
		return 0
	}
	return st.Size()
}

// Reflog returns HEAD's reflog entries written after offset (a size
// ReflogSize returned earlier): what git did to HEAD since.
func Reflog(root string, offset int64) []ReflogEntry {
	gitDir, ok := findGitDir(root)
	if !ok {
		return nil
	}
	f, err := osfile.Open(filepath.Join(gitDir, "logs", "HEAD"))
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() <= offset {
		return nil
	}
	buf := make([]byte, min(st.Size()-offset, 1<<20))
	n, _ := f.ReadAt(buf, offset)
	var out []ReflogEntry
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		head, msg, ok := strings.Cut(line, "\t")
		f := strings.Fields(head)
		if !ok || len(f) < 2 {
			continue
		}
		out = append(out, ReflogEntry{Old: f[0], New: f[1], Message: msg})
	}
	return out
}

// HeadInfo is HeadRef and Revision from one look for the git directory.
func HeadInfo(root string) (ref, commit string) {
	gitDir, ok := findGitDir(root)
	if !ok {
		return "", ""
	}
	head, err := osfile.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", ""
	}
	content := strings.TrimSpace(string(head))
	commit = resolve(gitDir, readCommonDir(gitDir), content, 0)
	r, isRef := strings.CutPrefix(content, "ref: ")
	if !isRef {
		return "detached", commit
	}
	return strings.TrimPrefix(r, "refs/heads/"), commit
}

// maxPackedRefs bounds the packed-refs file BranchTips reads: beyond it
// (a repository with very many refs) the tips are not known.
const maxPackedRefs = 1 << 20

// BranchTips returns HEAD's commit and the commits of the local branches
// (refs/heads/**), read from the ref files without running git; ok is false
// when they cannot all be read. Moves of HEAD inside a shell command are
// judged against these: commits reachable from a branch that existed
// before the command are not the command's doing.
func BranchTips(root string) (head string, tips []string, ok bool) {
	gitDir, found := findGitDir(root)
	if !found {
		return "", nil, false
	}
	common := readCommonDir(gitDir)
	if b, err := osfile.ReadFile(filepath.Join(gitDir, "HEAD")); err == nil {
		head = resolve(gitDir, common, strings.TrimSpace(string(b)), 0)
	}
	seen := map[string]bool{}
	add := func(id string) {
		if id = strings.ToLower(strings.TrimSpace(id)); isHex(id) && !seen[id] {
			seen[id] = true
			tips = append(tips, id)
		}
	}
	heads := filepath.Join(common, "refs", "heads")
	err := filepath.WalkDir(heads, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := osfile.ReadFile(p)
		if err != nil {
			return err
		}
		add(resolve(gitDir, common, strings.TrimSpace(string(b)), 0))
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return head, tips, false
	}
	f, err := osfile.Open(filepath.Join(common, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return head, tips, true
	}
	if err != nil {
		return head, tips, false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() > maxPackedRefs {
		return head, tips, false
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return head, tips, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if id, ref, ok := strings.Cut(line, " "); ok && strings.HasPrefix(ref, "refs/heads/") {
			add(id)
		}
	}
	return head, tips, true
}

// CommonDir returns the repository's common git directory for the work
// tree holding dir (what git rev-parse --git-common-dir names), without
// running git: .git itself in a repository's main work tree, the
// directory a linked work tree's gitdir names in its commondir file. It
// reads the .git file of a linked work tree and its commondir, nothing
// more; ok is false outside a repository.
func CommonDir(dir string) (string, bool) {
	gitDir, ok := findGitDir(dir)
	if !ok {
		return "", false
	}
	return readCommonDir(gitDir), true
}

// WorkTrees lists the tops of the repository's work trees from its common
// directory, without running git: the main one (the directory holding a
// common directory named .git), then each linked one its worktrees/<name>/gitdir
// file names, in name order. A work tree whose directory is gone is left
// out.
func WorkTrees(common string) []string {
	var out []string
	if filepath.Base(common) == ".git" {
		out = append(out, filepath.Dir(common))
	}
	entries, _ := os.ReadDir(filepath.Join(common, "worktrees"))
	for _, e := range entries {
		b, err := osfile.ReadFile(filepath.Join(common, "worktrees", e.Name(), "gitdir"))
		if err != nil {
			continue
		}
		dotGit := strings.TrimSpace(string(b))
		if !filepath.IsAbs(dotGit) {
			dotGit = filepath.Join(common, "worktrees", e.Name(), dotGit)
		}
		if _, err := os.Stat(dotGit); err == nil {
			out = append(out, filepath.Dir(dotGit))
		}
	}
	return out
}
