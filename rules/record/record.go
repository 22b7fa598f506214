// Package record reads and writes game records: tag pairs such as
// [Event "..."] followed by the moves in a system's short notation, with
// move numbers, comments, variations and a result, in the manner of PGN.
// The reader takes records as people copy them from web pages (any dash,
// "×", ½-½, NAGs, nested variations); the writer writes plain ASCII.
package record

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Tag is one tag pair of a record.
type Tag struct {
	Name, Value string
}

// Record is a game record.
type Record struct {
	Tags []Tag
	// Moves are the main line's move tokens, in ASCII (rules.Typography)
	// and with a check mark or assessment on a move kept, without numbers,
	// comments, variations, NAGs or marks standing alone.
	Moves []string
	// Result is the result ("1-0", "0-1", "1/2-1/2", "*"), if any, in ASCII
	// whatever dash or ½ the record wrote it with.
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
	tagLine    = regexp.MustCompile(`^\[(\w+)\s+(?:"((?:[^"\\]|\\.)*)"|“([^”]*)”)\]$`)
	moveNumber = regexp.MustCompile(`^(?:\d+(?:\.+|…))+`)
)

// results are the result tokens, as Typography leaves them.
var results = map[string]string{
	"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2", "*": "*",
}

// glyphs are assessment tokens that stand alone between moves.
var glyphs = map[string]bool{
	"=": true, "±": true, "∓": true, "⩲": true, "⩱": true, "+=": true, "=+": true, "+-": true, "-+": true,
	"+/-": true, "-/+": true, "∞": true, "=/∞": true, "□": true, "ep": true, "e.p.": true,
}

// Read parses a record as people copy them from web pages and books: tag
// pairs ([Name "value"], also with typographic quotes), then the moves.
// Dropped: move numbers ("12.", "12...", "12…"), {comments}, ";" comments
// to the end of the line, "%" escape lines, variations in parentheses
// (nested too), numeric annotation glyphs ($1), assessments (!, ?, !?, ±,
// ...), standalone check marks, "e.p." and draw offers "(=)". Results are
// 1-0, 0-1, 1/2-1/2 (or ½-½) and *, with any dash; Result holds them in
// that ASCII form. The moves are kept as written, for the system's
// reader, which ignores the marks left on them (rules.CleanMove).
func Read(r io.Reader) (*Record, error) {
	rec := &Record{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var text strings.Builder
	line := 0
	for sc.Scan() {
		line++
		l := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if strings.HasPrefix(l, "[") && text.Len() == 0 {
			m := tagLine.FindStringSubmatch(l)
			if m == nil {
				return nil, fmt.Errorf("record: line %d: malformed tag %q", line, l)
			}
			v, err := strconv.Unquote(`"` + m[2] + `"`)
			if err != nil {
				v = m[2]
			}
			if m[3] != "" {
				v = m[3]
			}
			rec.Tags = append(rec.Tags, Tag{m[1], v})
			continue
		}
		if strings.HasPrefix(l, "%") {
			continue
		}
		text.WriteString(sc.Text())
		text.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	body, err := mainLine(text.String())
	if err != nil {
		return nil, err
	}
	for _, tok := range strings.Fields(body) {
		tok = rules.Typography(tok)
		tok = moveNumber.ReplaceAllString(tok, "")
		if res, ok := results[tok]; ok {
			if rec.Result != "" {
				return nil, fmt.Errorf("record: two results (%s, %s)", rec.Result, res)
			}
			rec.Result = res
			continue
		}
		if glyphs[tok] || rules.CleanMove(tok) == "" {
			continue
		}
		if rec.Result != "" {
			return nil, fmt.Errorf("record: move %q after the result %s", tok, rec.Result)
		}
		rec.Moves = append(rec.Moves, tok)
	}
	return rec, nil
}

// mainLine drops what is not the game's main line from a record's move
// text: {comments}, ";" comments to the end of the line, variations in
// parentheses (nested, with comments inside), leaving draw offers "(=)"
// as a separate token for Read to drop.
func mainLine(s string) (string, error) {
	var b strings.Builder
	braces, parens := 0, 0
	line, varLine := 1, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			line++
		}
		switch {
		case braces > 0:
			if c == '}' {
				braces--
				b.WriteByte(' ')
			} else if c == '{' {
				braces++
			}
		case c == '{':
			braces++
		case c == '}':
			return "", fmt.Errorf("record: line %d: '}' without '{'", line)
		case c == ';':
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case c == '(' && strings.HasPrefix(s[i:], "(=)"):
			if parens == 0 {
				b.WriteString(" (=) ")
			}
			i += 2
		case c == '(':
			if parens == 0 {
				varLine = line
				b.WriteByte(' ')
			}
			parens++
		case c == ')':
			if parens == 0 {
				return "", fmt.Errorf("record: line %d: ')' without '('", line)
			}
			parens--
		case parens == 0:
			b.WriteByte(c)
		}
	}
	if braces != 0 {
		return "", fmt.Errorf("record: unclosed '{' comment")
	}
	if parens != 0 {
		return "", fmt.Errorf("record: line %d: unclosed '(' variation", varLine)
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
