package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"
)

// errNoI2C says, in a builder's words, that the machine has no I²C bus.
var errNoI2C = errors.New("no I²C bus on this machine: on a Raspberry Pi, turn I²C on " +
	"(sudo raspi-config nonint do_i2c 0, or the line dtparam=i2c_arm=on in /boot/firmware/config.txt) and reboot; " +
	"without hardware, add --sim")

// i2cDevices is where Linux shows I²C buses; a variable for the tests.
var i2cDevices = "/dev/i2c-*"

// openI2C opens the named I²C bus ("" the first) through periph, with
// errors that say what to do.
func openI2C(name string, warn func(msg string)) (i2c.BusCloser, error) {
	state, err := host.Init()
	if err != nil {
		return nil, fmt.Errorf("periph: %w", err)
	}
	for _, f := range state.Failed {
		warn(fmt.Sprintf("periph driver %s failed to load: %v", f.D, f.Err))
	}
	if devs, _ := filepath.Glob(i2cDevices); len(devs) == 0 {
		return nil, errNoI2C
	}
	b, err := i2creg.Open(name)
	if err != nil {
		if name == "" {
			return nil, fmt.Errorf("I²C: %v (%s)", err, errNoI2C)
		}
		return nil, fmt.Errorf("I²C bus %q: %v; the buses here are %s (i2c.bus in the configuration)", name, err, busNames())
	}
	return b, nil
}

// busNames lists the I²C buses periph knows.
func busNames() string {
	var out []string
	for _, r := range i2creg.All() {
		out = append(out, r.Name)
	}
	if len(out) == 0 {
		return "none"
	}
	return fmt.Sprint(out)
}
