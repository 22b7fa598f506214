package web

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tridboard/tridboard/mqtt"
)

// HandlerCommander is a Commander that runs the commands on h, the
// daemon's MQTT command handler, as if they came over MQTT: the payload is
// read by mqtt.ParseCommand, its token checked against token (when set),
// and h's result returned as JSON. board is not looked at: a daemon has one.
func HandlerCommander(h mqtt.Handler, token string) Commander {
	return handlerCommander{h, token}
}

type handlerCommander struct {
	h     mqtt.Handler
	token string
}

func (c handlerCommander) Command(ctx context.Context, board, name string, payload []byte) ([]byte, error) {
	cmd, _, tok, err := mqtt.ParseCommand(name, payload)
	if err != nil {
		return nil, err
	}
	if c.token != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(c.token)) != 1 {
		return nil, errors.New("unauthorised: missing or wrong token")
	}
	res, err := c.h.Command(ctx, cmd)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("%s: result: %w", name, err)
	}
	return b, nil
}
