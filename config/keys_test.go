package config

import (
	"strings"
	"testing"
)

// Every problem of a file in one report, each as file:line: key: problem,
// unknown keys with the setting meant.
func TestConfigProblemsInOneFormat(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"unknown keys, all of them", "sensor:\n  period: 5ms\nmqtt:\n  brokr: tcp://x:1883\n  prefix: a\nhtp:\n  listen: off\n", []string{
			`config k.yaml:1: sensor: no such setting; did you mean "sensors"?`,
			`config k.yaml:4: mqtt.brokr: no such setting; did you mean "mqtt.broker"?`,
			`config k.yaml:6: htp: no such setting; did you mean "http"?`}},
		{"an unknown key in a list", "mqtt:\n  accounts:\n    - username: hall\n      rol: display\n", []string{
			`config k.yaml:4: mqtt.accounts[0].rol: no such setting; did you mean "mqtt.accounts[0].role"?`}},
		{"nothing near", "zzzzzzzz: 1\n", []string{`config k.yaml:1: zzzzzzzz: no such setting`}},
		{"a value of the wrong kind", "sensors:\n  debounce: [1]\n", []string{
			`config k.yaml:2: sensors.debounce: "[1]" is not a duration (such as 5ms or 1.5s)`}},
		{"a key twice", "mqtt:\n  prefix: a\n  prefix: b\n", []string{
			`config k.yaml:3: syntax: mapping key "prefix" already defined at line 2`}},
		{"broken syntax", "mqtt: [\n", []string{`config k.yaml:1: syntax: sequence end token ']' not found`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("k.yaml", []byte(tc.yaml))
			if err == nil {
				t.Fatal("accepted")
			}
			if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", err, strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"brokr", "broker", 1}, {"sensor", "sensors", 1}, {"htp", "http", 1}, {"abc", "xyz", 3}, {"flaw", "lawn", 2}} {
		if got := distance(tc.a, tc.b); got != tc.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
