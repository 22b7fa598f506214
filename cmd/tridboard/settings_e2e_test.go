package main

import (
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/recognize"
)

// TestSectionsOfThePackagesReachTheSet: settings written in a file, in
// the sections the packages own (recognition: recognize.Opts, sensors:
// sensors.Opts, leds: leds.Opts, http: web.HubOpts), reach the running set
// whole, with nothing copied field by field on the way: with the LEDs'
// targets off, a lift darkens the last move and lights nothing; with
// take-backs and corrections off, the mover putting the pawn back is a
// mismatch, not a take-back.
func TestSectionsOfThePackagesReachTheSet(t *testing.T) {
	file, err := config.Parse("set.yaml", []byte(`
sensors:
  period: 4ms
  debounce: 20ms
recognition:
  take_backs: false
  correction: 0s
leds:
  hints: false
http:
  delay: 0s
  eval: false
`))
	if err != nil {
		t.Fatal(err)
	}
	d, _, _ := startInProcess(t, func(c *config.Config) {
		c.Sensors.Opts, c.Recognition, c.LEDs, c.HTTP.HubOpts = file.Sensors.Opts, file.Recognition, file.LEDs, file.HTTP.HubOpts
	})
	if err := d.board.Set.Lift("b2W"); err != nil {
		t.Fatal(err)
	}
	if err := d.board.Set.Place("b4N"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(d.tb.Snapshot().Moves) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("b2W-b4N not recognized within 5 s")
		}
	}
	waitLit(t, d, "b2W b4N") // the last move shows, targets off or not
	// Black lifts a pawn: with the targets shown, b7B's would light.
	if err := d.board.Set.Lift("b7B"); err != nil {
		t.Fatal(err)
	}
	waitLit(t, d, "")
	if err := d.board.Set.Place("b7B"); err != nil {
		t.Fatal(err)
	}
	waitLit(t, d, "b2W b4N")
	// White puts the pawn back: no take-back, a mismatch.
	if err := d.board.Set.Lift("b4N"); err != nil {
		t.Fatal(err)
	}
	if err := d.board.Set.Place("b2W"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); d.tb.Snapshot().Status.State != recognize.Mismatch; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the pawn put back: board %s, want a mismatch (take-backs off)", d.tb.Snapshot().Status.State)
		}
	}
	if got := d.tb.Snapshot().Moves; len(got) != 1 || got[0].Move != "b2W-b4N" {
		t.Fatalf("moves %+v, want b2W-b4N kept", got)
	}
}

// TestMQTTSectionReachesTheSet: the mqtt section's client settings
// (mqtt.Opts: prefix, command_token) and broker settings (broker.Settings:
// limits) as a file gives them reach the running set whole: the set
// answers on the file's prefix, refuses a command without the file's
// token, and obeys one with it.
func TestMQTTSectionReachesTheSet(t *testing.T) {
	file, err := config.Parse("set.yaml", []byte(`
mqtt:
  prefix: hall/sets
  command_token: s3cret
  limits:
    max_queued: 200
`))
	if err != nil {
		t.Fatal(err)
	}
	d, c, topics := startInProcess(t, func(c *config.Config) {
		c.MQTT.Opts, c.MQTT.Settings = file.MQTT.Opts, file.MQTT.Settings
	})
	if got := topics.Set("resign"); !strings.HasPrefix(got, "hall/sets/unit/") {
		t.Fatalf("topic %s, want under hall/sets/unit/", got)
	}
	if r := sendCommand(t, c, topics, "resign", `{"side":"black"}`); r["status"] != "error" {
		t.Fatalf("resign without the token: %v, want refused", r)
	}
	if snap := d.tb.Snapshot(); snap.Result != "*" {
		t.Fatalf("a refused command ended the game: %s", snap.Result)
	}
	if r := sendCommand(t, c, topics, "resign", `{"side":"black","token":"s3cret"}`); r["status"] != "ok" {
		t.Fatalf("resign with the token: %v", r)
	}
	if snap := d.tb.Snapshot(); snap.Result != "1-0" {
		t.Errorf("after resigning: %q, want 1-0", snap.Result)
	}
	if bo, err := brokerOpts(d.o.cfg, d.log); err != nil || bo.Limits.MaxQueued != 200 || bo.Prefix != "hall/sets" {
		t.Errorf("broker opts: limits %+v prefix %q err %v", bo.Limits, bo.Prefix, err)
	}
}
