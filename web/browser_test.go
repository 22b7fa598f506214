package web

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

// The browser tests drive Debian's headless Chromium with chromedp. Without
// a chromium they are skipped, except under CI (the CI variable set), where
// they fail.

var (
	browserOnce sync.Once
	browserCtx  contextT
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

// browser returns a new tab of the one headless Chromium of the test run.
func browser(t testing.TB) context.Context {
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
		if os.Getenv("CI") != "" {
			t.Fatalf("browser test under CI: %v", browserErr)
		}
		t.Skipf("browser test: %v", browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancel2 := context.WithTimeout(ctx, 20*time.Second)
	t.Cleanup(cancel2)
	t.Cleanup(func() {
		if t.Failed() {
			shot(t, ctx, "failure")
		}
	})
	return ctx
}

// shot saves a screenshot of the tab under testdata/failures (kept out of
// git) and logs where.
func shot(t testing.TB, ctx context.Context, what string) string {
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

// serve starts srv on a free loopback port (or addr) and returns its URL.
func serve(t testing.TB, h http.Handler, addr string) (string, func()) {
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

// waitJS polls a JavaScript condition in the page until it is true.
func waitJS(t testing.TB, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](piecesJS+"; "+expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %s: %v", what, expr, err)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func evalJS[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// flatPieces is the flat view's pieces: cell -> letter, for the squares
// that exist.
const flatPieces = `piecesIn('#flat')`

// piecesJS defines piecesIn(sel) in the page: the pieces in the flat view
// under sel, by cell name, in sorted order (as Go writes a map).
const piecesJS = `window.piecesIn = sel => Object.fromEntries([...document.querySelectorAll(sel + ' .cell:not(.absent) .piece')].map(p => [p.parentNode.dataset.cell, p.dataset.piece]).sort((a, b) => a[0] < b[0] ? -1 : 1)); true`

func colours(t testing.TB, b []byte) int {
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

type contextT = context.Context
