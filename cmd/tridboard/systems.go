package main

import (
	"sort"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// systems are the rule systems by name (--variant). Each further system
// adds itself from its own file's init.
var systems = map[string]rules.System{
	"st3d": st3d.System,
}

// systemNames lists the systems' names for help texts.
func systemNames() string {
	names := make([]string, 0, len(systems))
	for n := range systems {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
