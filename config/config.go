// Package config reads tridboard's one configuration file (YAML).
//
// Decoding is strict: an unknown key, a value of the wrong type or a YAML
// anchor or alias is refused with the file, line and key. Validate checks
// everything the daemon needs and reports every problem at once, each with
// its key and line, so that `config check` and `run` refuse the same files
// with the same messages. Every field has a default that describes the
// reference board (docs/hardware.md), so a board wired as the reference needs almost no
// configuration. Secrets can come from the environment
// (TRIDBOARD_MQTT_PASSWORD, TRIDBOARD_MQTT_COMMAND_TOKEN) and from files.
//
// A section a package owns is that package's Opts, with their yaml names,
// defaults (DefaultOpts) and checks (Validate, reporting
// internal/setting.Problems): Config composes them (Recognition, LEDs,
// Sensors.Opts, HTTP.HubOpts, and the table's: Buttons, Clock.ClockOpts,
// Lesson, Game) and the daemon hands them on as they are. The i2c section
// has no owner: the bus is the command's to open (periph's host drivers)
// and is shared by the sensors, the LEDs' HT16K33s and the clock's
// displays, so config declares it (I2C) and the command reads it.
// Their time.Duration settings are read as "5ms" or "1.5s"; a value that
// is not a duration is reported by Validate with its key and line; so is a
// clock.Control setting (a time control, "180+2") that is not one.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/clock/segment"
	"github.com/tridboard/tridboard/internal/setting"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/web"
)

