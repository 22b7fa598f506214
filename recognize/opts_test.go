package recognize_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/recognize"
)

// TestOptsValidate: the defaults are valid; each bad setting is named by
// its yaml key with what it accepts.
func TestOptsValidate(t *testing.T) {
	o := recognize.DefaultOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.Settle, o.Correction = 500*time.Millisecond, -time.Second
	const want = "recognize: settle_extended: 400ms: want 500ms to 5s; correction: -1s: want 0s to 1m0s"
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
