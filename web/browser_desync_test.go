package web

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/tridboard/tridboard/protocol"
)

// lockedCommander records the commands the page posts (from the server's
// goroutines).
type lockedCommander struct {
	mu  sync.Mutex
	got []string
}

func (c *lockedCommander) Command(_ context.Context, board, name string, payload []byte) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, board+" "+name+" "+string(payload))
	return []byte(`{}`), nil
}

func (c *lockedCommander) commands() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.got)
}

// Issue 33: a desync of a remote game is resolved from the page. While the
// state's peer says the two sets hold different games, the page shows what
// differs and two buttons: one takes the other set's record here (resolve
// accept), the other takes both sets back to the last position they share
// (resolve restore). Without the command token a button asks for it and
// sends nothing; with it, each posts its resolve. The box goes once the
// games agree again.
func TestBrowserResolvesADesync(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b3W")
	f.play("b7B-b6B")
	const what = "desync at move 2: b7B-b6B here, c7B-c6B on the other set"
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Peer = &protocol.PeerState{Set: "klingon", Online: true, Detail: "the two sets hold different games", Desync: what}
	h.State("b1", s)
	c := &lockedCommander{}
	o := DefaultServerOpts()
	o.Commander, o.Token = c, "s3cret"
	url, _ := serve(t, New(h, o).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the desync box", `!document.getElementById('desync').hidden`)
	if got := evalJS[string](t, ctx, `document.getElementById('desync-what').textContent`); got !=
		"The two sets hold different games ("+what+"). Take the other set's record here, or take both sets back to the last position they share:" {
		t.Errorf("the desync box says %q", got)
	}
	// Big enough to hit across a table, on a phone too.
	if h := evalJS[float64](t, ctx, `Math.min(...[...document.querySelectorAll('#desync button')].map(b => b.getBoundingClientRect().height))`); h < 44 {
		t.Errorf("the resolve buttons are %.0f px high, want 44 or more", h)
	}
	click := func(action string) {
		t.Helper()
		evalJS[bool](t, ctx, `document.querySelector('#desync button[data-resolve="`+action+`"]').click(), true`)
	}
	click("accept")
	waitJS(t, ctx, "the token asked for", `document.getElementById('desync-reply').textContent === 'enter the command token (game actions) first' && document.getElementById('actions').open`)
	if got := c.commands(); len(got) != 0 {
		t.Fatalf("sent without the token: %q", got)
	}
	evalJS[bool](t, ctx, `document.getElementById('token').value = 's3cret', true`)
	for i, action := range []string{"accept", "restore"} {
		evalJS[bool](t, ctx, `document.getElementById('desync-reply').textContent = '', true`)
		click(action)
		waitJS(t, ctx, action+" sent", `document.getElementById('desync-reply').textContent === 'resolve: ok'`)
		want := `b1 resolve {"action":"` + action + `","token":"s3cret"}`
		if got := c.commands(); len(got) != i+1 || got[i] != want {
			t.Errorf("commands %q, want %q last", got, want)
		}
	}
	s.Peer = &protocol.PeerState{Set: "klingon", Online: true, Paired: true}
	h.State("b1", s)
	waitJS(t, ctx, "the box gone once the games agree", `document.getElementById('desync').hidden`)
	noErrors(t, ctx)
}
