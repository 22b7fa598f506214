// Package webtest drives a headless Chromium for the tests of the web
// displays (package web, cmd/tridboard): one browser per test process, a
// tab per test, a screenshot when a test fails.
package webtest

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var (
	browserOnce sync.Once
	browserCtx  context.Context
	browserErr  error
)

func chromiumPath() (string, error) {
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("no chromium (apt-get install -y chromium)")
}

// Browser returns a new tab of the one headless Chromium of the test run
// (Debian's chromium, or $CHROMIUM). Without a chromium the test fails:
// the pages are tested, never skipped (apt-get install chromium).
func Browser(t testing.TB) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		path, err := chromiumPath()
		if err != nil {
			browserErr = err
			return
		}
		dir, err := os.MkdirTemp("", "tridboard-chromium-")
		if err != nil {
			browserErr = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(dir),
			chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
			chromedp.Flag("enable-unsafe-swiftshader", true), chromedp.Flag("use-angle", "swiftshader"),
			chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1400, 1000),
		}
		actx, _ := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, _ := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil {
			browserErr = fmt.Errorf("starting chromium: %w", err)
			return
		}
		browserCtx = bctx
	})
	if browserErr != nil {
		t.Fatalf("browser test: %v", browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	// Generous: a busy machine (several test runs on two cores) draws the
	// 3D view of a page in seconds; a passing test waits only as needed.
	ctx, cancel2 := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel2)
	t.Cleanup(func() {
		if t.Failed() {
			Shot(t, ctx, "failure")
		}
	})
	return ctx
}

// Shot saves a screenshot of the tab, under testdata/failures for a
// failure (kept out of git), and logs where.
func Shot(t testing.TB, ctx context.Context, what string) string {
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	buf, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot: %v", err)
		return ""
	}
	dir := filepath.Join("testdata", "failures")
	if what != "failure" {
		dir = t.TempDir()
	}
	os.MkdirAll(dir, 0o755)
	name := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+"-"+what+".png")
	if err := os.WriteFile(name, buf, 0o644); err != nil {
		t.Logf("screenshot: %v", err)
		return ""
	}
	abs, _ := filepath.Abs(name)
	t.Logf("screenshot: %s", abs)
	return abs
}

// Serve serves h on a free loopback port (or addr) until the test ends or
// stop is called, and returns its URL.
func Serve(t testing.TB, h http.Handler, addr string) (string, func()) {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // a restart may find the port still closing
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	s := &http.Server{Handler: h}
	go s.Serve(ln)
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.Shutdown(ctx)
		s.Close()
	}
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), stop
}

// WaitJS polls a JavaScript condition in the page until it is true, for
// 30 s at most (a busy machine).
func WaitJS(t testing.TB, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %s: %v", what, expr, err)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// Eval evaluates a JavaScript expression in the page.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// Colours counts the distinct colours (4 bits a channel) of a PNG, sampled
// every third pixel: 1 for a blank image.
func Colours(t testing.TB, b []byte) int {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint32]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 3 {
		for x := r.Min.X; x < r.Max.X; x += 3 {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			seen[(cr>>12)<<12|(cg>>12)<<8|(cb>>12)<<4|ca>>12] = true
		}
	}
	return len(seen)
}
