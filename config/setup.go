package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"

	"github.com/tridboard/tridboard/internal/durable"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
)

// SetupName is the file in the state directory that keeps what the set's
// setup page chose (Setup). /etc is read-only to the daemon (systemd's
// ProtectSystem=strict); the state directory is its own.
const SetupName = "setup.yaml"

// Setup is what a set's owner chooses on its setup page, kept in
// <state_dir>/setup.yaml. Each value given replaces the configuration
// file's, and the command token the environment's too: the page is where
// the set was last set up. An empty value leaves the configuration's.
type Setup struct {
	// BoardID is the set's name (board_id): its MQTT topics, its page's
	// title and its name on the network.
	BoardID string `yaml:"board_id,omitempty" json:"board_id,omitempty"`
	// Variant and Options are the rule system of new games (variant,
	// options); Options is only read with Variant.
	Variant string `yaml:"variant,omitempty" json:"variant,omitempty"`
	Options string `yaml:"options,omitempty" json:"options,omitempty"`
	// CommandToken is mqtt.command_token.
	CommandToken string `yaml:"command_token,omitempty" json:"-"`
	// Wiring is sensors.wiring, as `wiring learn` found it (the preset is
	// then not used).
	Wiring *sensors.Wiring `yaml:"wiring,omitempty" json:"-"`
}

// ReadSetup reads <stateDir>/setup.yaml; none there is the empty Setup.
// An error names the file.
func ReadSetup(stateDir string) (Setup, error) {
	var s Setup
	path := filepath.Join(stateDir, SetupName)
	data, err := readLimited(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := checkShape(path, data); err != nil {
		return s, err
	}
	if err := yaml.UnmarshalWithOptions(data, &s, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		return s, fmt.Errorf("config %s: %s (written by the setup page: fix or remove it)", path, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	return s, nil
}

// Check tells what of s a configuration would refuse: a name with / + #
// or NUL, an unknown rule system or option, a token of spaces.
func (s Setup) Check() error {
	var errs []error
	if s.BoardID != "" && (strings.ContainsAny(s.BoardID, "/+#\x00") || strings.TrimSpace(s.BoardID) != s.BoardID || len(s.BoardID) > 63) {
		errs = append(errs, fmt.Errorf("board_id %q: want a name of at most 63 characters, without / + # NUL or spaces around it", s.BoardID))
	}
	if s.Variant != "" {
		if _, err := systems.Lookup(s.Variant, s.Options); err != nil {
			errs = append(errs, fmt.Errorf("variant: %v", err))
		}
	} else if s.Options != "" {
		errs = append(errs, fmt.Errorf("options %q without a variant", s.Options))
	}
	if s.CommandToken != "" && strings.TrimSpace(s.CommandToken) != s.CommandToken {
		errs = append(errs, fmt.Errorf("command_token: spaces around it"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("config: setup: %w", err)
	}
	return nil
}

// WriteSetup checks s and writes it as <stateDir>/setup.yaml, mode 0600
// (it may hold the command token), atomically: a reader sees the old file
// or the new one whole. A refused Setup writes nothing.
func WriteSetup(stateDir string, s Setup) error {
	if err := s.Check(); err != nil {
		return err
	}
	data, err := yaml.Marshal(s)
	if err != nil {
		return fmt.Errorf("config: setup: %w", err)
	}
	data = append([]byte("# Written by the set's setup page (/setup): its values replace the configuration's.\n"), data...)
	if err := durable.WriteAtomicMode(filepath.Join(stateDir, SetupName), data, 0o600); err != nil {
		return fmt.Errorf("config: setup: %w", err)
	}
	return nil
}

// setupMu serialises UpdateSetup's read-modify-writes in this process.
var setupMu sync.Mutex

// UpdateSetup reads <stateDir>/setup.yaml, lets change alter it and writes
// it back (WriteSetup), one update at a time in this process: two pages
// saving at once (the name, the wiring) both keep their values. An error
// from change, or a changed Setup that Check refuses, writes nothing.
func UpdateSetup(stateDir string, change func(*Setup) error) error {
	setupMu.Lock()
	defer setupMu.Unlock()
	s, err := ReadSetup(stateDir)
	if err != nil {
		return err
	}
	if err := change(&s); err != nil {
		return err
	}
	return WriteSetup(stateDir, s)
}

// ApplySetup reads <state_dir>/setup.yaml and puts its values over c's.
// Validate then reports a bad value under the setup file's name. A state
// directory the daemon could not use is left to Validate to report.
func (c *Config) ApplySetup() error {
	if checkStateDir(c.StateDir) != "" {
		return nil
	}
	s, err := ReadSetup(c.StateDir)
	if err != nil {
		return err
	}
	c.applySetup(s, filepath.Join(c.StateDir, SetupName))
	return nil
}

func (c *Config) applySetup(s Setup, path string) {
	set := func(key string) {
		if c.fromSetup == nil {
			c.fromSetup = map[string]string{}
		}
		c.fromSetup[key] = path
	}
	if s.BoardID != "" {
		c.BoardID = s.BoardID
		set("board_id")
	}
	if s.Variant != "" {
		c.Variant, c.Options = s.Variant, s.Options
		set("variant")
		set("options")
	}
	if s.CommandToken != "" {
		c.MQTT.CommandToken = s.CommandToken
		set("mqtt.command_token")
	}
	if s.Wiring != nil {
		c.Sensors.Wiring, c.Sensors.Preset = s.Wiring, ""
		set("sensors.wiring")
		set("sensors.preset")
	}
}
