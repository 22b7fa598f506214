// Package record reads and writes game records: tag pairs such as
// [Event "..."] followed by the moves in a system's short notation, with
// move numbers, comments in braces and a result, in the manner of PGN.
package record

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Tag is one tag pair of a record.
type Tag struct {
	Name, Value string
}

// Record is a game record.
type Record struct {
	Tags  []Tag
	Moves []string // the move tokens, without numbers, comments or marks
	// Result is the result token ("1-0", "0-1", "1/2-1/2", "*"), if any.
	Result string
	// Comments, when not nil, holds a comment for each move (by index in
	// Moves, "" for none), which Write puts in braces after the move, such
	// as a clock's "[%clk 0:02:58]".
	Comments []string
}

// Tag returns the value of the named tag, or "".
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

var (
	tagLine    = regexp.MustCompile(`^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$`)
	moveNumber = regexp.MustCompile(`^\d+\.+`)
)

// Read parses a record. Move numbers, "+", "#", "(=)", "e.p.", "!" and "?"
// marks and {comments} are tolerated and dropped.
func Read(r io.Reader) (*Record, error) {
	rec := &Record{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var text strings.Builder
	line := 0
	for sc.Scan() {
		line++
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") && text.Len() == 0 {
			m := tagLine.FindStringSubmatch(l)
			if m == nil {
				return nil, fmt.Errorf("record: line %d: malformed tag %q", line, l)
			}
			v, err := strconv.Unquote(`"` + m[2] + `"`)
			if err != nil {
				v = m[2]
			}
			rec.Tags = append(rec.Tags, Tag{m[1], v})
			continue
		}
		if strings.HasPrefix(l, ";") || strings.HasPrefix(l, "%") {
			continue
		}
		text.WriteString(l)
		text.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	body, err := dropComments(text.String())
	if err != nil {
		return nil, err
	}
	for _, tok := range strings.Fields(body) {
		tok = moveNumber.ReplaceAllString(tok, "")
		switch tok {
		case "", "+", "#", "(=)", "=", "e.p.", "ep", "!", "?", "!!", "??", "!?", "?!":
			continue
		case "1-0", "0-1", "1/2-1/2", "½-½", "*":
			if rec.Result != "" {
				return nil, fmt.Errorf("record: two results (%s, %s)", rec.Result, tok)
			}
			rec.Result = tok
			continue
		}
		if rec.Result != "" {
			return nil, fmt.Errorf("record: move %q after the result %s", tok, rec.Result)
		}
		tok = strings.TrimSuffix(tok, "(=)")
		rec.Moves = append(rec.Moves, tok)
	}
	return rec, nil
}

func dropComments(s string) (string, error) {
	var b strings.Builder
	depth := 0
	for i, r := range s {
		switch {
		case r == '{':
			depth++
		case r == '}':
			if depth == 0 {
				return "", fmt.Errorf("record: '}' without '{' at offset %d", i)
			}
			depth--
			b.WriteByte(' ')
		case depth == 0:
			b.WriteRune(r)
		}
	}
	if depth != 0 {
		return "", fmt.Errorf("record: unclosed '{' comment")
	}
	return b.String(), nil
}

// Write writes a record: its tags, then the moves numbered in pairs from
// firstMove (White's moves first when whiteFirst), wrapped at 80 columns.
func Write(w io.Writer, rec *Record, firstMove int, whiteFirst bool) error {
	var b strings.Builder
	for _, t := range rec.Tags {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, strconv.Quote(t.Value))
	}
	if len(rec.Tags) > 0 {
		b.WriteByte('\n')
	}
	col := 0
	emit := func(s string) {
		if col > 0 && col+1+len(s) > 80 {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(s)
		col += len(s)
	}
	n := firstMove
	white := whiteFirst
	for i, m := range rec.Moves {
		if white {
			emit(fmt.Sprintf("%d.", n))
		} else if i == 0 {
			emit(fmt.Sprintf("%d...", n))
		}
		emit(m)
		if i < len(rec.Comments) && rec.Comments[i] != "" {
			emit("{" + rec.Comments[i] + "}")
		}
		if !white {
			n++
		}
		white = !white
	}
	res := rec.Result
	if res == "" {
		res = "*"
	}
	emit(res)
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}
