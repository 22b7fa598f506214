// Package setting is what a package needs to own its section of the
// configuration file: each package's Opts carry their YAML names (yaml
// tags; what is not a setting is tagged "-"), DefaultOpts gives the
// defaults, and a Validate method reports every bad value as Problems,
// each with its key inside the section and what to write instead. Package
// config composes the sections (each a package's Opts, under its YAML
// name), adds the file's name, the line and the section to each problem,
// and hands the Opts on unchanged to the package.
package setting

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Problem is one bad value of a section.
type Problem struct {
	// Key is the setting's YAML key inside its section ("settle",
	// "displays.dimming"), or "" for the section as a whole.
	Key string
	// Msg says what is wrong with the value and what is accepted ("10s:
	// want 1ms to 5s").
	Msg string
}

// Problems are every bad value of a section; their Error is one
// "key: msg" a problem (msg alone for the section's key ""), joined by
// "; ".
type Problems []Problem

func (ps Problems) Error() string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Msg
		if p.Key != "" {
			parts[i] = p.Key + ": " + p.Msg
		}
	}
	return strings.Join(parts, "; ")
}

// Add adds a problem of key, its message formatted as fmt.Sprintf does.
func (ps *Problems) Add(key, format string, args ...any) {
	*ps = append(*ps, Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
}

// Between adds a problem of key when d is not within lo..hi.
func (ps *Problems) Between(key string, d, lo, hi time.Duration) {
	if d < lo || d > hi {
		ps.Add(key, "%v: want %v to %v", d, lo, hi)
	}
}

// Err is the problems as an error naming the section's package (pkg:
// "recognize: settle: 10s: want 1ms to 5s"), or nil when there are none.
// Of returns the problems from it.
func (ps Problems) Err(pkg string) error {
	if len(ps) == 0 {
		return nil
	}
	return &sectionError{pkg: pkg, ps: ps}
}

type sectionError struct {
	pkg string
	ps  Problems
}

func (e *sectionError) Error() string { return e.pkg + ": " + e.ps.Error() }
func (e *sectionError) Unwrap() error { return e.ps }

// Of returns the problems an error of Validate carries (nil for nil), or
// one problem of key "" for an error that is not Problems.
func Of(err error) Problems {
	if err == nil {
		return nil
	}
	var ps Problems
	if errors.As(err, &ps) {
		return ps
	}
	return Problems{{Msg: err.Error()}}
}
