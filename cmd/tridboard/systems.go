package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// systemNames lists the systems' names for help texts.
func systemNames() string { return strings.Join(systems.Names(), ", ") }

// usageError is a bad flag or argument: the command exits with exitUsage.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// exitCode is exitUsage for a usageError, else exitFailure.
func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFailure
}

// systemFor finds the rule system of --variant with --options; only st3d
// has options. Its errors are usage errors.
func systemFor(variant, options string) (rules.System, error) {
	sys, err := systems.Lookup(variant, options)
	if err != nil && options != "" {
		return nil, usageError{fmt.Errorf("--options: %w", err)}
	}
	if err != nil {
		return nil, usageError{err}
	}
	return sys, nil
}

// drawsSetup reports whether variant's options draw a setup at random
// (systems.DrawsSetup: st3d's V.P5:random, or V.P5 without a number).
func drawsSetup(variant, options string) bool { return systems.DrawsSetup(variant, options) }
