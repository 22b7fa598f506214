package web_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/web"
)

// TestHubOptsValidate: the defaults are valid; a delay over an hour is
// named by its yaml key with what it accepts.
func TestHubOptsValidate(t *testing.T) {
	o := web.DefaultOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.Delay = 2 * time.Hour
	const want = "web: delay: 2h0m0s: want 0s to 1h0m0s"
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
