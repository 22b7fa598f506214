package docs

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outside is how the project's files used to point to the specs kept beside
// the repository (a clone has no such directory). Written in two parts so
// that this file does not match itself.
var outside = "../" + "shared"

// TestNoReferenceOutsideRepository: everything a builder, player or
// developer needs is in the repository, so no file may point to the specs
// that were once kept beside it.
func TestNoReferenceOutsideRepository(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "dist", "state":
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.IndexByte(string(data), 0) >= 0 {
			return nil // a binary built in the tree (go build, go test -c), not a source
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, outside) {
				t.Errorf("%s:%d refers to %s (a clone has no such directory; point to docs/): %s", path, i+1, outside, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCopyrightListsEveryModule: every module of go.mod is compiled into the
// binary (or may be), so deploy/copyright, which the package installs, names
// each with its version, and every licence it names is given in full.
func TestCopyrightListsEveryModule(t *testing.T) {
	mods := goModRequires(t, "../go.mod")
	if len(mods) == 0 {
		t.Fatal("go.mod: no requirements found")
	}
	data, err := os.ReadFile("../deploy/copyright")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for path, version := range mods {
		if !strings.Contains(text, "\nFiles: "+path+"/*\n") {
			t.Errorf("deploy/copyright: no Files paragraph for %s", path)
		}
		if !strings.Contains(text, "Go module "+path+" "+version+" ") {
			t.Errorf("deploy/copyright: %s is not listed at %s (go.mod's version)", path, version)
		}
	}
	given := map[string]bool{}
	for _, p := range strings.Split(text, "\n\n") {
		if strings.HasPrefix(p, "License: ") && !strings.Contains(p, "\nFiles: ") {
			name, _, _ := strings.Cut(strings.TrimPrefix(p, "License: "), "\n")
			given[name] = true
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^Files: .*\n(?:.*\n)*?License: (.*)$`).FindAllStringSubmatch(text, -1) {
		for _, name := range strings.Split(m[1], " or ") {
			if !given[name] {
				t.Errorf("deploy/copyright: licence %q is used but not given in a License paragraph", name)
			}
		}
	}
}

// goModRequires reads the module paths and versions required by a go.mod.
func goModRequires(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	block := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		fields := strings.Fields(line)
		switch {
		case len(fields) == 2 && fields[0] == "require" && fields[1] == "(":
			block = true
		case block && len(fields) == 1 && fields[0] == ")":
			block = false
		case block && len(fields) == 2:
			out[fields[0]] = fields[1]
		case len(fields) == 3 && fields[0] == "require":
			out[fields[1]] = fields[2]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDocsNameOnlyTestsThatExist: a test or benchmark the docs cite as
// evidence (TestEndToEndKillAndResume, BenchmarkCompose) exists.
func TestDocsNameOnlyTestsThatExist(t *testing.T) {
	defined := map[string]bool{}
	fn := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Example|Fuzz)[A-Za-z0-9_]*)\(`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "dist") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fn.FindAllStringSubmatch(string(data), -1) {
			defined[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	cited := regexp.MustCompile(`\b((?:Test|Benchmark|Example|Fuzz)[A-Z][A-Za-z0-9_]*)`)
	found := 0
	for _, f := range append(files, "../README.md") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range cited.FindAllStringSubmatch(line, -1) {
				found++
				if !defined[m[1]] {
					t.Errorf("%s:%d: %s is cited but no test file defines it", f, i+1, m[1])
				}
			}
		}
	}
	if found == 0 {
		t.Error("the docs cite no test at all: is the pattern still right?")
	}
}

// 64-bit atomics stay aligned on 32-bit ARM: the functions on plain int64
// and uint64 fields (atomic.AddInt64 and the like) need 8-byte alignment the
// compiler does not give there, and panic on a Pi Zero; the typed ones
// (atomic.Int64) are always aligned. None of the first kind is used.
func TestNo64BitAtomicFunctions(t *testing.T) {
	re := regexp.MustCompile(`atomic\.(Add|Load|Store|Swap|CompareAndSwap)(Int64|Uint64)\(`)
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if loc := re.FindIndex(data); loc != nil {
			line := 1 + strings.Count(string(data[:loc[0]]), "\n")
			t.Errorf("%s:%d: %s: use atomic.Int64 / atomic.Uint64 (aligned on 32-bit ARM)", p, line, data[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
