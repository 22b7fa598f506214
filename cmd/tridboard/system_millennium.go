package main

import "github.com/tridboard/tridboard/rules/millennium"

// Millennium 3D chess (--variant millennium).
func init() { systems["millennium"] = millennium.System }
