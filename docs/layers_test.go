package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayers: data flows one way (docs/design.md). The rules import nothing
// of ours but rules; the protocol no transport; the displays no MQTT (issue
// 23) nor the LED drivers (the targets of a lifted piece are rules:
// rules/targets); the table none of its sinks' worlds; no sink reaches back
// up to the opponents; the embedded broker and the MQTT client are apart
// (issue 38): neither imports the other, nor the other's MQTT library.
func TestLayers(t *testing.T) {
	const mod = "github.com/tridboard/tridboard/"
	for _, tc := range []struct {
		pkg       string
		forbidden []string // import path prefixes below mod, or modules
	}{
		{"rules/...", []string{"clock", "game", "table", "sensors", "recognize", "protocol", "mqtt", "broker", "web", "leds", "engine", "sets"}},
		{"protocol", []string{"mqtt", "broker", "web", "opponent", "github.com/eclipse/paho.mqtt.golang", "github.com/mochi-mqtt"}},
		{"web", []string{"mqtt", "broker", "opponent", "leds", "github.com/eclipse/paho.mqtt.golang", "github.com/mochi-mqtt"}},
		{"table", []string{"protocol", "mqtt", "broker", "web", "opponent", "event"}},
		{"table/mqttsink", []string{"opponent", "web"}},
		{"table/websink", []string{"mqtt", "opponent"}},
		{"broker", []string{"mqtt", "github.com/eclipse/paho.mqtt.golang"}},
		{"mqtt", []string{"broker", "github.com/mochi-mqtt"}},
		{"setup", []string{"protocol", "mqtt", "broker", "web", "table", "game", "leds", "sensors"}},
	} {
		out, err := exec.Command("go", "list", "-deps", "../"+tc.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", tc.pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range tc.forbidden {
				if p := mod + f; dep == p || strings.HasPrefix(dep, p+"/") || strings.HasPrefix(dep, f) && strings.Contains(f, ".") {
					t.Errorf("%s depends on %s", tc.pkg, dep)
				}
			}
		}
	}
}

// TestKits: a rule system is known by name only to the rules, the
// registry (rules/systems) and the kits (sets): every other package finds
// a system, its geometry and its capabilities there, so a new system is
// its package below rules and a line in each registry. (Tests may still
// import a system to build positions.)
func TestKits(t *testing.T) {
	const mod = "github.com/tridboard/tridboard/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	concrete := []string{mod + "rules/st3d", mod + "rules/millennium", mod + "rules/firstcontact"}
	packages := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		packages++
		pkg := strings.TrimPrefix(f[0], mod)
		if strings.HasPrefix(pkg, "rules/") || pkg == "sets" || strings.HasPrefix(pkg, "sets/") {
			continue
		}
		for _, imp := range f[1:] {
			for _, c := range concrete {
				if imp == c || strings.HasPrefix(imp, c+"/") {
					t.Errorf("%s imports %s: find the system in rules/systems, its set in sets", pkg, strings.TrimPrefix(imp, mod))
				}
			}
		}
	}
	if packages < 30 {
		t.Fatalf("go list listed %d packages: the check saw too few", packages)
	}
}

// TestGofmt: every Go file is as gofmt writes it (the gofmt of the go
// that runs the tests).
func TestGofmt(t *testing.T) {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	out, err := exec.Command(filepath.Join(strings.TrimSpace(string(root)), "bin", "gofmt"), "-l", "..").CombinedOutput()
	if err != nil {
		t.Fatalf("gofmt -l: %v\n%s", err, out)
	}
	if files := strings.Fields(string(out)); len(files) > 0 {
		t.Errorf("not gofmt'd (gofmt -w them): %v", files)
	}
}

// TestDesignMapsEveryPackage: docs/design.md's map of the house names every
// package of the module, in its table of packages (a row's first cell), and
// nothing that is not one.
func TestDesignMapsEveryPackage(t *testing.T) {
	const mod = "github.com/tridboard/tridboard"
	out, err := exec.Command("go", "list", "../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	design, err := os.ReadFile("design.md")
	if err != nil {
		t.Fatal(err)
	}
	mapped := map[string]bool{}
	for _, line := range strings.Split(string(design), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "|"), "|")
		for _, name := range strings.Split(first, ",") {
			mapped[strings.Trim(strings.TrimSpace(name), "`")] = true
		}
	}
	pkgs := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		p = strings.TrimPrefix(strings.TrimPrefix(p, mod), "/")
		if p == "" || p == "docs" {
			continue // the module's root holds no package of its own; docs holds these tests
		}
		pkgs[p] = true
		if !mapped[p] {
			t.Errorf("package %s is not in docs/design.md's table of packages", p)
		}
	}
	for p := range mapped {
		if !pkgs[p] {
			t.Errorf("docs/design.md's table names %s, which is no package", p)
		}
	}
}
