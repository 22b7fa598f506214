package leds_test

import (
	"fmt"
	"log"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sim"
)

// A player lifts the pawn on b2W in the start position: its four legal
// targets light, on two levels. The LEDs are the reference build's HT16K33,
// here the simulator's.
func Example() {
	cells := st3d.System.Cells()
	layout, err := leds.ReferenceMapping().Layout(cells)
	if err != nil {
		log.Fatal(err)
	}
	bus := sim.NewBus("i2c-1")
	chip := sim.NewHT16K33(0x71)
	if err := bus.Attach(0x71, chip); err != nil {
		log.Fatal(err)
	}
	ho := leds.DefaultHT16K33Opts()
	drv, err := leds.NewHT16K33(bus, &ho)
	if err != nil {
		log.Fatal(err)
	}
	wo := leds.DefaultWriterOpts()
	w := leds.NewWriter(drv, layout, &wo)

	p := st3d.Start()
	lifted := rules.CellSetOf(st3d.SquareCell(mustSquare("b2W")))
	v := leds.ViewFor(p, lifted)
	w.Show(&v) // never blocks; the writer's goroutine writes the frame
	w.Sync()   // waits until it did
	for c, name := range cells {
		if chip.LED(layout.LED(rules.Cell(c))) {
			fmt.Println(name)
		}
	}
	if err := w.Close(); err != nil { // turns the LEDs off
		log.Fatal(err)
	}
	fmt.Println("lit after Close:", chip.Lit())
	// Output:
	// b3W
	// b4W
	// b3N
	// b4N
	// lit after Close: false
}

func mustSquare(name string) st3d.Square {
	s, err := st3d.ParseSquare(name)
	if err != nil {
		log.Fatal(err)
	}
	return s
}
