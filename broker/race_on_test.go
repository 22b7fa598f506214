//go:build race

package broker

// raceEnabled: built with -race, which multiplies memory use.
const raceEnabled = true
