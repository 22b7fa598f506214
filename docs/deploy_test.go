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
	nfpm, err := os.ReadFile("../deploy/nfpm.yaml")
	if err != nil {
		t.Fatal(err)
	}
	examples, _ := filepath.Glob("../deploy/*.yaml")
	for _, e := range examples {
		name := filepath.Base(e)
		if name == "nfpm.yaml" || name == "tridboard.yaml" {
			continue
		}
		if !strings.Contains(string(nfpm), "src: deploy/"+name) {
			t.Errorf("the package does not ship the example %s", name)
		}
	}
	for _, s := range []string{"src: deploy/install.sh", "Millennium", "First Contact"} {
		if !strings.Contains(string(nfpm), s) {
			t.Errorf("nfpm.yaml lacks %q", s)
		}
	}
}