// Config is the whole configuration.
type Config struct {
	// BoardID names the set in MQTT topics; default: the host name.
	BoardID string `yaml:"board_id"`
	// StateDir holds the game journals and the MQTT outbox.
	StateDir string `yaml:"state_dir"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `yaml:"log_level"`
	// Variant is the rule system of a new game (st3d, millennium,
	// first-contact, first-contact-up) and Options st3d's variant options
	// ("V.A1,V.A2"); a game resumed from the journal keeps its own.
	Variant string `yaml:"variant"`
	Options string `yaml:"options"`

	I2C         I2C            `yaml:"i2c"`
	Sensors     Sensors        `yaml:"sensors"`
	Recognition recognize.Opts `yaml:"recognition"`
	LEDs        leds.Opts      `yaml:"leds"`
	MQTT        MQTT           `yaml:"mqtt"`
	// Buttons is the set's push buttons (the table's button panel).
	Buttons table.ButtonOpts `yaml:"buttons"`
	Clock   ClockSettings    `yaml:"clock"`
	HTTP    HTTP             `yaml:"http"`
	Lesson  table.HintOpts   `yaml:"lesson"`
	Game    table.GameOpts   `yaml:"game"`

	name string    // the file's name, for messages
	src  *ast.File // the parsed file, for lines; nil for the defaults
	// badDurations are the time.Duration settings of the file that are
	// not durations, and the time controls that are not time controls
	// (they keep their defaults): Validate reports them.
	badDurations []keyError
	// fromSetup are the keys <state_dir>/setup.yaml gave (ApplySetup),
	// with that file's path, for Validate's messages.
	fromSetup map[string]string
}

// I2C is the bus the expanders and the HT16K33 hang on.
type I2C struct {
	// Bus is the periph bus name ("" = the first, /dev/i2c-1 on a Pi).
	Bus string `yaml:"bus"`
	// SpeedHz is the bus clock the scan budget is planned for.
	SpeedHz int `yaml:"speed_hz"`
}

// Sensors configures scanning: the scanner's settings (sensors.Opts:
// period, debounce) and the wiring.
type Sensors struct {
	sensors.Opts `yaml:",inline"`
	// Preset names a wiring of hardware.md (sets.PresetNames:
	// reference, matrix, millennium-matrix, millennium-direct, firstcontact,
	// firstcontact-up, firstcontact-matrix); "" with a table in Wiring
	// (see docs/sensors.md).
	Preset string          `yaml:"preset"`
	Wiring *sensors.Wiring `yaml:"wiring"`
}

// MQTT configures publishing: the client's settings (mqtt.Opts: broker,
// an external broker's URL, empty runs the embedded broker; username and
// password, TRIDBOARD_MQTT_PASSWORD overriding it; ca_file, cert_file,
// key_file; prefix; discovery, the Home Assistant discovery prefix, ""
// none; command_token, which must accompany every command when set,
// TRIDBOARD_MQTT_COMMAND_TOKEN overriding it) and the embedded broker's.
type MQTT struct {
	mqtt.Opts `yaml:",inline"`
	// Settings are the embedded broker's (broker.Settings: listen, its
	// TCP address; websocket, its websocket address, "" none; tls, its
	// listeners' certificate; accounts, logins besides username, the
	// daemon's own, each with a role; limits, what clients can make it
	// hold). They are for the embedded broker only.
	broker.Settings `yaml:",inline"`
	// RemoteSettings are remote play's (opponent.RemoteSettings:
	// remote_grace, how long the other set of a remote game may be
	// offline, with its side to move, before its clock is paused).
	opponent.RemoteSettings `yaml:",inline"`
}

// ClockSettings are the configuration file's clock section: the chess
// clock of new games (table.ClockOpts: time_control, the default time
// control of new games as PGN's TimeControl tag writes it, "" no clock, a
// new_game command may give its own; low, the low-time warning, 0 never;
// penalty, given to the opponent of a player whose move on the set no
// legal move explains, 0 none) and its displays (docs/mqtt.md, "Clock").
type ClockSettings struct {
	table.ClockOpts `yaml:",inline"`
	// Displays are the two HT16K33 7-segment backpacks showing each side's
	// time (white and black, their addresses: default 0x74 and 0x75;
	// dimming, the brightness 0..15: default 15); nil: none.
	Displays *segment.Opts `yaml:"displays"`
}

// displayDefaults fills what the file does not give of the clock's
// displays (segment.Opts): an address absent or 0 is the default, so is a
// dimming absent (0 is the dimmest), and the resetup period.
func (c *Config) displayDefaults(file *ast.File) {
	d := c.Clock.Displays
	if d == nil {
		return
	}
	def := segment.DefaultOpts()
	if d.White == 0 {
		d.White = def.White
	}
	if d.Black == 0 {
		d.Black = def.Black
	}
	if !hasKey(file, "clock.displays.dimming") {
		d.Dimming = def.Dimming
	}
	d.Resetup = def.Resetup
}

// TimeControl is the default time control of new games.
func (c *Config) TimeControl() clock.Control { return c.Clock.Default }

// Default returns the configuration of the reference board.
func Default() *Config {
	return &Config{
		BoardID:     defaultBoardID(),
		StateDir:    DefaultStateDir(),
		LogLevel:    "info",
		Variant:     "st3d",
		I2C:         I2C{SpeedHz: 400000},
		Sensors:     Sensors{Opts: sensors.DefaultOpts(), Preset: "reference"},
		Recognition: recognize.DefaultOpts(),
		LEDs:        leds.DefaultOpts(),
		MQTT:        defaultMQTT(),
		Clock:       ClockSettings{ClockOpts: table.DefaultClockOpts()},
		HTTP:        defaultHTTP(),
		Lesson:      table.DefaultHintOpts(),
		Game:        table.DefaultGameOpts(),
	}
}

// defaultMQTT: the embedded broker on this machine, the client's defaults
// (mqtt.DefaultOpts) with no external broker.
func defaultMQTT() MQTT {
	m := MQTT{Opts: mqtt.DefaultOpts(), Settings: broker.DefaultSettings(), RemoteSettings: opponent.DefaultRemoteSettings()}
	m.Broker = ""
	return m
}

// HTTP configures the web displays the daemon serves (docs/web.md).
type HTTP struct {
	// Listen is the address of the pages and feeds: 127.0.0.1:8080 shows
	// them on this machine, 0.0.0.0:8080 to the hall; "off" serves none.
	Listen string `yaml:"listen"`
	// HubOpts are the pages' settings (web.HubOpts): delay, the broadcast
	// delay (moves reach the pages and the feeds that much later; 0: at
	// once), and eval, the engine's evaluation of each position shown to
	// the spectators (a bar, the best line, a graph), never ahead of the
	// delay.
	web.HubOpts `yaml:",inline"`
	// Announce makes the pages findable on the network by mDNS/DNS-SD
	// (_tridboard._tcp and HOST.local, package announce) where they are
	// served; false announces nothing.
	Announce bool `yaml:"announce"`
}

// defaultHTTP: the pages on this machine, with the evaluation, announced.
func defaultHTTP() HTTP {
	h := HTTP{Listen: "127.0.0.1:8080", HubOpts: web.DefaultOpts(), Announce: true}
	h.Eval = true
	return h
}

func defaultBoardID() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "tridboard"
	}
	if i := strings.IndexByte(h, '.'); i > 0 {
		h = h[:i]
	}
	return h
}

// DefaultStateDir is $STATE_DIRECTORY (set by systemd's StateDirectory=),
// /var/lib/tridboard for an installed binary (under /usr), and otherwise
// tridboard/ in the user's state directory.
func DefaultStateDir() string {
	if d := os.Getenv("STATE_DIRECTORY"); d != "" {
		return strings.Split(d, ":")[0]
	}
	if exe, err := os.Executable(); err == nil && strings.HasPrefix(exe, "/usr/") {
		return "/var/lib/tridboard"
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "tridboard")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "state", "tridboard")
	}
	return "tridboard-state"
}

// Read reads a configuration file over the defaults and applies the
// secrets from the environment, then what the setup page chose
// (<state_dir>/setup.yaml, ApplySetup). It refuses only what cannot be decoded
// (syntax, unknown keys, wrong types, anchors and aliases); Validate checks
// the values. An empty path gives the defaults.
func Read(path string) (*Config, error) {
	c := Default()
	if path != "" {
		data, err := readLimited(path)
		if err != nil {
			return nil, err
		}
		if err := c.decode(path, data); err != nil {
			return nil, err
		}
	}
	c.fromEnv()
	if err := c.ApplySetup(); err != nil {
		return nil, err
	}
	return c, nil
}

// Load is Read, then the checks of Validate that need no rule system (all
// but the wiring and the LED mapping).
func Load(path string) (*Config, error) {
	c, err := Read(path)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(nil); err != nil {
		return nil, err
	}
	return c, nil
}

// Decode reads configuration text over the defaults, strictly (unknown
// keys, wrong types, anchors and aliases refused) but without checking the
// values: the form of a file, as in the docs' examples. name is used in
// errors.
func Decode(name string, data []byte) (*Config, error) {
	c := Default()
	if err := c.decode(name, data); err != nil {
		return nil, err
	}
	return c, nil
}

// Parse reads configuration text over the defaults, without the
// environment, and checks it as Load does; name is used in errors.
func Parse(name string, data []byte) (*Config, error) {
	c := Default()
	if err := c.decode(name, data); err != nil {
		return nil, err
	}
	if err := c.Validate(nil); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) fromEnv() {
	if v := os.Getenv("TRIDBOARD_MQTT_PASSWORD"); v != "" {
		c.MQTT.Password = v
	}
	if v := os.Getenv("TRIDBOARD_MQTT_COMMAND_TOKEN"); v != "" {
		c.MQTT.CommandToken = v
	}
}

// decode reads YAML over c. Text over MaxBytes or nested over MaxDepth,
// and anchors and aliases, are refused before decoding: a few hundred bytes
// of nested aliases expand to gigabytes, and so do a few kilobytes of deep
// nesting.
func (c *Config) decode(name string, data []byte) error {
	if err := checkShape(name, data); err != nil {
		return err
	}
	for _, tk := range lexer.Tokenize(string(data)) {
		if tk.Type == token.AnchorType || tk.Type == token.AliasType {
			return fmt.Errorf("config %s:%d: YAML anchors and aliases (& and *) are not accepted: write each value out", name, tk.Position.Line)
		}
	}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return yamlProblem(name, nil, err)
	}
	ps, badDurations := unknownKeys(name, file)
	if len(ps) > 0 {
		return ps
	}
	if empty(file) {
		// Nothing but comments: every key keeps its default (decoding a
		// null document would zero them all).
		c.name, c.src = name, file
		return nil
	}
	if err := yaml.UnmarshalWithOptions(data, c, yaml.Strict(), yaml.DisallowUnknownField(),
		yaml.CustomUnmarshaler(decodeDuration), yaml.CustomUnmarshaler(decodeControl)); err != nil {
		return yamlProblem(name, file, err)
	}
	c.name, c.src, c.badDurations = name, file, badDurations
	c.displayDefaults(file)
	return nil
}

// Problem is one thing wrong with a configuration.
type Problem struct {
	File string
	Line int    // 0 when unknown (a default value, or a key not in the file)
	Key  string // the key path, "sensors.period", "mqtt.accounts[0].role"
	Msg  string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString("config")
	if p.File != "" {
		b.WriteString(" " + p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
	}
	fmt.Fprintf(&b, ": %s: %s", p.Key, p.Msg)
	return b.String()
}

// Problems is every problem Validate found; its Error is one line each.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Validate checks everything the daemon needs of the configuration: value
// ranges and names, combinations, the MQTT addresses and URL, the embedded
// broker's accounts, certificate and limits and, when cells (the rule
// system's sensing cells) are given, the wiring and the LED mapping. It
// returns every problem found, as Problems, or nil.
func (c *Config) Validate(cells []string) error {
	errs := c.check()
	if cells != nil {
		if _, e := c.wiring(cells); e != nil {
			errs = append(errs, *e)
		}
		_, _, err := c.LEDs.Layout(cells)
		errs = c.section(errs, "leds", err)
	}
	if len(errs) == 0 {
		return nil
	}
	ps := make(Problems, len(errs))
	for i, e := range errs {
		if f, ok := c.fromSetup[e.key]; ok {
			ps[i] = Problem{File: f, Key: e.key, Msg: e.msg}
			continue
		}
		ps[i] = Problem{File: c.name, Line: lineOf(c.src, e.key), Key: e.key, Msg: e.msg}
	}
	return ps
}

// keyError is a bad value of one key ("sensors.period").
type keyError struct{ key, msg string }

// check validates values that decoding cannot (ranges, names, combinations).
func (c *Config) check() []keyError {
	var errs []keyError
	bad := func(key, format string, args ...any) {
		errs = append(errs, keyError{key, fmt.Sprintf(format, args...)})
	}
	if c.BoardID == "" || strings.ContainsAny(c.BoardID, "/+#\x00") {
		bad("board_id", "%q: want a non-empty name without / + # or NUL", c.BoardID)
	}
	if _, err := ParseLevel(c.LogLevel); err != nil {
		bad("log_level", "%v", err)
	}
	if _, err := systems.Lookup(c.Variant, c.Options); err != nil {
		key := "variant"
		if c.Options != "" && strings.Contains(err.Error(), "option") {
			key = "options"
		}
		bad(key, "%v", err)
	}
	if c.I2C.SpeedHz < 10000 || c.I2C.SpeedHz > 3400000 {
		bad("i2c.speed_hz", "%d: want 10000 to 3400000", c.I2C.SpeedHz)
	}
	errs = append(errs, c.badDurations...)
	errs = c.section(errs, "sensors", c.Sensors.Validate())
	errs = c.section(errs, "recognition", c.Recognition.Validate())
	errs = c.section(errs, "game", c.Game.Validate())
	errs = c.section(errs, "http", c.HTTP.Validate())
	if l := c.HTTP.Listen; l != "off" {
		if _, _, err := net.SplitHostPort(l); err != nil {
			bad("http.listen", "%q: want host:port, or off", l)
		} else if msg := checkListen(l); msg != "" {
			bad("http.listen", "%q: %s", l, msg)
		}
	}
	if msg := checkStateDir(c.StateDir); msg != "" {
		bad("state_dir", "%q: %s", c.StateDir, msg)
	}
	presets := strings.Join(sets.PresetNames(), ", ")
	if _, err := sets.Preset(c.Sensors.Preset); err == nil {
		if c.Sensors.Wiring != nil {
			bad("sensors.preset", "%q and a wiring table: give one", c.Sensors.Preset)
		}
	} else if c.Sensors.Preset == "" {
		if c.Sensors.Wiring == nil {
			bad("sensors.wiring", "missing: give a table or a preset (%s)", presets)
		}
	} else {
		bad("sensors.preset", "%q: want one of %s", c.Sensors.Preset, presets)
	}
	errs = c.section(errs, "leds", c.LEDs.Validate())
	errs = c.section(errs, "mqtt", c.MQTT.Opts.Validate())
	errs = c.section(errs, "mqtt", c.MQTT.RemoteSettings.Validate())
	errs = append(errs, c.checkMQTT()...)
	errs = c.section(errs, "buttons", c.Buttons.Validate())
	errs = c.section(errs, "clock", c.Clock.Validate())
	if d := c.Clock.Displays; d != nil {
		errs = c.section(errs, "clock.displays", d.Validate())
	}
	errs = c.section(errs, "lesson", c.Lesson.Validate())
	return errs
}

// section adds to errs the problems of a package's section (the error of
// its Opts' Validate, setting.Problems), under the section's key, but
// those of the values that are not durations (reported already).
func (c *Config) section(errs []keyError, key string, err error) []keyError {
	for _, p := range setting.Of(err) {
		k := key
		if p.Key != "" {
			k += "." + p.Key
		}
		if !slices.ContainsFunc(c.badDurations, func(e keyError) bool { return e.key == k }) {
			errs = append(errs, keyError{k, p.Msg})
		}
	}
	return errs
}

// Wiring is the sensor wiring the configuration describes, validated
// against the system's cells (sensors.Wiring.ForCells).
func (c *Config) Wiring(cells []string) (*sensors.Wiring, error) {
	w, e := c.wiring(cells)
	if e != nil {
		return nil, fmt.Errorf("config: %s: %s", e.key, e.msg)
	}
	return w, nil
}

func (c *Config) wiring(cells []string) (*sensors.Wiring, *keyError) {
	var w *sensors.Wiring
	var short []string // the presets take names without the prefix
	for _, b := range c.Buttons.Cells() {
		short = append(short, strings.TrimPrefix(b, sensors.ButtonPrefix))
	}
	preset := c.Sensors.Preset
	if c.Sensors.Wiring == nil && preset == Default().Sensors.Preset && !hasKey(c.src, "sensors.preset") {
		// No wiring named: the set the variant is played on.
		if p := sets.DefaultPreset(c.Variant); p != "" {
			preset = p
		}
	}
	if c.Sensors.Wiring != nil {
		w = c.Sensors.Wiring
	} else {
		var err error
		if w, err = sets.Preset(preset, short...); err != nil {
			return nil, &keyError{"sensors.preset", err.Error()}
		}
	}
	// ForCells also reads a reference ST3D wiring as first-contact-up's
	// cells (F6: the same switches, named after the platform positions).
	w, err := w.ForCells(cells)
	if errors.Is(err, sensors.ErrOtherSet) {
		key, which := "sensors.wiring", "the wiring table"
		if c.Sensors.Wiring == nil {
			key, which = "sensors.preset", fmt.Sprintf("preset %q", preset)
		}
		variant := or(c.Variant, "st3d")
		msg := fmt.Sprintf("%s wires another set's cells, not the %s set's", which, variant)
		if p := sets.DefaultPreset(variant); p != "" {
			msg += fmt.Sprintf(": use a %s wiring, sensors.preset: %s (presets: %s)", variant, p, strings.Join(sets.PresetNames(), ", "))
		}
		return nil, &keyError{key, msg}
	}
	if err != nil {
		return nil, &keyError{"sensors.wiring", err.Error()}
	}
	wired := map[string]bool{}
	for _, b := range w.Buttons() {
		wired[b] = true
	}
	for _, b := range c.Buttons.Cells() {
		if !wired[b] {
			return nil, &keyError{"buttons", fmt.Sprintf("%q is not wired (no cell of sensors.wiring has that name)", b)}
		}
	}
	return w, nil
}

// LEDMapping is the LED mapping for the cells of the game system: the
// configured one, or the preset (ht16k33 by default: the reference one on
// the ST3D set), or nil when the LEDs are off ("driver: none").
func (c *Config) LEDMapping(cells []string) (*leds.Mapping, *leds.Layout, error) {
	m, l, err := c.LEDs.Layout(cells)
	if ps := setting.Of(err); len(ps) > 0 {
		return nil, nil, fmt.Errorf("config: leds.%s: %s", ps[0].Key, ps[0].Msg)
	}
	return m, l, nil
}

// ParseLevel reads a log level name.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("log level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

// lineOf finds the line of a key path ("mqtt.accounts[1].role") in a YAML
// file, or of the nearest enclosing key the file has, or 0.
// empty reports whether a YAML file holds no value at all (nothing, or
// only comments).
func empty(file *ast.File) bool {
	for _, doc := range file.Docs {
		if doc.Body == nil {
			continue
		}
		if _, isComment := doc.Body.(*ast.CommentGroupNode); isComment {
			continue
		}
		if doc.Body.Type() == ast.NullType {
			continue
		}
		return false
	}
	return true
}

// hasKey reports whether the file gives key ("sensors.preset") itself.
func hasKey(file *ast.File, key string) bool {
	if file == nil {
		return false
	}
	p, err := yaml.PathString("$." + key)
	if err != nil {
		return false
	}
	for _, doc := range file.Docs {
		if n, err := p.FilterNode(doc.Body); err == nil && n != nil {
			return true
		}
	}
	return false
}

func lineOf(file *ast.File, key string) int {
	if file == nil {
		return 0
	}
	for key != "" {
		if p, err := yaml.PathString("$." + key); err == nil {
			for _, doc := range file.Docs {
				if n, err := p.FilterNode(doc.Body); err == nil && n != nil {
					return n.GetToken().Position.Line
				}
			}
		}
		i := strings.LastIndexAny(key, ".[")
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return 0
}

// or is v, or empty when v is "".
func or(v, empty string) string {
	if v == "" {
		return empty
	}
	return v
}
