package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docCommand finds "tridboard <command> ..." in a line of code; the rest of
// the line is searched for flags.
var docCommand = regexp.MustCompile(`(?:^|[\s/` + "`" + `(])tridboard ([a-z][a-z0-9-]*)((?:\s+[^\s|;&>]+)*)`)

// codeLines returns the code of a Markdown text, line by line with its line
// number: fenced blocks whole, and the inline code spans of other lines.
func codeLines(text string) (lines []string, numbers []int) {
	fenced := false
	span := regexp.MustCompile("`([^`]+)`")
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			lines, numbers = append(lines, l), append(numbers, i+1)
			continue
		}
		for _, m := range span.FindAllStringSubmatch(l, -1) {
			lines, numbers = append(lines, m[1]), append(numbers, i+1)
		}
	}
	return lines, numbers
}

// TestDocsNameOnlyCommandsThatExist: every `tridboard <command>` the README
// and docs/*.md show is a command of the binary, and every --flag shown after
// it is one of that command's flags.
func TestDocsNameOnlyCommandsThatExist(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"../../README.md"}, files...)
	help := map[string]string{}
	found := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines, numbers := codeLines(string(data))
		for i, l := range lines {
			for _, m := range docCommand.FindAllStringSubmatch(l, -1) {
				name, rest := m[1], m[2]
				if name == "tridboard" { // sudo -u tridboard tridboard export
					continue
				}
				found++
				where := filepath.Base(f) + ":" + strconv.Itoa(numbers[i])
				if _, ok := commands[name]; !ok {
					t.Errorf("%s: `tridboard %s`: no such command", where, name)
					continue
				}
				if name == "config" && !strings.HasPrefix(strings.TrimSpace(rest), "check") {
					t.Errorf("%s: `tridboard config%s`: config's one subcommand is check", where, rest)
				}
				if _, ok := help[name]; !ok {
					_, out, errs := run(name, "--help")
					help[name] = out + errs
				}
				for _, fl := range regexp.MustCompile(`(?:^|[\s\[])--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(rest, -1) {
					if fl[1] == "help" {
						continue
					}
					if !strings.Contains(help[name], "\n  -"+fl[1]+" ") && !strings.Contains(help[name], "\n  -"+fl[1]+"\n") {
						t.Errorf("%s: `tridboard %s ... --%s`: %s has no such flag", where, name, fl[1], name)
					}
				}
			}
		}
	}
	if found < 20 {
		t.Errorf("found only %d commands in the docs: is the pattern still right?", found)
	}
}
