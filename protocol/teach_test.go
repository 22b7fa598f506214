package protocol

import "testing"

// teach must change something (an empty one used to be an unlock), and its
// fields and new_game's assist are checked before the game sees them.
func TestTeachAndAssistPayloads(t *testing.T) {
	yes := true
	for _, tt := range []struct {
		name, cmd, payload string
		wantCmd            Command
		wantReply          string
	}{
		{"lock", CmdTeach, `{"lock":true}`, Teach{Lock: &yes}, `{"status":"ok"}`},
		{"limits and assistance", CmdTeach, `{"hints":{"white":5,"black":-1},"assist":{"black":"none"}}`,
			Teach{Hints: map[string]int{"white": 5, "black": -1}, Assist: map[string]string{"black": "none"}}, `{"status":"ok"}`},
		{"nothing", CmdTeach, `{}`, nil, `{"status":"error","reason":"teach: nothing to change: give \"lock\", \"hints\" or \"assist\""}`},
		{"lock not a bool", CmdTeach, `{"lock":"yes"}`, nil,
			`{"status":"error","reason":"teach: cannot unmarshal string into Go struct field Teach.lock of type bool"}`},
		{"unknown side", CmdTeach, `{"hints":{"red":1}}`, nil, `{"status":"error","reason":"teach: \"hints\": side \"red\": want \"white\" or \"black\""}`},
		{"limit out of range", CmdTeach, `{"hints":{"white":-3}}`, nil, `{"status":"error","reason":"teach: \"hints\": white: -3: want -1 (no limit) to 1000"}`},
		{"unknown level", CmdTeach, `{"assist":{"white":"lots"}}`, nil,
			`{"status":"error","reason":"teach: \"assist\": white: \"lots\": want \"full\", \"explain\" or \"none\""}`},
		{"unknown field", CmdTeach, `{"locked":true}`, nil, `{"status":"error","reason":"teach: unknown field \"locked\""}`},
		{"new game with assistance", CmdNewGame, `{"variant":"st3d","assist":{"white":"full","black":"none"}}`,
			NewGame{Variant: "st3d", Assist: map[string]string{"white": "full", "black": "none"}}, `{"status":"ok"}`},
		{"new game with a bad assistance", CmdNewGame, `{"variant":"st3d","assist":{"black":"some"}}`, nil,
			`{"status":"error","reason":"new_game: \"assist\": black: \"some\": want \"full\", \"explain\" or \"none\""}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkDispatch(t, cmdRecorder{}, "", tt.cmd, tt.payload, tt.wantCmd, tt.wantReply)
		})
	}
}
