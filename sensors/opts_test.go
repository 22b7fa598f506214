package sensors_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/sensors"
)

// TestOptsValidate: the defaults are valid; each bad setting is named by
// its yaml key with what it accepts.
func TestOptsValidate(t *testing.T) {
	o := sensors.DefaultOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.Period, o.Debounce = 0, 2*time.Second
	const want = "sensors: period: 0s: want 1ms to 1s; debounce: 2s: want 0s to 1s"
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
