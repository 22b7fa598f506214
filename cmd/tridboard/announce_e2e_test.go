package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/announce"
	"github.com/tridboard/tridboard/config"
)

// TestDaemonAnnouncesItsPage: a running set is found by a DNS-SD browse
// (as a phone's or `tridboard view --discover` finds it), with its board
// id, rules system, version and page path, and the page it points to
// answers. The daemon's page listens on 127.0.0.1, so it announces on the
// loopback alone.
func TestDaemonAnnouncesItsPage(t *testing.T) {
	board := fmt.Sprintf("announced-%d", os.Getpid())
	d, _, _ := startInProcess(t, func(c *config.Config) { c.BoardID, c.Variant = board, "millennium" })
	if d.mdns == nil {
		t.Fatal("the daemon did not announce itself")
	}
	lo, err := net.InterfaceByName(d.mdns.Interfaces()[0])
	if err != nil || lo.Flags&net.FlagLoopback == 0 || len(d.mdns.Interfaces()) != 1 {
		t.Fatalf("announced on %v, want the loopback alone (the page is on %s)", d.mdns.Interfaces(), d.webURL)
	}
	port := d.webLn.Addr().(*net.TCPAddr).Port
	var set announce.Set
	deadline := time.Now().Add(60 * time.Second)
	for {
		sets, err := announce.Browse(context.Background(), lo, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(sets, func(s announce.Set) bool { return s.Instance == board }); i >= 0 {
			set = sets[i]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s in a browse within 60 s: %+v", board, sets)
		}
	}
	host := board // the set's name, a host name label, is its NAME.local
	want := []string{"board=" + board, "rules=millennium", "version=" + version, "path=/boards/" + board}
	if !slices.Equal(set.TXT, want) || set.Port != port || !strings.EqualFold(set.Host, host+".local.") {
		t.Fatalf("found %+v, want TXT %q, port %d, host %s.local.", set, want, port, host)
	}
	if u := fmt.Sprintf("http://127.0.0.1:%d/boards/%s", port, board); set.URL() != u {
		t.Fatalf("URL %s, want %s", set.URL(), u)
	}
	resp, err := http.Get(set.URL())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<html") {
		t.Fatalf("the announced page: %s\n%.300s", resp.Status, body)
	}
}

// TestDaemonAnnounceOff: http.announce: false announces nothing.
func TestDaemonAnnounceOff(t *testing.T) {
	d, _, _ := startInProcess(t, func(c *config.Config) { c.HTTP.Announce = false })
	if d.mdns != nil {
		t.Fatalf("announced on %v with http.announce false", d.mdns.Interfaces())
	}
}

// TestViewDiscoversTheSet: `tridboard view --discover` lists a running
// set with its page, rules and version, as a person at the hall's laptop
// would find the sets.
func TestViewDiscoversTheSet(t *testing.T) {
	board := fmt.Sprintf("discovered-%d", os.Getpid())
	d, _, _ := startInProcess(t, func(c *config.Config) { c.BoardID = board })
	if d.mdns == nil {
		t.Fatal("the daemon did not announce itself")
	}
	port := d.webLn.Addr().(*net.TCPAddr).Port
	want := fmt.Sprintf("%s\thttp://127.0.0.1:%d/boards/%s\trules=st3d\tversion=%s\n", board, port, board, version)
	deadline := time.Now().Add(60 * time.Second)
	for {
		var out, errs strings.Builder
		code := runView([]string{"--discover", "--interface", d.mdns.Interfaces()[0]}, &out, &errs)
		if code == exitOK && strings.Contains(out.String(), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("view --discover: exit %d, %q%s; want a line %q", code, out.String(), errs.String(), want)
		}
	}
}

// TestViewDiscoverRefuses: an interface that does not exist is a usage
// error, said in one line.
func TestViewDiscoverRefuses(t *testing.T) {
	var out, errs strings.Builder
	code := runView([]string{"--discover", "--interface", "nosuch0"}, &out, &errs)
	if code != exitUsage || !strings.HasPrefix(errs.String(), "tridboard view: --interface nosuch0: ") || strings.Count(errs.String(), "\n") != 1 {
		t.Fatalf("exit %d, %q", code, errs.String())
	}
}
