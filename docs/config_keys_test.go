package docs

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/sensors"
)

// configKeys lists every key path of the configuration file ("sensors.period",
// "leds.mapping.cells"), from the yaml tags of config.Config. A type met
// again on its own path (leds.mapping.drivers is a list of mappings) is not
// entered again.
func configKeys(t reflect.Type, prefix string, out map[string]bool, path ...reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for _, p := range path {
		if p == t {
			return
		}
	}
	path = append(path, t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" && f.IsExported() {
			// A package's Opts inlined in its section (sensors.Opts).
			configKeys(f.Type, prefix, out, path...)
			continue
		}
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		key := prefix + name
		out[key] = true
		configKeys(f.Type, key+".", out, path...)
	}
}

// TestDocsNameOnlyConfigKeysThatExist: every dotted configuration key the
// README and docs/*.md name in code (`sensors.period`, `i2c.speed_hz: 100000`)
// is a key of the configuration file.
func TestDocsNameOnlyConfigKeysThatExist(t *testing.T) {
	keys := map[string]bool{}
	configKeys(reflect.TypeOf(config.Config{}), "", keys)
	var top []string
	for k := range keys {
		if !strings.Contains(k, ".") {
			top = append(top, k)
		}
	}
	re := regexp.MustCompile("`((?:" + strings.Join(top, "|") + `)(?:\.[a-z0-9_]+)+)\b`)
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range append(files, "../README.md") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				if strings.HasSuffix(m[1], ".md") || strings.HasSuffix(m[1], ".pgn") { // leds.md, game.pgn: files
					continue
				}
				found++
				if !keys[m[1]] {
					t.Errorf("%s:%d: `%s` is not a key of the configuration file", f, i+1, m[1])
				}
			}
		}
	}
	if found < 5 {
		t.Errorf("found only %d configuration keys in the docs: is the pattern still right?", found)
	}
}

// TestDocsConfigExamplesParse: every YAML example of docs/*.md is read as
// the program reads it: a configuration file (strict: unknown keys are
// refused), or a wiring table when it starts with expanders. Lines that
// are only "..." (an elided list) are left out.
func TestDocsConfigExamplesParse(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var block []string
		in, start := false, 0
		for i, line := range strings.Split(string(data), "\n") {
			switch {
			case !in && strings.TrimSpace(line) == "```yaml":
				in, start, block = true, i+1, nil
			case in && strings.TrimSpace(line) == "```":
				in = false
				found++
				text := []byte(strings.Join(block, "\n"))
				name := f + ":" + strconv.Itoa(start)
				if strings.HasPrefix(strings.TrimSpace(string(text)), "expanders:") {
					if _, err := sensors.ParseWiring(text, name); err != nil {
						t.Errorf("%s: the wiring example does not parse: %v", name, err)
					}
				} else if _, err := config.Decode(name, text); err != nil {
					// The form only: an example may name files and
					// variables this machine does not have.
					t.Errorf("%s: the configuration example does not parse: %v", name, err)
				}
			case in && strings.TrimSpace(line) != "...":
				block = append(block, line)
			}
		}
	}
	if found < 2 {
		t.Errorf("found only %d YAML examples in the docs", found)
	}
}
