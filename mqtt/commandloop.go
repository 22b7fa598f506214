package mqtt

import (
	"encoding/json"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/trust"
)

// commandLoop runs the queued commands one at a time, in the order
// received, and answers each. Arbiters' clock changes run at most one per
// Opts.ClockGap, and those waiting in the queue are coalesced (coalesce): a
// flood of them costs one journal record and one fsync per gap, not one per
// command.
func (c *Client) commandLoop() {
	defer c.wg.Done()
	var next paho.Message    // taken from the queue, not run yet
	var gap <-chan time.Time // fires when the next clock change may run
	for {
		m := next
		next = nil
		if m == nil {
			select {
			case m = <-c.cmds:
			case <-c.ctx.Done():
				return
			}
		}
		name, ok := c.topics.command(m.Topic())
		if !ok {
			continue
		}
		if m.Retained() {
			// A retained command would run again at every connection.
			c.reply(name, protocol.Response{Status: protocol.StatusError, Reason: "retained command ignored: publish commands without the retain flag"})
			continue
		}
		cmd, r := c.admit(name, m.Payload())
		if cmd == nil {
			c.reply(name, r)
			continue
		}
		rs := []protocol.Response{r}
		if ck, ok := cmd.(protocol.AdjustClock); ok {
			if gap != nil {
				select {
				case <-gap:
				case <-c.ctx.Done():
					return
				}
			}
			cmd, rs, next = c.coalesce(ck, rs)
			gap = nil
			if c.opts.ClockGap > 0 {
				gap, _ = c.opts.NewTimer(c.opts.ClockGap)
			}
		}
		res, err := c.handler.Command(c.ctx, cmd)
		for _, r := range rs {
			c.reply(name, protocol.Answer(r, res, err))
		}
	}
}

// coalesce takes from the queue, without waiting, the clock changes that
// follow ck and can join it: adds to the same side (summed, within the
// clock's bound) or sets of the same side (the last one counts). It returns
// the change to run, the responses to send (one per command, with its
// transaction) and the first message that could not join, if any. A
// command that does not parse or has a wrong token ends the run, to be
// answered in turn.
func (c *Client) coalesce(ck protocol.AdjustClock, rs []protocol.Response) (protocol.Command, []protocol.Response, paho.Message) {
	if ck.Action != protocol.ClockAdd && ck.Action != protocol.ClockSet {
		return ck, rs, nil
	}
	for {
		var m paho.Message
		select {
		case m = <-c.cmds:
		default:
			return ck, rs, nil
		}
		name, _ := c.topics.command(m.Topic())
		if name != protocol.CmdClock || m.Retained() {
			return ck, rs, m
		}
		cmd, r := c.admit(name, m.Payload())
		nk, isClock := cmd.(protocol.AdjustClock)
		if !isClock || nk.Action != ck.Action || nk.Side != ck.Side {
			return ck, rs, m
		}
		if ck.Action == protocol.ClockAdd {
			sum := ck.MS + nk.MS
			if sum == 0 || sum > protocol.MaxClockMS || sum < -protocol.MaxClockMS {
				return ck, rs, m
			}
			nk.MS = sum
		}
		ck = nk
		rs = append(rs, r)
	}
}

// admit parses and authenticates a command: signed by a sender of
// Opts.CommandAuth, or with Opts.CommandToken.
func (c *Client) admit(name string, payload []byte) (protocol.Command, protocol.Response) {
	a := c.opts.CommandAuth
	if a == nil {
		if s, err := trust.Open(payload); err == nil {
			// Signed by a sender this set was not told of: the token
			// decides, as for any command.
			payload = withoutTS(s.Body)
		}
		return protocol.Admit(c.opts.CommandToken, name, payload)
	}
	body, _, err := a.Check(c.opts.BoardID, name, payload)
	if err != nil {
		return nil, protocol.Response{Transaction: protocol.TransactionOf(payload), Status: protocol.StatusError,
			Reason: "unauthorised: " + err.Error()}
	}
	return protocol.Admit("", name, body)
}

// withoutTS is a signed command's fields without the "ts" the signature
// needs (commands do not take it).
func withoutTS(body []byte) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return body
	}
	delete(fields, "ts")
	b, err := json.Marshal(fields)
	if err != nil {
		return body
	}
	return b
}
