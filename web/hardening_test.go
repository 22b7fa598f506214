package web

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestOtherBoardRefused (issue 22): a daemon's server runs the commands of
// its own board only; a command posted for another id is refused with 404
// and a JSON error, and never reaches the commander.
func TestOtherBoardRefused(t *testing.T) {
	c := &fakeCommander{}
	o := DefaultServerOpts()
	o.Commander, o.Token, o.Board = c, "s3cret", "b1"
	_, _, url := testServer(t, o)
	post := func(board string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", url+"/boards/"+board+"/command/take_back", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, b := post("other")
	var e map[string]string
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") != "application/json" ||
		json.Unmarshal(b, &e) != nil || e["status"] != "error" || e["reason"] != `no board "other" here: this is board "b1"` {
		t.Errorf("other board: %s %s %s", resp.Status, resp.Header.Get("Content-Type"), b)
	}
	if len(c.got) != 0 {
		t.Errorf("the commander ran %v", c.got)
	}
	if resp, b := post("b1"); resp.StatusCode != http.StatusOK || strings.Join(c.got, "|") != `b1 take_back {"token":"s3cret"}` {
		t.Errorf("own board: %s %s, commander got %v", resp.Status, b, c.got)
	}
}

// TestStaticNoListing (issue 22): /static/ serves files, never a listing of
// a directory.
func TestStaticNoListing(t *testing.T) {
	_, _, url := testServer(t, DefaultServerOpts())
	for path, want := range map[string]int{
		"/static/": 404, "/static/vendor": 404, "/static/vendor/": 404, "/static/vendor/three/": 404,
		"/static/app.css": 200, "/static/nothing.js": 404,
	} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || strings.Contains(string(b), "<a href") {
			t.Errorf("GET %s: %s (%d bytes), want %d and no listing", path, resp.Status, len(b), want)
		}
	}
}

// TestIdleConnectionsClosed (issue 22): a keep-alive connection left idle,
// and a connection that never sends a request, are closed by the server
// (3,000 idle connections held 47 MB for good). The test waits for the
// close against a deadline far beyond the timeouts.
func TestIdleConnectionsClosed(t *testing.T) {
	o := DefaultServerOpts()
	o.IdleTimeout, o.HeaderTimeout = 100*time.Millisecond, 100*time.Millisecond
	h := NewHub(DefaultOpts())
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = New(h, o).HTTPServer()
	srv.Start()
	defer srv.Close()
	closed := func(name string, c net.Conn, r *bufio.Reader) {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := r.ReadByte(); !errors.Is(err, io.EOF) {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("%s: still open after 10 s", name)
			} else {
				t.Errorf("%s: %v, want the server to close it", name, err)
			}
		}
	}
	idle, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	io.WriteString(idle, "GET /api/boards HTTP/1.1\r\nHost: x\r\n\r\n")
	r := bufio.NewReader(idle)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Close {
		t.Fatalf("first request: %s, close %v", resp.Status, resp.Close)
	}
	closed("idle keep-alive connection", idle, r)
	silent, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	closed("connection without a request", silent, bufio.NewReader(silent))
}
