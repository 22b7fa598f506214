package main

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// systemNames lists the systems' names for help texts.
func systemNames() string { return strings.Join(systems.Names(), ", ") }

// systemFor finds the rule system of --variant with --options; only st3d
// has options.
func systemFor(variant, options string) (rules.System, error) {
	sys, err := systems.Lookup(variant, options)
	if err != nil && options != "" {
		return nil, fmt.Errorf("--options: %w", err)
	}
	return sys, err
}
