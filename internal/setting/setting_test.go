package setting_test

import (
	"errors"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/setting"
)

func TestProblems(t *testing.T) {
	var ps setting.Problems
	if ps.Err("recognize") != nil {
		t.Fatal("no problems, an error")
	}
	ps.Between("settle", 10*time.Second, time.Millisecond, 5*time.Second)
	ps.Between("correction", 0, 0, time.Minute)
	ps.Add("preset", "%q: want one of %s", "mine", "ht16k33, apa102")
	err := ps.Err("leds")
	const want = `leds: settle: 10s: want 1ms to 5s; preset: "mine": want one of ht16k33, apa102`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	got := setting.Of(err)
	if len(got) != 2 || got[0] != (setting.Problem{Key: "settle", Msg: "10s: want 1ms to 5s"}) || got[1].Key != "preset" {
		t.Errorf("Of = %+v", got)
	}
	if other := setting.Of(errors.New("x")); len(other) != 1 || other[0] != (setting.Problem{Msg: "x"}) {
		t.Errorf("Of(other) = %+v", other)
	}
	if setting.Of(nil) != nil {
		t.Error("Of(nil) is not nil")
	}
}
