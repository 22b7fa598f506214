package leds

// Driver shows frames on LEDs. A Writer calls it from one goroutine.
type Driver interface {
	// String names the device for messages, such as "ht16k33 0x71".
	String() string
	// NumLEDs is the number of LEDs it drives.
	NumLEDs() int
	// Write shows f. After a failed Write, the next Write sets the device
	// up again before showing the frame.
	Write(f *Frame) error
	// Halt turns every LED off.
	Halt() error
}
