package protocol

import (
	"strings"
	"testing"
)

// Issue 34: new_game may give the other set's key, which must be a key,
// and only for another set.
func TestNewGameOpponentKey(t *testing.T) {
	const key = "ed25519:11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="
	for _, tc := range []struct {
		payload, want string
	}{
		{`{"variant":"st3d","opponent":{"set":"klingon","key":"` + key + `"}}`, ""},
		{`{"variant":"st3d","opponent":{"set":"klingon","key":"ed25519:AAAA"}}`, `new_game: "opponent": public key "ed25519:AAAA": 3 bytes, want 32`},
		{`{"variant":"st3d","opponent":{"engine":3,"key":"` + key + `"}}`, `new_game: "opponent": "key" is another set's: give "set" too`},
	} {
		cmd, _, _, err := ParseCommand(CmdNewGame, []byte(tc.payload))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.payload, err)
		case tc.want == "" && cmd.(NewGame).Opponent.Key != key:
			t.Errorf("%s: key %q", tc.payload, cmd.(NewGame).Opponent.Key)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.payload, err, tc.want)
		}
	}
}
