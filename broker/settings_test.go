package broker

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/setting"
)

// TestLimitsValidate: each bad limit is one problem keyed by its yaml
// name, saying what is accepted; all of them at once; 0 is the default.
func TestLimitsValidate(t *testing.T) {
	tests := []struct {
		name string
		l    Limits
		want setting.Problems
	}{
		{"zero: the defaults", Limits{}, nil},
		{"the defaults", DefaultLimits(), nil},
		{"negative", Limits{MaxSessions: -1}, setting.Problems{{Key: "max_sessions", Msg: "-1: want 0 (the default) or more"}}},
		{"queue", Limits{MaxQueued: 32768}, setting.Problems{{Key: "max_queued", Msg: "32768: want at most 32767"}}},
		{"packet", Limits{MaxPacketSize: 10}, setting.Problems{{Key: "max_packet_size", Msg: "10: want 1024 to 268435455 bytes (0: the default, 256 KiB)"}}},
		{"timeouts", Limits{ConnectTimeout: -time.Second, SessionExpiry: -time.Hour}, setting.Problems{
			{Key: "connect_timeout", Msg: "-1s: want 0 (the default, 5s) or more"},
			{Key: "session_expiry", Msg: "-1h0m0s: want 0 (the default, 168h) or more"}}},
		{"all in order", Limits{MaxConnectionsPerAddress: -2, MaxRetained: -3}, setting.Problems{
			{Key: "max_retained", Msg: "-3: want 0 (the default) or more"},
			{Key: "max_connections_per_address", Msg: "-2: want 0 (the default) or more"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := setting.Of(tt.l.Validate())
			if len(got) != len(tt.want) {
				t.Fatalf("problems = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("problem %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}
