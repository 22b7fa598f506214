package sensors

import (
	"fmt"
	"os"

	"github.com/goccy/go-yaml"
)

// LoadWiring reads a wiring from a YAML file (the layout of Wiring's yaml
// tags). Decoding is strict: an unknown key is an error that gives its
// line. The wiring is not validated; call Validate with the system's cells.
func LoadWiring(path string) (*Wiring, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sensors: wiring: %w", err)
	}
	return ParseWiring(data, path)
}

// ParseWiring decodes a wiring from YAML, strictly; name is used in errors.
func ParseWiring(data []byte, name string) (*Wiring, error) {
	var w Wiring
	if err := yaml.UnmarshalWithOptions(data, &w, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		return nil, fmt.Errorf("sensors: wiring %s: %s", name, yaml.FormatError(err, false, false))
	}
	return &w, nil
}
