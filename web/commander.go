package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tridboard/tridboard/protocol"
)

// HandlerCommander is a Commander that runs the commands on h, the
// daemon's command handler (protocol.TableHandler), as if they came over
// MQTT: the payload is admitted by protocol.Admit (parsed, its token checked
// against token when set), and h's result returned as JSON. board is not
// looked at: a daemon has one.
func HandlerCommander(h protocol.Handler, token string) Commander {
	return handlerCommander{h, token}
}

type handlerCommander struct {
	h     protocol.Handler
	token string
}

func (c handlerCommander) Command(ctx context.Context, board, name string, payload []byte) ([]byte, error) {
	cmd, r := protocol.Admit(c.token, name, payload)
	if cmd == nil {
		return nil, errors.New(r.Reason)
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
