package mqtt

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

type recorder struct {
	got []Command
	err error
	res any
}

func (r *recorder) Command(_ context.Context, c Command) (any, error) {
	r.got = append(r.got, c)
	return r.res, r.err
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name      string
		cmd       string
		payload   string
		token     string
		handler   recorder
		wantCmd   Command // nil: the handler must not be called
		wantReply string
	}{
		{"new game", CmdNewGame, `{"transaction":"t1","variant":"st3d"}`, "", recorder{}, NewGame{Variant: "st3d"}, `{"transaction":"t1","status":"ok"}`},
		{"new game from a position", CmdNewGame, `{"variant":"st3d","position":"P"}`, "", recorder{res: map[string]string{"game": "g2"}}, NewGame{Variant: "st3d", Position: "P"}, `{"status":"ok","data":{"game":"g2"}}`},
		{"numeric transaction", CmdResync, `{"transaction":42}`, "", recorder{}, Resync{}, `{"transaction":42,"status":"ok"}`},
		{"promotion", CmdPromotion, `{"piece":"n"}`, "", recorder{}, Promotion{Piece: 'N'}, `{"status":"ok"}`},
		{"take back", CmdTakeBack, `{}`, "", recorder{}, TakeBack{}, `{"status":"ok"}`},
		{"resign", CmdResign, `{"side":"black"}`, "", recorder{}, Resign{Side: rules.Black}, `{"status":"ok"}`},
		{"draw claim", CmdDraw, `{"action":"claim","side":"white"}`, "", recorder{}, Draw{Action: DrawClaim, Side: rules.White}, `{"status":"ok"}`},
		{"token accepted", CmdResync, `{"token":"s3cret"}`, "s3cret", recorder{}, Resync{}, `{"status":"ok"}`},
		{"handler error", CmdTakeBack, `{"transaction":"x"}`, "", recorder{err: errors.New("no move to take back")}, TakeBack{}, `{"transaction":"x","status":"error","reason":"no move to take back"}`},

		{"token missing", CmdResync, `{"transaction":"t"}`, "s3cret", recorder{}, nil, `{"transaction":"t","status":"error","reason":"unauthorised: missing or wrong token"}`},
		{"token wrong", CmdResign, `{"side":"white","token":"guess"}`, "s3cret", recorder{}, nil, `{"status":"error","reason":"unauthorised: missing or wrong token"}`},
		{"not JSON", CmdResync, `resync please`, "", recorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"empty", CmdResync, ``, "", recorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"JSON array", CmdResync, `[1]`, "", recorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"JSON null", CmdResync, `null`, "", recorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"truncated", CmdNewGame, `{"transaction":"t","variant":"st3d"`, "", recorder{}, nil, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
		{"unknown command", "castle", `{"transaction":"t"}`, "", recorder{}, nil, `{"transaction":"t","status":"error","reason":"unknown command \"castle\""}`},
		{"unknown field", CmdNewGame, `{"transaction":"t","variant":"st3d","colour":"red"}`, "", recorder{}, nil, `{"transaction":"t","status":"error","reason":"new_game: unknown field \"colour\""}`},
		{"missing variant", CmdNewGame, `{"position":"P"}`, "", recorder{}, nil, `{"status":"error","reason":"new_game: \"variant\" is required"}`},
		{"wrong type", CmdNewGame, `{"variant":3}`, "", recorder{}, nil, `{"status":"error","reason":"new_game: cannot unmarshal number into Go struct field NewGame.variant of type string"}`},
		{"bad piece", CmdPromotion, `{"piece":"K"}`, "", recorder{}, nil, `{"status":"error","reason":"promotion: \"piece\" \"K\": want \"Q\", \"R\", \"B\" or \"N\""}`},
		{"bad side", CmdResign, `{"side":"red"}`, "", recorder{}, nil, `{"status":"error","reason":"resign: side \"red\": want \"white\" or \"black\""}`},
		{"no side", CmdResign, `{}`, "", recorder{}, nil, `{"status":"error","reason":"resign: side \"\": want \"white\" or \"black\""}`},
		{"bad draw action", CmdDraw, `{"action":"maybe","side":"white"}`, "", recorder{}, nil, `{"status":"error","reason":"draw: \"action\" \"maybe\": want \"offer\", \"accept\", \"decline\" or \"claim\""}`},
		{"bad transaction", CmdResync, `{"transaction":{"a":1}}`, "", recorder{}, nil, `{"status":"error","reason":"\"transaction\" must be a string or a number"}`},
		{"extra field in fieldless command", CmdTakeBack, `{"moves":2}`, "", recorder{}, nil, `{"status":"error","reason":"take_back: unknown field \"moves\""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.handler
			resp := dispatch(context.Background(), &h, tt.token, tt.cmd, []byte(tt.payload))
			b, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.wantReply {
				t.Errorf("reply %s\n want %s", b, tt.wantReply)
			}
			var want []Command
			if tt.wantCmd != nil {
				want = []Command{tt.wantCmd}
			}
			if !reflect.DeepEqual(h.got, want) {
				t.Errorf("handler got %#v, want %#v", h.got, want)
			}
		})
	}
}
