package web

import (
	"context"
	"net/http"
	"testing"

	"github.com/tridboard/tridboard/web/webtest"
)

type contextT = context.Context

func browser(t testing.TB) context.Context { return webtest.Browser(t) }

func serve(t testing.TB, h http.Handler, addr string) (string, func()) {
	return webtest.Serve(t, h, addr)
}

// waitJS polls a condition in the page, with piecesIn defined.
func waitJS(t testing.TB, ctx context.Context, what, expr string) {
	t.Helper()
	webtest.WaitJS(t, ctx, what, piecesJS+"; "+expr)
}

func evalJS[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	return webtest.Eval[T](t, ctx, expr)
}

func colours(t testing.TB, b []byte) int { return webtest.Colours(t, b) }

// flatPieces is the flat view's pieces: cell -> letter, for the squares
// that exist.
const flatPieces = `piecesIn('#flat')`

// piecesJS defines piecesIn(sel) in the page: the pieces in the flat view
// under sel, by cell name, in sorted order (as Go writes a map).
const piecesJS = `window.piecesIn = sel => Object.fromEntries([...document.querySelectorAll(sel + ' .cell:not(.absent) .piece')].map(p => [p.parentNode.dataset.cell, p.dataset.piece]).sort((a, b) => a[0] < b[0] ? -1 : 1)); true`
