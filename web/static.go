package web

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
)

// compressed serves the embedded static files gzip-compressed to the
// clients that accept it (three.js is 687 KB, 170 KB compressed), each file
// compressed once, on its first request.
type compressed struct {
	files fs.FS
	plain http.Handler
	mu    sync.Mutex
	cache map[string][]byte
}

func newCompressed(files fs.FS) *compressed {
	return &compressed{files: files, plain: http.FileServerFS(files), cache: map[string][]byte{}}
}

// compressible are the kinds of file worth compressing.
var compressible = map[string]string{
	".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml", ".html": "text/html; charset=utf-8",
}

func (c *compressed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	ctype, ok := compressible[path.Ext(name)]
	if !ok || !acceptsGzip(r) {
		c.plain.ServeHTTP(w, r)
		return
	}
	b, err := c.gz(name)
	if err != nil {
		c.plain.ServeHTTP(w, r) // not there: the file server says so
		return
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Encoding", "gzip")
	h.Add("Vary", "Accept-Encoding")
	w.Write(b)
}

func (c *compressed) gz(name string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.cache[name]; ok {
		return b, nil
	}
	raw, err := fs.ReadFile(c.files, name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	c.cache[name] = buf.Bytes()
	return buf.Bytes(), nil
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}
