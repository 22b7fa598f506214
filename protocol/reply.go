package protocol

import (
	"context"
	"crypto/subtle"
	"encoding/json"
)

// Handler acts on commands; the daemon implements it. Command is called from
// one goroutine, one command at a time, with a context that ends when the
// client closes. The result, if not nil, is sent back as the "data" of the
// reply; an error is sent back as its "reason".
type Handler interface {
	Command(ctx context.Context, c Command) (result any, err error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, c Command) (any, error)

// Command calls f.
func (f HandlerFunc) Command(ctx context.Context, c Command) (any, error) { return f(ctx, c) }

// Response statuses.
const (
	StatusOK    = "ok"
	StatusError = "error"
	// StatusBusy: the command did not run because too many were waiting.
	StatusBusy = "busy"
)

// Response is the payload of <base>/response/<command>.
type Response struct {
	// Transaction echoes the command's "transaction" (a string or number),
	// or is absent.
	Transaction json.RawMessage `json:"transaction,omitempty"`
	Status      string          `json:"status"`
	Reason      string          `json:"reason,omitempty"`
	Data        any             `json:"data,omitempty"`
}

// TransactionOf is a command's transaction, read without parsing the
// command: a malformed payload gets a reply without one.
func TransactionOf(payload []byte) json.RawMessage {
	var tr struct {
		Transaction json.RawMessage `json:"transaction"`
	}
	json.Unmarshal(payload, &tr)
	if t := tr.Transaction; len(t) > 0 && t[0] != '"' && t[0] != '-' && (t[0] < '0' || t[0] > '9') {
		return nil
	}
	return tr.Transaction
}

// Dispatch parses a command, checks its token when wantToken is not empty,
// and calls h. Malformed, unknown and unauthorised commands never reach h.
func Dispatch(ctx context.Context, h Handler, wantToken, name string, payload []byte) Response {
	cmd, r := Admit(wantToken, name, payload)
	if cmd == nil {
		return r
	}
	res, err := h.Command(ctx, cmd)
	return Answer(r, res, err)
}

// Admit parses a command and checks its token (when wantToken is not
// empty). It returns the command and the response to fill (its
// transaction), or a nil command and the error response.
func Admit(wantToken, name string, payload []byte) (Command, Response) {
	cmd, tr, token, err := ParseCommand(name, payload)
	if err != nil {
		return nil, Response{Transaction: tr, Status: StatusError, Reason: err.Error()}
	}
	if wantToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(wantToken)) != 1 {
		return nil, Response{Transaction: tr, Status: StatusError, Reason: "unauthorised: missing or wrong token"}
	}
	return cmd, Response{Transaction: tr}
}

// Answer fills r with a command's result: its data, or the error's reason.
func Answer(r Response, res any, err error) Response {
	if err != nil {
		r.Status, r.Reason = StatusError, err.Error()
	} else {
		r.Status, r.Data = StatusOK, res
	}
	return r
}
