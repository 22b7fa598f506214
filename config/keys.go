package config

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/tridboard/tridboard/clock"
)

// unknownKeys walks a configuration file beside the Config type and reports
// every key no setting has, each with its line and the nearest key that
// exists: all of them at once, not the first. It also returns the values
// of the time.Duration settings that are not durations, and of the
// clock.Control ones that are not time controls, for Validate.
func unknownKeys(name string, file *ast.File) (Problems, []keyError) {
	var ps Problems
	var bad []keyError
	for _, doc := range file.Docs {
		if doc.Body != nil {
			walkKeys(name, doc.Body, reflect.TypeOf(Config{}), "", &ps, &bad)
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps, bad
}

var durationType = reflect.TypeOf(time.Duration(0))

// parseDuration reads a duration setting's YAML text ("5ms", "1.5s").
func parseDuration(b []byte) (time.Duration, string, error) {
	s := strings.Trim(strings.TrimSpace(string(b)), `"'`)
	d, err := time.ParseDuration(s)
	return d, s, err
}

// decodeDuration decodes a time.Duration setting; a value that is not a
// duration leaves the default, and walkKeys reports it with its key.
func decodeDuration(d *time.Duration, b []byte) error {
	if v, _, err := parseDuration(b); err == nil {
		*d = v
	}
	return nil
}

var controlType = reflect.TypeOf(clock.Control{})

// decodeControl decodes a time control setting ("180+2"); a value that is
// not a time control leaves the default, and walkKeys reports it with its
// key.
func decodeControl(c *clock.Control, b []byte) error {
	if v, err := clock.Parse(strings.Trim(strings.TrimSpace(string(b)), `"'`)); err == nil {
		*c = v
	}
	return nil
}

var unmarshalerType = reflect.TypeOf((*interface{ UnmarshalYAML([]byte) error })(nil)).Elem()

// yamlFields maps a struct's YAML keys to their fields' types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if tag == "-" {
			continue
		}
		if opts == "inline" {
			// A package's section (its Opts) embedded in config's.
			maps.Copy(out, yamlFields(f.Type))
			continue
		}
		if tag == "" {
			tag = strings.ToLower(f.Name)
		}
		out[tag] = f.Type
	}
	return out
}

func walkKeys(name string, n ast.Node, t reflect.Type, path string, ps *Problems, bad *[]keyError) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == durationType {
		if _, s, err := parseDuration([]byte(n.String())); err != nil {
			*bad = append(*bad, keyError{path, fmt.Sprintf("%q is not a duration (such as 5ms or 1.5s)", s)})
		}
		return
	}
	if t == controlType {
		s := strings.Trim(strings.TrimSpace(n.String()), `"'`)
		if _, err := clock.Parse(s); err != nil {
			*bad = append(*bad, keyError{path, strings.TrimPrefix(err.Error(), "clock: ")})
		}
		return
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return // a value with its own syntax (a duration)
	}
	var entries []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		entries = m.Values
	case *ast.MappingValueNode:
		entries = []*ast.MappingValueNode{m}
	case *ast.SequenceNode:
		if t.Kind() == reflect.Slice {
			for i, v := range m.Values {
				walkKeys(name, v, t.Elem(), fmt.Sprintf("%s[%d]", path, i), ps, bad)
			}
		}
		return
	default:
		return
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := yamlFields(t)
		for _, e := range entries {
			k := e.Key.GetToken().Value
			ft, ok := fields[k]
			if !ok {
				msg := "no such setting"
				if s := nearest(k, fields); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", join(s))
				}
				*ps = append(*ps, Problem{File: name, Line: e.Key.GetToken().Position.Line, Key: join(k), Msg: msg})
				continue
			}
			walkKeys(name, e.Value, ft, join(k), ps, bad)
		}
	case reflect.Map:
		for _, e := range entries {
			walkKeys(name, e.Value, t.Elem(), join(e.Key.GetToken().Value), ps, bad)
		}
	}
}

// nearest returns the key of fields closest to k (a typo: at most a third
// of its letters off), or "".
func nearest(k string, fields map[string]reflect.Type) string {
	best, bestD := "", len(k)/3+1
	keys := make([]string, 0, len(fields))
	for f := range fields {
		keys = append(keys, f)
	}
	sort.Strings(keys)
	for _, f := range keys {
		if d := distance(strings.ToLower(k), f); d < bestD || (d == bestD && best == "" && d <= 2) {
			best, bestD = f, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// yamlProblem turns the YAML library's error into the one location format,
// file:line: key: problem.
func yamlProblem(name string, file *ast.File, err error) error {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if !errors.As(err, &ye) || ye.GetToken() == nil {
		return fmt.Errorf("config %s: %v", name, err)
	}
	tk := ye.GetToken()
	key := keyAt(file, tk.Position.Line)
	if key == "" {
		key = "syntax"
	}
	msg := bracketPos.ReplaceAllString(ye.GetMessage(), "line $1")
	return Problems{{File: name, Line: tk.Position.Line, Key: key, Msg: msg}}
}

// bracketPos is the library's [line:column].
var bracketPos = regexp.MustCompile(`\[(\d+):\d+\]`)

// keyAt is the path of the key on line, or "".
func keyAt(file *ast.File, line int) string {
	if file == nil {
		return ""
	}
	found := ""
	var visit func(n ast.Node, path string)
	visit = func(n ast.Node, path string) {
		var entries []*ast.MappingValueNode
		switch m := n.(type) {
		case *ast.MappingNode:
			entries = m.Values
		case *ast.MappingValueNode:
			entries = []*ast.MappingValueNode{m}
		case *ast.SequenceNode:
			for i, v := range m.Values {
				visit(v, fmt.Sprintf("%s[%d]", path, i))
			}
			return
		default:
			return
		}
		for _, e := range entries {
			k := e.Key.GetToken().Value
			if path != "" {
				k = path + "." + k
			}
			if e.Key.GetToken().Position.Line == line && found == "" {
				found = k
			}
			visit(e.Value, k)
		}
	}
	for _, doc := range file.Docs {
		if doc.Body != nil {
			visit(doc.Body, "")
		}
	}
	return found
}
