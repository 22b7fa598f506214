package main

import (
	"bufio"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// uciProc is "tridboard uci" driven over its stdin and stdout.
type uciProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startUCI(t *testing.T) *uciProc {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "uci")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	u := &uciProc{t: t, cmd: cmd, in: in, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			u.lines <- sc.Text()
		}
		close(u.lines)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return u
}

func (u *uciProc) send(lines ...string) {
	u.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(u.in, l+"\n"); err != nil {
			u.t.Fatal(err)
		}
	}
}

// until reads lines until one starts with prefix and returns them all,
// that one last.
func (u *uciProc) until(prefix string) []string {
	u.t.Helper()
	var got []string
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-u.lines:
			if !ok {
				u.t.Fatalf("uci ended before %q: %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-deadline:
			u.t.Fatalf("no %q from uci: %q", prefix, got)
		}
	}
}

var uciInfo = regexp.MustCompile(`^info depth \d+ seldepth \d+ score (cp -?\d+|mate -?\d+)( lowerbound)? nodes \d+ nps \d+ time \d+ pv (\S+)( \S+)*$`)

// checkSearch checks a search's output: info lines, the last one's pv
// starting with the bestmove, which is want when want is not "".
func checkSearch(t *testing.T, what string, lines []string, want string) string {
	t.Helper()
	if len(lines) < 2 {
		t.Fatalf("%s: %q, want info lines and bestmove", what, lines)
	}
	best := strings.TrimPrefix(lines[len(lines)-1], "bestmove ")
	for _, l := range lines[:len(lines)-1] {
		if !uciInfo.MatchString(l) {
			t.Errorf("%s: info line %q", what, l)
		}
	}
	if m := uciInfo.FindStringSubmatch(lines[len(lines)-2]); m == nil || m[3] != best {
		t.Errorf("%s: the last info line %q does not start its pv with the bestmove %s", what, lines[len(lines)-2], best)
	}
	if want != "" && best != want {
		t.Errorf("%s: bestmove %s, want %s", what, best, want)
	}
	return best
}

// tridboard uci speaks UCI over stdin and stdout (issue 24): the
// handshake, positions from the start and from a position string with
// moves in long form, searches by depth, by nodes, on a clock, infinite
// until stop, bad input answered with an info string and ignored, and
// another variant through UCI_Variant.
func TestUCI(t *testing.T) {
	u := startUCI(t)
	u.send("uci")
	hello := u.until("uciok")
	if !strings.HasPrefix(hello[0], "id name tridboard") || !strings.Contains(strings.Join(hello, "\n"),
		"option name UCI_Variant type combo default st3d") {
		t.Errorf("uci: %q", hello)
	}
	u.send("isready")
	u.until("readyok")

	// st3d's mate in one by a board move (analyse_test.go): from a
	// position string, searched to depth 3.
	u.send("ucinewgame", "position fen QL6:b,KL4:w Kb2W,pa8B,Re7KL4,pz8QL6,pa8QL6,kz9QL6 w - - - 0 60", "go depth 3")
	lines := u.until("bestmove")
	checkSearch(t, "mate in one", lines, "KL4-KL6")
	if !strings.Contains(lines[len(lines)-2], "score mate 1") {
		t.Errorf("mate in one: last info %q", lines[len(lines)-2])
	}

	// From the start with moves: Black to move, by nodes, then depth 1.
	u.send("position startpos moves b2W-b4N", "go nodes 3000")
	checkSearch(t, "after b2W-b4N", u.until("bestmove"), "")
	u.send("go depth 1")
	reply := checkSearch(t, "after b2W-b4N, depth 1", u.until("bestmove"), "")

	// A bad move: reported, and no position is left (issue 33): go answers
	// the null move with the reason rather than search the previous one.
	u.send("position startpos moves b2W-b9", "go depth 1")
	lines = u.until("bestmove")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `info string position: move 1 b2W-b9`) ||
		!strings.HasPrefix(lines[1], `info string go: no position: position: move 1 b2W-b9`) || lines[2] != "bestmove 0000" {
		t.Errorf("bad move: %q, want the reason twice and bestmove 0000", lines)
	}
	// The same position again searches as before.
	u.send("position startpos moves b2W-b4N", "go depth 1")
	checkSearch(t, "after b2W-b4N again, depth 1", u.until("bestmove"), reply)

	// On a clock: 2 s left and no increment, the search stops well within.
	u.send("position startpos", "go wtime 2000 btime 2000")
	lines = u.until("bestmove")
	checkSearch(t, "on a clock", lines, "")
	ms := regexp.MustCompile(` time (\d+) `).FindStringSubmatch(lines[len(lines)-2])
	if ms == nil || len(ms[1]) > 3 {
		t.Errorf("on a clock with 2 s left: %q, want under a second", lines[len(lines)-2])
	}

	// Infinite until stop.
	u.send("position startpos", "go infinite")
	u.until("info depth 2 ")
	u.send("stop")
	checkSearch(t, "stopped", u.until("bestmove"), "")

	// Unknown commands and options are said and ignored.
	u.send("frobnicate", "setoption name Hash value 16", "isready")
	if got := strings.Join(u.until("readyok"), "\n"); !strings.Contains(got, `info string unknown command "frobnicate"`) ||
		!strings.Contains(got, `info string unknown option "Hash"`) {
		t.Errorf("unknown input: %q", got)
	}

	// Millennium's rook mate in one (analyse_test.go), long-form moves of
	// its own.
	u.send("setoption name UCI_Variant value millennium",
		"position fen K1e1,R2h8,R3h1,p2a7,p2b7,p3a7,p3b7,k3a8 w - - - 0 40", "go nodes 20000")
	checkSearch(t, "millennium", u.until("bestmove"), "3h1-3h8")

	u.send("quit")
	done := make(chan error, 1)
	go func() { done <- u.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("uci after quit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("uci did not end after quit")
	}
}
