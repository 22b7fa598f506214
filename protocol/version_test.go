package protocol_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/table/tabletest"
)

// A state says its version; a reader takes its own version and the
// unversioned states of older sets, and refuses a later version.
func TestStateVersion(t *testing.T) {
	st := protocol.StateOf(tabletest.Snapshots(1)[0])
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `{"v":1,`) {
		t.Errorf("state %s: want it to start with the version 1", b)
	}
	for _, tc := range []struct {
		json string
		err  string
	}{
		{`{"v":1,"game":"g","turn":"white"}`, ""},
		{`{"game":"g","turn":"white"}`, ""}, // before versioning
		{`{"v":2,"game":"g","turn":"white"}`, "state of version 2, this tridboard reads up to version 1: update it"},
	} {
		var s protocol.State
		if err := json.Unmarshal([]byte(tc.json), &s); err != nil {
			t.Fatalf("%s: %v", tc.json, err)
		}
		err := s.Supported()
		if (err == nil) != (tc.err == "") || err != nil && !strings.HasSuffix(err.Error(), tc.err) {
			t.Errorf("%s: Supported() = %v, want %q", tc.json, err, tc.err)
		}
	}
}
