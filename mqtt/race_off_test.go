//go:build !race

package mqtt

// raceEnabled: built with -race, which multiplies memory use.
const raceEnabled = false
