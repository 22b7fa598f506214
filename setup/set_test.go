package setup

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
)

// The name and rules form: the command token as the Wi-Fi's, the name a
// host name's label, the system a registered one; a refused request
// reaches no Save (nothing written), a good one reaches it once, exactly.
func TestSaveNameAndRules(t *testing.T) {
	o := testOpts(t)
	var saved []Identity
	o.Current = func() Current { return Current{Identity: Identity{"tridboard", "st3d", ""}} }
	o.Save = func(id Identity) (string, error) {
		if id.Name == "taken" {
			return "", errors.New("the set's configuration would refuse it: sensors.wiring: ...")
		}
		saved = append(saved, id)
		return "Saved. The set restarts as " + id.Name, nil
	}
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	for _, c := range []struct {
		name, token, body string
		want              int
		reason            string
		saved             *Identity
	}{
		{"good", "tok-1", `{"board_id":"club-set-2","variant":"millennium","options":""}`, 200, "", &Identity{"club-set-2", "millennium", ""}},
		{"st3d options", "tok-1", `{"board_id":"Hall7","variant":"st3d","options":"V.A1,V.P5"}`, 200, "", &Identity{"Hall7", "st3d", "V.A1,V.P5"}},
		{"spaces trimmed", "tok-1", `{"board_id":" hall-3 ","variant":" st3d ","options":""}`, 200, "", &Identity{"hall-3", "st3d", ""}},
		{"no token", "", `{"board_id":"club","variant":"st3d","options":""}`, 401, "token", nil},
		{"wrong token", "tok-2", `{"board_id":"club","variant":"st3d","options":""}`, 401, "token", nil},
		{"empty name", "tok-1", `{"board_id":"","variant":"st3d","options":""}`, 400, "the name is empty", nil},
		{"name with a space", "tok-1", `{"board_id":"Hall 2","variant":"st3d","options":""}`, 400, `holds ' '`, nil},
		{"name with a slash", "tok-1", `{"board_id":"a/b","variant":"st3d","options":""}`, 400, `holds '/'`, nil},
		{"hyphen first", "tok-1", `{"board_id":"-set","variant":"st3d","options":""}`, 400, "hyphen", nil},
		{"name too long", "tok-1", `{"board_id":"` + strings.Repeat("a", 64) + `","variant":"st3d","options":""}`, 400, "64 characters long", nil},
		{"unknown system", "tok-1", `{"board_id":"club","variant":"fischer","options":""}`, 400, `"fischer" is not one of first-contact, first-contact-up, millennium, st3d`, nil},
		{"options of a system without", "tok-1", `{"board_id":"club","variant":"millennium","options":"V.A1"}`, 400, "millennium has no options", nil},
		{"bad st3d options", "tok-1", `{"board_id":"club","variant":"st3d","options":"V.A1,V.A5"}`, 400, "cannot be combined", nil},
		{"two faults", "tok-1", `{"board_id":"","variant":"x","options":""}`, 400, `the name is empty; the rules system "x"`, nil},
		{"unknown field", "tok-1", `{"board_id":"club","variant":"st3d","options":"","x":1}`, 400, "malformed", nil},
		{"refused by the set", "tok-1", `{"board_id":"taken","variant":"st3d","options":""}`, 409, "would refuse it", nil},
	} {
		n := len(saved)
		st, m := do(t, srv, "POST", "/setup/set", c.token, c.body)
		if st != c.want || !strings.Contains(m["reason"], c.reason) {
			t.Errorf("%s: %d %v, want %d %q", c.name, st, m, c.want, c.reason)
		}
		switch {
		case c.saved == nil && len(saved) != n:
			t.Errorf("%s: saved %+v", c.name, saved[n:])
		case c.saved != nil && (len(saved) != n+1 || saved[n] != *c.saved):
			t.Errorf("%s: saved %+v, want %+v", c.name, saved[n:], *c.saved)
		case c.saved != nil && !strings.HasPrefix(m["message"], "Saved. The set restarts as "+c.saved.Name):
			t.Errorf("%s: message %q", c.name, m["message"])
		}
	}
	o.Token = ""
	off := httptest.NewServer(Handler(o))
	defer off.Close()
	if st, m := do(t, off, "POST", "/setup/set", "", `{"board_id":"club","variant":"st3d","options":""}`); st != 403 || len(saved) != 3 {
		t.Errorf("no token configured: %d %v", st, m)
	}
}

// GET /setup/set: the running name and rules, the game, and every
// registered system with its title; no token needed (the name is public).
func TestShowNameAndRules(t *testing.T) {
	o := testOpts(t)
	o.Current = func() Current {
		return Current{Identity: Identity{"club-1", "st3d", "V.A2"}, Game: "st3d", Moves: 12, InProgress: true}
	}
	srv := httptest.NewServer(Handler(o))
	defer srv.Close()
	res, err := srv.Client().Get(srv.URL + "/setup/set")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got struct {
		Current Current
		Systems []System
		Saving  bool
	}
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %v", res.StatusCode, err)
	}
	if want := (Current{Identity: Identity{"club-1", "st3d", "V.A2"}, Game: "st3d", Moves: 12, InProgress: true}); got.Current != want {
		t.Errorf("current %+v, want %+v", got.Current, want)
	}
	var names []string
	for _, s := range got.Systems {
		names = append(names, s.Name+"="+s.Title)
		if s.Set == "" {
			t.Errorf("system %s without its set", s.Name)
		}
	}
	if want := "first-contact=First Contact,first-contact-up=First Contact, platforms upright only,millennium=Millennium 3D chess,st3d=Star Trek 3D chess"; strings.Join(names, ",") != want {
		t.Errorf("systems %s", strings.Join(names, ","))
	}
	if got.Saving {
		t.Error("saving offered without Save")
	}
	// Every option offered reads, alone, as st3d's.
	for _, op := range Systems()[3].Options {
		if err := (Identity{"x", "st3d", op.Code}).Check(); err != nil {
			t.Errorf("option %s offered: %v", op.Code, err)
		}
	}
	o.Current = nil
	none := httptest.NewServer(Handler(o))
	defer none.Close()
	if st, _ := do(t, none, "GET", "/setup/set", "", ""); st != 404 {
		t.Errorf("without Current: %d", st)
	}
}
