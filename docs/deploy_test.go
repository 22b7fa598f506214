package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The package's scripts parse, install.sh refuses bad usage with status 2,
// and the package ships every set's example and the installer.
func TestDeployScripts(t *testing.T) {
	scripts, _ := filepath.Glob("../deploy/*.sh")
	if len(scripts) < 5 {
		t.Fatalf("deploy scripts: %v", scripts)
	}
	for _, s := range scripts {
		if out, err := exec.Command("sh", "-n", s).CombinedOutput(); err != nil {
			t.Errorf("%s: %v %s", s, err, out)
		}
	}
	for _, args := range [][]string{nil, {"x.txt"}, {"a.deb", "--now"}} {
		cmd := exec.Command("sh", append([]string{"../deploy/install.sh"}, args...)...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "usage: sudo") {
			t.Errorf("install.sh %v: %v %s", args, err, out)
		}
	}
	// The package (deploy/build.sh) ships every deploy/*.yaml but the
	// packaged configuration as an example, by a glob, and its description
	// names every system.
	build, err := os.ReadFile("../deploy/build.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`for f in deploy/*.yaml; do`, `install -m 0755 deploy/install.sh "$doc/examples/"`} {
		if !strings.Contains(string(build), s) {
			t.Errorf("build.sh lacks %q", s)
		}
	}
	control, err := os.ReadFile("../deploy/debian/control")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Star Trek 3D", "Millennium", "First Contact", "Section: misc", "Depends: adduser"} {
		if !strings.Contains(string(control), s) {
			t.Errorf("deploy/debian/control lacks %q", s)
		}
	}
}
