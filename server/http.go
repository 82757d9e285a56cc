package server

import (
	"net/http"
	"time"
)

// Timeouts bound what a client may hold: a slow or idle client cannot keep
// a connection, and so cannot starve the others.
type Timeouts struct {
	ReadHeader time.Duration // the request line and headers
	Read       time.Duration // the whole request, 64 KiB at most
	Write      time.Duration // the answer, which may wait for a fetch
	Idle       time.Duration // a kept-alive connection between requests
}

// DefaultTimeouts are the production values.
var DefaultTimeouts = Timeouts{
	ReadHeader: 10 * time.Second,
	Read:       30 * time.Second,
	Write:      5 * time.Minute,
	Idle:       60 * time.Second,
}

// HTTPServer returns the http.Server that serves s with the given timeouts.
func (s *Server) HTTPServer(t Timeouts) *http.Server {
	return NewHTTPServer(s.Handler(), t)
}

// NewHTTPServer returns the http.Server that serves h with the given
// timeouts.
func NewHTTPServer(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
	}
}
