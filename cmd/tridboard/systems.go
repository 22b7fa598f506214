package main

import (
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// systems are the rule systems by name (--variant). Each further system
// adds itself from its own file's init.
var systems = map[string]rules.System{
	"st3d": st3d.System,
}
