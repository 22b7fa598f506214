package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/table/printsink"
)

func init() {
	register("demo", "play a built-in game on the simulated board, through the whole pipeline", runDemo)
}

// minDemoPause is the shortest pause between two hand actions of the
// demo, in ms: the sensors' debounce and two scans.
const minDemoPause = 40

func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("demo", demoUsage,
		"Plays a built-in game on the simulated board with the lifts and placements a\n"+
			"person would make, and the set's buttons: the piece of a promotion or of a\n"+
			"placement is chosen with its button. With --clock the game is played on the\n"+
			"set's clock: Black's press starts it, and after each move the mover taps\n"+
			"their clock button, which completes the move. Each move goes through the\n"+
			"scanner, the recognizer, the game journal and the embedded MQTT broker, and\n"+
			"is printed as a subscriber receives it. Needs no hardware and nothing\n"+
			"installed.", stdout, stderr)
	pause := fs.Int("pause", 150, fmt.Sprintf("milliseconds between two hand actions (%d or more)", minDemoPause))
	variant := fs.String("variant", systems.Default().Name(), "rule system: "+systemNames())
	options := fs.String("options", "", optionsUsage)
	logLevel := fs.String("log-level", "warn", "debug, info, warn or error")
	tc := fs.String("clock", "", "time control of the game on the set's clock, as PGN writes it (3+2 is 180+2; 300, 180+2, 300d3)")
	moves := fs.Int("moves", 0, "play the game's first N moves only (0: all of them)")
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if *moves < 0 {
		fmt.Fprintf(stderr, "tridboard demo: --moves %d: want 0 (the whole game) or more\n", *moves)
		return exitUsage
	}
	if _, err := config.ParseLevel(*logLevel); err != nil || fs.NArg() != 0 || *pause < 0 {
		fmt.Fprintln(stderr, "usage: tridboard demo "+demoUsage)
		return exitUsage
	}
	control, err := demoClock(*tc)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard demo: --clock %s: %v\n", *tc, err)
		return exitUsage
	}
	if *pause < minDemoPause {
		// Faster, a capture's victim would be swapped for its captor within
		// the debounce: the sensors never see its square empty, and the
		// reading is a piece held in the hand (docs/design.md, Limits).
		fmt.Fprintf(stderr, "tridboard demo: --pause %d: a hand that fast swaps a capture's pieces within the sensors' %d ms debounce, which no set can see; give %d or more\n",
			*pause, sensors.DefaultOpts().Debounce.Milliseconds(), minDemoPause)
		return exitUsage
	}
	sys, err := systemFor(*variant, *options)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard demo: %v\n", err)
		return exitUsage
	}
	demoGame, err := sets.DemoMoves(sys)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard demo: %v\n", err)
		return exitFailure
	}
	if *moves > 0 && *moves < len(demoGame) {
		demoGame = demoGame[:*moves]
	}
	dir, err := os.MkdirTemp("", "tridboard-demo-")
	if err != nil {
		fmt.Fprintf(stderr, "tridboard demo: %v\n", err)
		return exitFailure
	}
	defer os.RemoveAll(dir)
	cfg := config.Default()
	cfg.StateDir, cfg.BoardID, cfg.LogLevel = dir, "demo", *logLevel
	cfg.Variant, cfg.Options = *variant, *options
	// control is "" or checked by demoClock.
	cfg.Clock.Default = clock.MustParse(control)
	cfg.MQTT.Listen = "127.0.0.1:0" // a free port: never in the way of a running broker
	cfg.HTTP.Listen = "127.0.0.1:8080"
	if l, err := net.Listen("tcp", cfg.HTTP.Listen); err == nil {
		l.Close()
	} else {
		cfg.HTTP.Listen = "127.0.0.1:0" // 8080 is taken: any free port
	}
	cfg.MQTT.Discovery = ""

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fmt.Fprintf(stdout, "tridboard demo: %s, simulated down to the I2C registers.\n", setName(sys))
	fmt.Fprintln(stdout, "A hand lifts and places pieces; the scanner reads the MCP23017 expanders,")
	fmt.Fprintln(stdout, "the recognizer turns occupancy into moves, the game journals them, and the")
	fmt.Fprintln(stdout, "embedded MQTT broker publishes them. Each move below is printed when an MQTT")
	fmt.Fprintln(stdout, "subscriber receives it.")
	fmt.Fprintln(stdout)

	var (
		mu       sync.Mutex
		received []protocol.Move
		got      = make(chan struct{}, len(demoGame))
		failed   = false
	)
	o := daemonOpts{cfg: cfg, sim: true, stderr: stderr, log: newLogger(stderr, cfg.LogLevel)}
	o.onReady = func(d *daemon) {
		if d.webURL != "" {
			fmt.Fprintf(stdout, "Watch it in a browser: %s (the board: %sboards/%s)\n\n", d.webURL, d.webURL, cfg.BoardID)
		}
		topics, _ := mqtt.NewTopics(cfg.MQTT.Prefix, cfg.BoardID) // checked by the configuration
		fo := mqtt.DefaultFollowerOpts()
		fo.Broker, fo.Prefix, fo.Boards, fo.Name = d.broker.URL(), cfg.MQTT.Prefix, []string{cfg.BoardID}, "demo-display"
		sub, err := mqtt.Follow(fo, mqtt.Handlers{Move: func(_ string, m protocol.Move) {
			mu.Lock()
			received = append(received, m)
			mu.Unlock()
			fmt.Fprintf(stdout, "  published  seq %-2d %-14s %-12s (%s)%s\n", m.Seq, m.Move, m.SAN, topics.Move(), printsink.Times(d.tb.Snapshot().Clock))
			got <- struct{}{}
		}})
		if err == nil {
			rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
			err = sub.Ready(rctx)
			rcancel()
		}
		if err != nil {
			fmt.Fprintf(stderr, "tridboard demo: subscriber: %v\n", err)
			failed = true
			cancel()
			return
		}
		go func() {
			defer sub.Close()
			defer cancel()
			select {
			case <-d.tb.Synced():
			case <-ctx.Done():
				return
			}
			if !playDemo(ctx, d, stdout, demoGame, time.Duration(*pause)*time.Millisecond, control != "", got) {
				failed = true
				return
			}
			if d.webURL != "" && interactive() {
				// Someone is watching: keep the pages up until Ctrl-C.
				fmt.Fprintf(stdout, "\nThe game is over; its page stays at %s until Ctrl-C.\n", d.webURL)
				<-ctx.Done()
			}
		}()
	}
	code := serve(ctx, o)
	mu.Lock()
	defer mu.Unlock()
	ok := !failed && code == exitOK && len(received) == len(demoGame)
	for i := 0; ok && i < len(received); i++ {
		ok = received[i].Seq == i+1 && received[i].Move == demoGame[i]
	}
	if !ok {
		fmt.Fprintf(stdout, "\ndemo FAILED: %d of %d moves arrived in order\n", len(received), len(demoGame))
		return exitFailure
	}
	fmt.Fprintf(stdout, "\nAll %d moves were recognized, journaled and published in order.\n", len(demoGame))
	return exitOK
}

const demoUsage = "[--variant V] [--options LIST] [--pause MS] [--clock TC] [--moves N] [--log-level L]"

// demoClock reads --clock: "" (no clock), a time control as PGN writes it,
// or minutes+seconds as players say it ("3+2", "5": minutes when under
// 60 and written without a unit, as no one plays a 3-second game).
func demoClock(tc string) (string, error) {
	if tc == "" {
		return "", nil
	}
	base, inc, hasInc := strings.Cut(tc, "+")
	if n, err := strconv.Atoi(base); err == nil && n > 0 && n < 60 {
		tc = strconv.Itoa(60 * n)
		if hasInc {
			tc += "+" + inc
		}
	}
	c, err := clock.Parse(tc)
	if err != nil {
		return "", err
	}
	if c.None() {
		return "", errors.New("no time control")
	}
	return c.String(), nil
}

// clockButton is the name of side's clock button.
func clockButton(side rules.Color) string {
	if side == rules.Black {
		return "clock_black"
	}
	return "clock_white"
}
