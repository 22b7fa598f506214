package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

type cmdRecorder struct {
	got []Command
	err error
	res any
}

func (r *cmdRecorder) Command(_ context.Context, c Command) (any, error) {
	r.got = append(r.got, c)
	return r.res, r.err
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name      string
		cmd       string
		payload   string
		token     string
		handler   cmdRecorder
		wantCmd   Command // nil: the handler must not be called
		wantReply string
	}{
		{"new game", CmdNewGame, `{"transaction":"t1","variant":"st3d"}`, "", cmdRecorder{}, NewGame{Variant: "st3d"}, `{"transaction":"t1","status":"ok"}`},
		{"new game from a position", CmdNewGame, `{"variant":"st3d","position":"P"}`, "", cmdRecorder{res: map[string]string{"game": "g2"}}, NewGame{Variant: "st3d", Position: "P"}, `{"status":"ok","data":{"game":"g2"}}`},
		{"new tournament game", CmdNewGame, `{"variant":"st3d","play":"tournament"}`, "", cmdRecorder{}, NewGame{Variant: "st3d", Play: "tournament"}, `{"status":"ok"}`},
		{"new lesson", CmdNewGame, `{"variant":"st3d","play":"lesson"}`, "", cmdRecorder{}, NewGame{Variant: "st3d", Play: "lesson"}, `{"status":"ok"}`},
		{"new game of an unknown play", CmdNewGame, `{"variant":"st3d","play":"blitz"}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"new_game: \"play\": play \"blitz\": want casual, tournament or lesson"}`},
		{"move from elsewhere", CmdMove, `{"transaction":"m1","move":"b2W-b4N"}`, "", cmdRecorder{}, PlayMove{Move: "b2W-b4N"}, `{"transaction":"m1","status":"ok"}`},
		{"move without a move", CmdMove, `{"transaction":"m2"}`, "", cmdRecorder{}, nil, `{"transaction":"m2","status":"error","reason":"move: \"move\" is required"}`},
		{"numeric transaction", CmdResync, `{"transaction":42}`, "", cmdRecorder{}, Resync{}, `{"transaction":42,"status":"ok"}`},
		{"promotion", CmdPromotion, `{"piece":"n"}`, "", cmdRecorder{}, Promotion{Piece: 'N'}, `{"status":"ok"}`},
		{"take back", CmdTakeBack, `{}`, "", cmdRecorder{}, TakeBack{}, `{"status":"ok"}`},
		{"take back two plies", CmdTakeBack, `{"plies":2}`, "", cmdRecorder{}, TakeBack{Plies: 2}, `{"status":"ok"}`},
		{"take back too many plies", CmdTakeBack, `{"plies":17}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"take_back: \"plies\" 17: want 1 to 16"}`},
		{"resolve accept", CmdResolve, `{"action":"accept"}`, "", cmdRecorder{}, Resolve{Action: "accept"}, `{"status":"ok"}`},
		{"resolve restore", CmdResolve, `{"action":"restore"}`, "", cmdRecorder{}, Resolve{Action: "restore"}, `{"status":"ok"}`},
		{"resolve unknown", CmdResolve, `{"action":"merge"}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"resolve: \"action\" \"merge\": want \"accept\" or \"restore\""}`},
		{"take back negative plies", CmdTakeBack, `{"plies":-1}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"take_back: \"plies\" -1: want 1 to 16"}`},
		{"resign", CmdResign, `{"side":"black"}`, "", cmdRecorder{}, Resign{Side: rules.Black}, `{"status":"ok"}`},
		{"draw claim", CmdDraw, `{"action":"claim","side":"white"}`, "", cmdRecorder{}, Draw{Action: DrawClaim, Side: rules.White}, `{"status":"ok"}`},
		{"token accepted", CmdResync, `{"token":"s3cret"}`, "s3cret", cmdRecorder{}, Resync{}, `{"status":"ok"}`},
		{"handler error", CmdTakeBack, `{"transaction":"x"}`, "", cmdRecorder{err: errors.New("no move to take back")}, TakeBack{}, `{"transaction":"x","status":"error","reason":"no move to take back"}`},

		{"token missing", CmdResync, `{"transaction":"t"}`, "s3cret", cmdRecorder{}, nil, `{"transaction":"t","status":"error","reason":"unauthorised: missing or wrong token"}`},
		{"token wrong", CmdResign, `{"side":"white","token":"guess"}`, "s3cret", cmdRecorder{}, nil, `{"status":"error","reason":"unauthorised: missing or wrong token"}`},
		{"not JSON", CmdResync, `resync please`, "", cmdRecorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"empty", CmdResync, ``, "", cmdRecorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"JSON array", CmdResync, `[1]`, "", cmdRecorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"JSON null", CmdResync, `null`, "", cmdRecorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"truncated", CmdNewGame, `{"transaction":"t","variant":"st3d"`, "", cmdRecorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"unknown command", "castle", `{"transaction":"t"}`, "", cmdRecorder{}, nil, `{"transaction":"t","status":"error","reason":"unknown command \"castle\""}`},
		{"unknown field", CmdNewGame, `{"transaction":"t","variant":"st3d","colour":"red"}`, "", cmdRecorder{}, nil, `{"transaction":"t","status":"error","reason":"new_game: unknown field \"colour\""}`},
		{"missing variant", CmdNewGame, `{"position":"P"}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"new_game: \"variant\" is required"}`},
		{"wrong type", CmdNewGame, `{"variant":3}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"new_game: cannot unmarshal number into Go struct field NewGame.variant of type string"}`},
		{"bad piece", CmdPromotion, `{"piece":"X"}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"promotion: \"piece\" \"X\": want \"Q\", \"R\", \"B\" or \"N\" (or \"K\", \"P\" for a placement)"}`},
		{"placement piece", CmdPromotion, `{"piece":"k"}`, "", cmdRecorder{}, Promotion{Piece: 'K'}, `{"status":"ok"}`},
		{"bad side", CmdResign, `{"side":"red"}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"resign: side \"red\": want \"white\" or \"black\""}`},
		{"no side", CmdResign, `{}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"resign: side \"\": want \"white\" or \"black\""}`},
		{"bad draw action", CmdDraw, `{"action":"maybe","side":"white"}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"draw: \"action\" \"maybe\": want \"offer\", \"accept\", \"decline\" or \"claim\""}`},
		{"bad transaction", CmdResync, `{"transaction":{"a":1}}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"\"transaction\" must be a string or a number"}`},
		{"extra field in fieldless command", CmdTakeBack, `{"moves":2}`, "", cmdRecorder{}, nil, `{"status":"error","reason":"take_back: unknown field \"moves\""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDispatch(t, tt.handler, tt.token, tt.cmd, tt.payload, tt.wantCmd, tt.wantReply)
		})
	}
}

// checkDispatch dispatches a command to h and checks the reply and what h
// got (wantCmd nil: h must not be called).
func checkDispatch(t *testing.T, h cmdRecorder, token, cmd, payload string, wantCmd Command, wantReply string) {
	t.Helper()
	resp := Dispatch(context.Background(), &h, token, cmd, []byte(payload))
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != wantReply {
		t.Errorf("reply %s\n want %s", b, wantReply)
	}
	var want []Command
	if wantCmd != nil {
		want = []Command{wantCmd}
	}
	if !reflect.DeepEqual(h.got, want) {
		t.Errorf("handler got %#v, want %#v", h.got, want)
	}
}
