package config

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRefusedBeforeParsing (issue 22): deep nesting and oversized files are
// refused before the YAML parser sees them, in little memory; 40 KB of
// nested flow sequences took 661 MB in config check and run.
func TestRefusedBeforeParsing(t *testing.T) {
	deep := func(open, close string, n int) string {
		return "sensors: " + strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + "\n"
	}
	var block strings.Builder
	for i := range 100 {
		block.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	for _, tc := range []struct {
		name, yaml, err string
	}{
		{"flow sequences, depth 20,000 (40 KB)", deep("[", "]", 20000), "config deep.yaml:1: nested over 32 levels deep"},
		{"flow maps, depth 20,000", deep("{a: ", "}", 20000), "config deep.yaml:1: nested over 32 levels deep"},
		{"block maps, depth 100", block.String(), "config deep.yaml:33: nested over 32 levels deep"},
		{"block sequences, depth 100", "buttons:\n" + strings.Repeat("- ", 100) + "x\n", "config deep.yaml:2: nested over 32 levels deep"},
		{"over the size limit", "# " + strings.Repeat("x", MaxBytes) + "\n", "config deep.yaml: 1048579 bytes, over 1048576"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.yaml)
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			_, err := Decode("deep.yaml", data)
			runtime.ReadMemStats(&m1)
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("error %v, want %s...", err, tc.err)
			}
			// The error and little else: nothing parsed.
			if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 64<<10 {
				t.Errorf("allocated %d KiB to refuse it", alloc>>10)
			}
		})
	}
}

// TestShapeAccepted: what a configuration holds passes the shape check,
// brackets in quotes and comments included, up to MaxDepth levels.
func TestShapeAccepted(t *testing.T) {
	for _, yaml := range []string{
		"mqtt:\n  password: \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"\n  username: '{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{'\n",
		"# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\nboard_id: x # {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n",
		"a: " + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + "\n",
		"a: \"\\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"\n",
	} {
		if err := checkShape("ok.yaml", []byte(yaml)); err != nil {
			t.Errorf("%q: %v", yaml, err)
		}
	}
	// Read refuses a file over the limit without reading all of it.
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, make([]byte, 3*MaxBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil || err.Error() != "config "+path+": over 1048576 bytes: a configuration is a few kilobytes" {
		t.Errorf("Read: %v", err)
	}
}
