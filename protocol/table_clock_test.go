package protocol_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/tabletest"
)

func resolveST3D(string, string) (rules.System, error) { return st3d.System, nil }

func TestClockCommandsToTheTable(t *testing.T) {
	for _, tc := range []struct {
		in   protocol.Command
		want table.Command
	}{
		{protocol.AdjustClock{Action: protocol.ClockPause}, table.AdjustClock{Action: table.ClockPause}},
		{protocol.AdjustClock{Action: protocol.ClockResume}, table.AdjustClock{Action: table.ClockResume}},
		{protocol.AdjustClock{Action: protocol.ClockAdd, Side: rules.Black, MS: -1500}, table.AdjustClock{Action: table.ClockAdd, Side: rules.Black, D: -1500 * time.Millisecond}},
		{protocol.AdjustClock{Action: protocol.ClockSet, Side: rules.White, MS: 60000}, table.AdjustClock{Action: table.ClockSet, Side: rules.White, D: time.Minute}},
		// No time_control: the set's default; "-": none; else the control.
		{protocol.NewGame{Variant: "st3d"}, table.NewGame{System: st3d.System, DefaultClock: true}},
		{protocol.NewGame{Variant: "st3d", TimeControl: "-"}, table.NewGame{System: st3d.System}},
		{protocol.NewGame{Variant: "st3d", TimeControl: "300d3"}, table.NewGame{System: st3d.System, TimeControl: clock.MustParse("300d3")}},
	} {
		got, err := protocol.TableCommand(tc.in, resolveST3D)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	if _, err := protocol.TableCommand(protocol.AdjustClock{Action: "wind"}, resolveST3D); err == nil {
		t.Error("a bad clock action was accepted")
	}
}

func TestClockInTheState(t *testing.T) {
	snap := tabletest.Snapshots(1)[0]
	c, _ := clock.New(clock.MustParse("180+2"), nil)
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	_ = c.Start(at, rules.White)
	cs := c.Snapshot(at.Add(time.Second))
	snap.Clock = &cs
	if s := protocol.StateOf(snap); s.Clock != &cs {
		t.Errorf("state clock %+v, want the snapshot's", s.Clock)
	}
	for _, tc := range []struct {
		e    table.Event
		want protocol.Event
	}{
		{table.Event{Kind: table.ClockChanged, At: at, Snap: snap, Detail: "pause"},
			protocol.Event{Type: protocol.EventClock, Game: snap.Game, Detail: "pause", Time: at}},
		{table.Event{Kind: table.LowTime, At: at, Snap: snap, Side: rules.Black},
			protocol.Event{Type: protocol.EventLowTime, Game: snap.Game, Detail: "black", Time: at}},
	} {
		if got, ok := protocol.EventOf(tc.e); !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, %v; want %+v", tc.e.Kind, got, ok, tc.want)
		}
	}
}
