package event

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/tournament"
	"github.com/tridboard/tridboard/trust"
	"github.com/tridboard/tridboard/web/webtest"
)

// keyLink is a fakeLink that records the sets whose signatures the desk
// told it to forget (a key enrolled or replaced).
type keyLink struct {
	fakeLink
	mu     sync.Mutex
	forgot []string
}

func (l *keyLink) ForgetKey(set string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forgot = append(l.forgot, set)
}

// keyEvent is deskEvent with the event's keyring in its directory.
func keyEvent(t *testing.T, link Link) (*Runner, *trust.Ring, string) {
	t.Helper()
	dir := t.TempDir()
	ring, err := OpenKeyring(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	o := testOpts(t, dir)
	o.Keys = ring
	r, err := Create(o, Config{Name: "Fest", System: tournament.Swiss, Rounds: 2,
		Boards: []string{"s1", "s2"}, Tables: []string{"T1"}, TimeControl: "180+2"}, nil, link)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, ring, dir
}

func newKey(t *testing.T) trust.PublicKey {
	t.Helper()
	k, err := trust.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return k.Public()
}

// typed is a fingerprint as an organiser may type it: capitals, no dashes.
func typed(p trust.PublicKey) string {
	return strings.ToUpper(strings.ReplaceAll(p.Fingerprint(), "-", ""))
}

// The desk's API enrols a set's key only against its fingerprint,
// re-enrols a set with a new key, forgets one, and adds a set with its key;
// what it refuses changes nothing; every change is journaled, and the
// keyring follows the journal when its file is lost.
func TestDeskKeysAPI(t *testing.T) {
	link := &keyLink{}
	r, ring, dir := keyEvent(t, link)
	srv := httptest.NewServer(Handler(r, "tok"))
	defer srv.Close()
	k1, k2, k3, k4 := newKey(t), newKey(t), newKey(t), newKey(t)
	step := func(name string, cases []apiTest) {
		t.Helper()
		for _, tc := range cases {
			apiCase(t, srv.URL, tc.method, tc.path, tc.token, tc.body, tc.code, tc.want)
		}
		if t.Failed() {
			t.Fatalf("after %s", name)
		}
	}
	step("start", []apiTest{
		{"GET", "/api/event/keys", "", "", 200, `[{"set":"s1","status":"none"},{"set":"s2","status":"none"}]`},
		{"POST", "/api/event/sets/s1/key", "tok", `{"fingerprint":"` + k1.Fingerprint() + `"}`, 400, "s1 announces no key"},
	})
	r.Announce("s1", k1)
	if _, err := ring.Pin("s2", k2); err != nil { // s2's first signed state
		t.Fatal(err)
	}
	step("announced", []apiTest{
		{"GET", "/api/event/desk", "", "", 200, `"announced_fingerprint":"` + k1.Fingerprint() + `","status":"announced"`},
		{"GET", "/api/event/keys", "", "", 200, `"trusted_fingerprint":"` + k2.Fingerprint() + `","how":"first use"`},
		{"POST", "/api/event/sets/s1/key", "", `{"fingerprint":"` + k1.Fingerprint() + `"}`, 401, "token is required"},
		{"POST", "/api/event/sets/s1/key", "tok", `{"fingerprint":"` + k2.Fingerprint() + `"}`, 400, "is not its key's (" + k1.Fingerprint() + ")"},
		{"POST", "/api/event/sets/s1/key", "tok", `{}`, 400, "compare with the set's page"},
		{"POST", "/api/event/sets/s1/key", "tok", `{"key":"ed25519:AAAA","fingerprint":"x"}`, 400, "bytes, want 32"},
		{"POST", "/api/event/sets/s9/key", "tok", `{"key":"` + k3.String() + `","fingerprint":"` + k3.Fingerprint() + `"}`, 404, "not one of the event's sets"},
		{"POST", "/api/event/sets/s1/key/forget", "tok", `{}`, 404, "no key trusted"},
	})
	if _, ok := ring.Key("s1"); ok {
		t.Fatal("a refused enrolment trusted s1's key")
	}
	step("enrol", []apiTest{
		{"POST", "/api/event/sets/s1/key", "tok", `{"fingerprint":"` + typed(k1) + `","reason":"compared with its page"}`, 200, `"how":"enrolled"`},
		{"POST", "/api/event/sets/s2/key", "tok", `{"fingerprint":"` + k2.Fingerprint() + `"}`, 200, `"trusted_fingerprint":"` + k2.Fingerprint() + `","how":"enrolled"`},
	})
	r.Announce("s1", k4) // s1's state directory was replaced: a new key
	step("re-enrol", []apiTest{
		{"GET", "/api/event/keys", "", "", 200, `"set":"s1","announced":"` + k4.String() + `","announced_fingerprint":"` + k4.Fingerprint() + `","trusted":"` + k1.String()},
		{"GET", "/api/event/keys", "", "", 200, `"status":"differs"`},
		{"POST", "/api/event/sets/s1/key", "tok", `{"fingerprint":"` + k4.Fingerprint() + `","reason":"new SD card"}`, 200, `"trusted_fingerprint":"` + k4.Fingerprint() + `","how":"enrolled"`},
		{"POST", "/api/event/sets/s2/key/forget", "tok", `{"reason":"set sent home"}`, 200, `"set":"s2","status":"none"`},
		{"POST", "/api/event/sets/s2/key/forget", "tok", `{}`, 404, "no key trusted"},
		{"POST", "/api/event/sets", "tok", `{"set":"s4","key":"` + k3.String() + `","fingerprint":"` + k2.Fingerprint() + `"}`, 400, "is not its key's"},
		{"POST", "/api/event/sets", "tok", `{"set":"s3","key":"` + k3.String() + `","fingerprint":"` + k3.Fingerprint() + `","reason":"spare"}`, 200, "ok"},
		{"GET", "/api/event/keys", "", "", 200, `"set":"s3","trusted":"` + k3.String()},
	})
	if got := r.Snapshot().Sets; len(got) != 3 || got[2].Set != "s3" {
		t.Errorf("sets %+v: want s1, s2, s3 (s4 refused)", got)
	}
	// The checker's counters are forgotten where a key came or changed.
	link.mu.Lock()
	if got := strings.Join(link.forgot, ","); got != "s1,s1,s3" {
		t.Errorf("the link forgot the signatures of %s, want s1 (enrolled), s1 (re-enrolled), s3 (added)", got)
	}
	link.mu.Unlock()

	want := func(ring *trust.Ring) {
		t.Helper()
		ids, es := ring.Entries()
		if !slices.Equal(ids, []string{"s1", "s3"}) || !es["s1"].Key.Equal(k4) || !es["s3"].Key.Equal(k3) || es["s1"].How != "enrolled" {
			t.Errorf("the keyring holds %v %+v: want s1 = k4, s3 = k3, enrolled", ids, es)
		}
	}
	want(ring)
	r.Close()
	_, ds, _, err := openJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if strings.HasPrefix(d.Op, "key") || d.Op == "addset" {
			got = append(got, d.Op+" "+d.Set+" "+d.Reason+" "+d.By+" "+map[bool]string{true: "key", false: "-"}[d.Key != ""])
		}
	}
	if w := []string{"key s1 compared with its page arbiter key", "key s2 enrolled at the desk arbiter key", "key s1 new SD card arbiter key",
		"key-forget s2 set sent home arbiter key", "addset s3 spare arbiter key"}; !slices.Equal(got, w) {
		t.Errorf("journaled %q, want %q", got, w)
	}
	// keys.json lost: the journal brings the keys back.
	if err := os.Remove(filepath.Join(dir, KeyringFile)); err != nil {
		t.Fatal(err)
	}
	ring2, err := OpenKeyring(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	o := testOpts(t, dir)
	o.Keys = ring2
	r2, err := Open(o, &keyLink{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	want(ring2)
	if again, _ := OpenKeyring(dir, false); again != nil {
		want(again) // and kept in its file again
	}
}

// The organiser enrols the sets' keys at the desk, as at the start of a
// festival day: a mistyped fingerprint is refused with the set's own, the
// right one (read off the set's page) enrols it; a set sent home is
// forgotten with a reason; a spare set is added with its key.
func TestBrowserDeskKeys(t *testing.T) {
	link := &keyLink{}
	r, ring, _ := keyEvent(t, link)
	k1, k2, k3 := newKey(t), newKey(t), newKey(t)
	r.Announce("s1", k1)
	r.Announce("s3", k3)
	if _, err := ring.Pin("s2", k2); err != nil {
		t.Fatal(err)
	}
	url, _ := webtest.Serve(t, Handler(r, "tok"), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1600, 900), chromedp.Navigate(url+"/event/desk")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the keys", `document.querySelectorAll("#keys tbody tr").length === 2`)
	row := func(set string) string {
		return webtest.Eval[string](t, ctx, `[...document.querySelectorAll('#keys tr[data-set="`+set+`"] td')].slice(0, 4).map(c => c.textContent).join("|")`)
	}
	if got, want := row("s1"), "s1|"+k1.Fingerprint()+"|—|not trusted: compare and enrol"; got != want {
		t.Errorf("s1's row reads %q, want %q", got, want)
	}
	if got, want := row("s2"), "s2|—|"+k2.Fingerprint()+"|trusted at first use: compare and enrol"; got != want {
		t.Errorf("s2's row reads %q, want %q", got, want)
	}
	webtest.Eval[bool](t, ctx, `(window.asked = [], window.prompt = (q) => { asked.push(q); return q.startsWith("The event") ? "tok" : "sent home"; }, true)`)
	enrol := func(fp string) {
		t.Helper()
		webtest.Eval[bool](t, ctx, `(document.querySelector("#msg").textContent = "", document.querySelector('input[aria-label="fingerprint of s1"]').value = "", true)`)
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`input[aria-label="fingerprint of s1"]`), fp),
			chromedp.Click(chromedp.CSS(`#keys tr[data-set="s1"] button`))); err != nil {
			t.Fatal(err)
		}
		webtest.WaitJS(t, ctx, "the answer", `document.querySelector("#msg").textContent !== ""`)
	}
	enrol(k2.Fingerprint())
	if m := webtest.Eval[string](t, ctx, `document.querySelector("#msg").textContent`); !strings.Contains(m, "is not its key's ("+k1.Fingerprint()+")") {
		t.Errorf("a wrong fingerprint: %q", m)
	}
	if _, ok := ring.Key("s1"); ok {
		t.Fatal("a wrong fingerprint enrolled s1")
	}
	enrol(k1.Fingerprint())
	webtest.WaitJS(t, ctx, "s1 enrolled", `document.querySelector('#keys tr[data-set="s1"] .status').textContent === "enrolled"`)
	if got, ok := ring.Key("s1"); !ok || !got.Equal(k1) {
		t.Errorf("s1's key in the keyring: %v %v", got, ok)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#keys tr[data-set="s2"] button:nth-of-type(2)`))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "s2 forgotten", `document.querySelector('#keys tr[data-set="s2"] .status').textContent === "no key seen yet"`)
	if _, ok := ring.Key("s2"); ok {
		t.Error("s2's key is still trusted")
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#addset input[name=set]`), "s3"),
		chromedp.SendKeys(chromedp.CSS(`#addset input[name=fingerprint]`), k3.Fingerprint()),
		chromedp.Click(chromedp.CSS(`#addset button`))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "s3 added, enrolled", `document.querySelector('#keys tr[data-set="s3"] .status')?.textContent === "enrolled"`)
	if got, ok := ring.Key("s3"); !ok || !got.Equal(k3) {
		t.Errorf("s3's key in the keyring: %v %v", got, ok)
	}
	if n := webtest.Eval[int](t, ctx, `asked.filter(q => q.startsWith("The event")).length`); n != 1 {
		t.Errorf("the token was asked %d times", n)
	}
	// Read from the desk: fingerprints in large type, the table within the screen.
	if px := webtest.Eval[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector("#keys td.fp")).fontSize)`); px < 17 {
		t.Errorf("the fingerprints are %.0f px", px)
	}
	if w := webtest.Eval[float64](t, ctx, `document.querySelector("#keys").getBoundingClientRect().right`); w > 1600 {
		t.Errorf("the keys' table reaches %.0f px on a 1600 px screen", w)
	}
	webtest.Shot(t, ctx, "desk-keys")
}
