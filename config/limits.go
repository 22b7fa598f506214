package config

import (
	"fmt"
	"io"
	"os"
)

// The limits of a configuration file, checked before any YAML parsing: a
// few kilobytes of deep nesting cost the parser gigabytes (40 KB of nested
// flow sequences took 661 MB). A real configuration is a few kilobytes
// (the largest, a full wiring and LED table, under 64 KiB) and nests about
// 5 levels.
const (
	// MaxBytes is the largest configuration file accepted.
	MaxBytes = 1 << 20
	// MaxDepth is the deepest nesting accepted: block levels (indentation,
	// "- " entries) and flow levels ([ and {) together.
	MaxDepth = 32
)

// readLimited reads a configuration file of at most MaxBytes.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("config %s: over %d bytes: a configuration is a few kilobytes", path, MaxBytes)
	}
	return data, nil
}

// checkShape refuses, before parsing, text over MaxBytes or nested deeper
// than MaxDepth. It reads YAML as lines: the indentation and the "- "
// entries that open block levels, and the brackets and braces outside
// quotes and comments that open flow levels. It may count deeper than the
// parser would (a bracket inside a plain scalar), never shallower.
func checkShape(name string, data []byte) error {
	if len(data) > MaxBytes {
		return fmt.Errorf("config %s: %d bytes, over %d: a configuration is a few kilobytes", name, len(data), MaxBytes)
	}
	var indents []int // the open block levels' indentation
	flow := 0         // open [ and {
	var quote byte    // the open quote, or 0
	line := 1
	for i := 0; i < len(data); {
		// The start of a line: its indentation and "- " entries.
		if quote == 0 && flow == 0 {
			n := 0
			for i+n < len(data) && data[i+n] == ' ' {
				n++
			}
			j := i + n
			if j < len(data) && data[j] != '\n' && data[j] != '\r' && data[j] != '#' {
				for len(indents) > 0 && indents[len(indents)-1] >= n {
					indents = indents[:len(indents)-1]
				}
				indents = append(indents, n)
				for j+1 < len(data) && data[j] == '-' && (data[j+1] == ' ' || data[j+1] == '\n') {
					// "- - x": each entry opens a level, indented past the dash.
					j++
					for j < len(data) && data[j] == ' ' {
						j++
					}
					indents = append(indents, j-i)
				}
				if len(indents) > MaxDepth {
					return depthError(name, line)
				}
			}
		}
		// The rest of the line.
		for ; i < len(data) && data[i] != '\n'; i++ {
			c := data[i]
			switch {
			case quote != 0:
				if c == '\\' && quote == '"' {
					i++
				} else if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t'):
				for i < len(data) && data[i] != '\n' {
					i++
				}
				i--
			case c == '[' || c == '{':
				flow++
				if len(indents)+flow > MaxDepth {
					return depthError(name, line)
				}
			case (c == ']' || c == '}') && flow > 0:
				flow--
			}
		}
		i++
		line++
	}
	return nil
}

func depthError(name string, line int) error {
	return fmt.Errorf("config %s:%d: nested over %d levels deep: a configuration nests a few levels", name, line, MaxDepth)
}
