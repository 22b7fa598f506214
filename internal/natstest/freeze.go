package natstest

import (
	"net"
	"sync"
	"testing"
)

// A node that dies hard (a power cut, a pulled cable, a frozen process)
// sends no TCP reset: its clients' connections stay open and silent until
// something of theirs times out. StartFreezable puts a small TCP proxy in
// front of every node's MQTT listener, so that a test can freeze a node as
// its clients see it (Freeze) without root and without stopping the test
// process: a frozen proxy accepts connections, reads what clients send and
// holds it, and forwards nothing either way nor closes anything until
// Thaw, which forwards what it held, in order, as a process that was
// stopped and goes on (SIGSTOP, then SIGCONT). Freeze then Kill is a node
// whose power was cut: the cluster loses it, its clients hear nothing.

// StartFreezable is Start, with every node's MQTT URL (MQTT, Brokers) on a
// freezable proxy in front of the node.
func StartFreezable(t testing.TB, n int) *Cluster {
	return start(t, n, true)
}

// Freeze freezes node i for its MQTT clients (StartFreezable): from now
// on nothing passes either way between them, and nothing is closed. The
// node itself runs on, in its cluster, unless it is killed too.
func (c *Cluster) Freeze(i int) { c.proxy(i).setFrozen(true) }

// Thaw ends Freeze: what the proxy held goes through, in order, and the
// connections whose other side closed meanwhile are closed.
func (c *Cluster) Thaw(i int) { c.proxy(i).setFrozen(false) }

func (c *Cluster) proxy(i int) *proxy {
	p := c.nodes[i].proxy
	if p == nil {
		c.t.Fatalf("natstest: node %d has no proxy to freeze: start the cluster with StartFreezable", i)
	}
	return p
}

// proxy forwards TCP connections from its listener to target, and can be
// frozen.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	thawed chan struct{} // closed while not frozen
	conns  map[net.Conn]bool
	closed bool
}

func newProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("natstest: proxy for %s: %v", target, err)
	}
	p := &proxy{ln: ln, target: target, thawed: make(chan struct{}), conns: map[net.Conn]bool{}}
	close(p.thawed)
	go p.accept()
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) setFrozen(frozen bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
		if frozen {
			p.thawed = make(chan struct{})
		}
	default:
		if !frozen {
			close(p.thawed)
		}
	}
}

// gate returns once the proxy is not frozen.
func (p *proxy) gate() {
	p.mu.Lock()
	ch := p.thawed
	p.mu.Unlock()
	<-ch
}

// track remembers a connection to close with the proxy; false when the
// proxy is closed.
func (p *proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	p.conns[c] = true
	return true
}

func (p *proxy) accept() {
	for {
		cli, err := p.ln.Accept() // a frozen process's kernel accepts too
		if err != nil {
			return
		}
		if !p.track(cli) {
			return
		}
		go p.serve(cli)
	}
}

func (p *proxy) serve(cli net.Conn) {
	p.gate()
	srv, err := net.Dial("tcp", p.target)
	if err != nil || !p.track(srv) {
		cli.Close()
		return
	}
	var once sync.Once
	end := func() {
		once.Do(func() {
			cli.Close()
			srv.Close()
			p.mu.Lock()
			delete(p.conns, cli)
			delete(p.conns, srv)
			p.mu.Unlock()
		})
	}
	go p.pipe(srv, cli, end)
	p.pipe(cli, srv, end)
}

// pipe copies from src to dst, holding each chunk while the proxy is
// frozen; the end of src (or a failed write) ends both, once thawed.
func (p *proxy) pipe(dst, src net.Conn, end func()) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		p.gate()
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				end()
				return
			}
		}
		if err != nil { // io.EOF or a closed connection
			end()
			return
		}
	}
}

// close stops the proxy and closes its connections, frozen or not.
func (p *proxy) close() {
	p.mu.Lock()
	p.closed = true
	conns := p.conns
	p.conns = map[net.Conn]bool{}
	select {
	case <-p.thawed:
	default:
		close(p.thawed)
	}
	p.mu.Unlock()
	p.ln.Close()
	for c := range conns {
		c.Close()
	}
}
