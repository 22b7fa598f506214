package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
)

func TestClockCommands(t *testing.T) {
	for _, tt := range []struct {
		name, cmd, payload string
		wantCmd            Command // nil: refused before the handler
		wantReply          string
	}{
		{"pause", CmdClock, `{"action":"pause"}`, AdjustClock{Action: ClockPause}, `{"status":"ok"}`},
		{"resume", CmdClock, `{"transaction":"r","action":"resume"}`, AdjustClock{Action: ClockResume}, `{"transaction":"r","status":"ok"}`},
		{"add", CmdClock, `{"action":"add","side":"black","ms":60000}`, AdjustClock{Action: ClockAdd, Side: rules.Black, MS: 60000}, `{"status":"ok"}`},
		{"take off", CmdClock, `{"action":"add","side":"white","ms":-500}`, AdjustClock{Action: ClockAdd, Side: rules.White, MS: -500}, `{"status":"ok"}`},
		{"set", CmdClock, `{"action":"set","side":"white","ms":120000}`, AdjustClock{Action: ClockSet, Side: rules.White, MS: 120000}, `{"status":"ok"}`},
		{"new game with a clock", CmdNewGame, `{"variant":"st3d","time_control":"180+2"}`, NewGame{Variant: "st3d", TimeControl: "180+2"}, `{"status":"ok"}`},
		{"new game without a clock", CmdNewGame, `{"variant":"st3d","time_control":"-"}`, NewGame{Variant: "st3d", TimeControl: "-"}, `{"status":"ok"}`},

		{"bad control", CmdNewGame, `{"variant":"st3d","time_control":"180+"}`, nil, `{"status":"error","reason":"new_game: \"time_control\": time control \"180+\": increment missing"}`},
		{"sandclock", CmdNewGame, `{"variant":"st3d","time_control":"*60"}`, nil, `{"status":"error","reason":"new_game: \"time_control\": time control \"*60\": sandclock controls (*N) are not supported"}`},
		{"bad action", CmdClock, `{"action":"wind"}`, nil, `{"status":"error","reason":"clock: \"action\" \"wind\": want \"pause\", \"resume\", \"add\" or \"set\""}`},
		{"no action", CmdClock, `{}`, nil, `{"status":"error","reason":"clock: \"action\" \"\": want \"pause\", \"resume\", \"add\" or \"set\""}`},
		{"add without side", CmdClock, `{"action":"add","ms":1000}`, nil, `{"status":"error","reason":"clock: side \"\": want \"white\" or \"black\""}`},
		{"add nothing", CmdClock, `{"action":"add","side":"white"}`, nil, `{"status":"error","reason":"clock: \"ms\" 0: want a non-zero number of milliseconds, at most 360000000 either way"}`},
		{"set zero", CmdClock, `{"action":"set","side":"white","ms":0}`, nil, `{"status":"error","reason":"clock: \"ms\" 0: want 1 to 360000000"}`},
		{"set a month", CmdClock, `{"action":"set","side":"white","ms":2592000000}`, nil, `{"status":"error","reason":"clock: \"ms\" 2592000000: want 1 to 360000000"}`},
		{"pause with a side", CmdClock, `{"action":"pause","side":"white"}`, nil, `{"status":"error","reason":"clock: \"side\" goes with add and set, not \"pause\""}`},
		{"resume with ms", CmdClock, `{"action":"resume","ms":5}`, nil, `{"status":"error","reason":"clock: \"ms\" goes with add and set, not resume"}`},
		{"ms not a number", CmdClock, `{"action":"set","side":"white","ms":"1m"}`, nil, `{"status":"error","reason":"clock: cannot unmarshal string into Go struct field .ms of type int64"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkDispatch(t, cmdRecorder{}, "", tt.cmd, tt.payload, tt.wantCmd, tt.wantReply)
		})
	}
}

// The state's clock is clock.Snapshot's JSON, and reads back.
func TestStateClock(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 123e6, time.UTC)
	snap := clock.Snapshot{Control: "180+2", WhiteMS: 171234, BlackMS: 180000, Running: "white", At: clock.Stamp{Time: at}}
	b, err := json.Marshal(State{Game: "g", Turn: rules.White, Result: ResultOngoing, Clock: &snap})
	if err != nil {
		t.Fatal(err)
	}
	want := `"clock":{"control":"180+2","white_ms":171234,"black_ms":180000,"running":"white","at":"2026-12-01T10:00:00.123Z"}`
	if !strings.Contains(string(b), want) {
		t.Errorf("state %s\nlacks %s", b, want)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil || back.Clock == nil || *back.Clock != snap {
		t.Errorf("read back: %+v, %v", back.Clock, err)
	}
	if b, _ := json.Marshal(State{Turn: rules.White}); strings.Contains(string(b), `"clock"`) {
		t.Errorf("a state without a clock has one: %s", b)
	}
}
