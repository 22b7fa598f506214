package mqtttest

import (
	"fmt"
	"testing"
)

// A failure shows a flood of messages as its count and its ends: 2,800
// messages make eight lines, not 2,800.
func TestSummaryShowsTheEnds(t *testing.T) {
	var msgs []Rec
	for i := range 2800 {
		msgs = append(msgs, Rec{Topic: "t", Payload: fmt.Sprintf(`{"transaction":%d}`, i), Retained: i == 0})
	}
	got := Summary(msgs)
	want := `2800 messages (1 retained)
  {"transaction":0} retained=true
  {"transaction":1} retained=false
  {"transaction":2} retained=false
  ... 2794 more ...
  {"transaction":2797} retained=false
  {"transaction":2798} retained=false
  {"transaction":2799} retained=false`
	if got != want {
		t.Errorf("summary of 2,800 messages:\n%s\nwant\n%s", got, want)
	}
	if got, want := Summary(msgs[:2]), "2 messages (1 retained)\n  {\"transaction\":0} retained=true\n  {\"transaction\":1} retained=false"; got != want {
		t.Errorf("summary of 2 messages:\n%s\nwant\n%s", got, want)
	}
}
