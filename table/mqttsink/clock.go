package mqttsink

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/table"
)

// clockCommand is the table command of an MQTT clock command.
func clockCommand(c mqtt.Clock) (table.Command, error) {
	a, ok := map[string]table.ClockAction{mqtt.ClockPause: table.ClockPause, mqtt.ClockResume: table.ClockResume,
		mqtt.ClockAdd: table.ClockAdd, mqtt.ClockSet: table.ClockSet}[c.Action]
	if !ok {
		return nil, fmt.Errorf("clock action %q: want pause, resume, add or set", c.Action)
	}
	return table.Clock{Action: a, Side: c.Side, D: time.Duration(c.MS) * time.Millisecond}, nil
}
