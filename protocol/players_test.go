package protocol

import "testing"

// new_game carries the players' ratings, titles and FIDE ids (issue 25:
// the displays show them, the record writes WhiteElo, WhiteTitle, ...);
// a rating or id that is not digits, a title that is not capitals, is
// refused.
func TestNewGamePlayers(t *testing.T) {
	for _, tt := range []struct {
		name, payload string
		wantCmd       Command
		wantReply     string
	}{
		{"ratings and titles", `{"variant":"st3d","white":"Kirk","white_elo":"2712","white_title":"GM","black_elo":"2650","black_title":"WIM","white_fide_id":"1503014","black_fide_id":"4100018"}`,
			NewGame{Variant: "st3d", White: "Kirk", WhiteElo: "2712", WhiteTitle: "GM", BlackElo: "2650", BlackTitle: "WIM", WhiteFideID: "1503014", BlackFideID: "4100018"}, `{"status":"ok"}`},
		{"bad rating", `{"variant":"st3d","white_elo":"27x0"}`, nil, `{"status":"error","reason":"new_game: \"white_elo\": \"27x0\": want digits"}`},
		{"bad id", `{"variant":"st3d","black_fide_id":"-1"}`, nil, `{"status":"error","reason":"new_game: \"black_fide_id\": \"-1\": want digits"}`},
		{"bad title", `{"variant":"st3d","black_title":"Gm"}`, nil, `{"status":"error","reason":"new_game: \"black_title\": \"Gm\": want a title in capitals (GM, IM, WFM, ...)"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkDispatch(t, cmdRecorder{}, "", CmdNewGame, tt.payload, tt.wantCmd, tt.wantReply)
		})
	}
}
