// Package docs holds the project's documentation (the Markdown files beside
// this one) and no code. Its tests keep the documentation true: the wiring,
// LED and bus tables of hardware.md are generated from the code's presets
// (go test ./docs -run TestHardwareTables -update rewrites them) and must
// match them, and no file of the repository may point to documents outside
// it.
package docs
