package mcptool

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/siftd/sift/internal/siftclient"
)

// HTTPOptions configure the tools over streamable HTTP.
type HTTPOptions struct {
	// PublicURL is the address clients reach sift at (config's
	// public_url): its host is taken in a Host header beside loopback's,
	// and its origin in an Origin header beside loopback's, so /mcp
	// works behind a reverse proxy that keeps the Host header.
	PublicURL string
	// SessionsPerCaller bounds one key's open sessions: a new one closes
	// that key's least recently used (DefaultSessionsPerCaller when 0).
	SessionsPerCaller int
	// Sessions bounds the open sessions of all keys: past it a new one is
	// refused with 503 (DefaultSessions when 0).
	Sessions int
	// SessionIdle closes a session that has had no request for this long
	// (DefaultSessionIdle when 0).
	SessionIdle time.Duration
}

// The session bounds an operator gets unless the options say otherwise.
const (
	DefaultSessionsPerCaller = 16
	DefaultSessions          = 1024
	DefaultSessionIdle       = 10 * time.Minute
)

// HTTP serves the tools over streamable HTTP. Each tool call runs through
// the API in-process as the caller whose Authorization header the MCP
// request carried; HTTP does not check keys itself, so serve it behind the
// API's authentication, which names the caller to Serve.
type HTTP struct {
	sdk      http.Handler
	sessions *sessions
	hosts    []string // the Host names taken beside loopback's
	origins  []string // the Origins taken beside loopback's
}

// NewHTTP returns the tools over streamable HTTP, calling api in-process.
func NewHTTP(version string, api http.Handler, opts HTTPOptions) *HTTP {
	srv := NewServer(version, func(req *mcp.CallToolRequest) siftclient.API {
		auth := ""
		if req.Extra != nil && req.Extra.Header != nil {
			auth = req.Extra.Header.Get("Authorization")
		}
		return &siftclient.Handler{Handler: api, Authorization: auth}
	})
	if opts.SessionIdle <= 0 {
		opts.SessionIdle = DefaultSessionIdle
	}
	h := &HTTP{
		// The SDK's own Host check refuses every name but loopback's on a
		// loopback listener; Serve does it with the public name taken too.
		sdk: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{SessionTimeout: opts.SessionIdle, DisableLocalhostProtection: true}),
		sessions: newSessions(srv, opts),
	}
	if u, err := url.Parse(opts.PublicURL); err == nil && u.Host != "" {
		h.hosts = []string{u.Hostname()}
		h.origins = []string{u.Scheme + "://" + u.Host}
	}
	return h
}

// Serve answers one /mcp request of owner, the caller's identity (its key
// hash): a session is owner's alone, and another key is told it does not
// exist.
func (h *HTTP) Serve(w http.ResponseWriter, r *http.Request, owner string) {
	if !h.hostTaken(r) {
		http.Error(w, "Forbidden: invalid Host header "+quote(r.Host)+": set public_url to the name clients reach sift by", http.StatusForbidden)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !h.originTaken(origin) {
		http.Error(w, "Forbidden: Origin "+quote(origin)+" is not sift's (public_url)", http.StatusForbidden)
		return
	}
	if id := r.Header.Get(sessionHeader); id != "" {
		if !h.sessions.use(id, owner) {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		h.sdk.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		h.sdk.ServeHTTP(w, r) // the SDK's own answer to a GET or DELETE without a session
		return
	}
	slot, ok := h.sessions.admit(owner)
	if !ok {
		w.Header().Set("Retry-After", "60")
		http.Error(w, "sift holds as many MCP sessions as it takes: try again later", http.StatusServiceUnavailable)
		return
	}
	sw := &sessionWriter{ResponseWriter: w, opened: slot.opened}
	defer slot.release()
	h.sdk.ServeHTTP(sw, r)
}

// hostTaken keeps a browser on a page of another name from reaching a
// loopback sift through DNS rebinding: on a loopback listener the Host
// must be loopback's or the public URL's.
func (h *HTTP) hostTaken(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !isLoopback(local.String()) || isLoopback(r.Host) {
		return true
	}
	host := r.Host
	if name, _, err := net.SplitHostPort(host); err == nil {
		host = name
	}
	for _, taken := range h.hosts {
		if strings.EqualFold(host, taken) {
			return true
		}
	}
	return false
}

// originTaken says whether a browser page at origin may call the tools:
// sift's own public origin, or a page on loopback.
func (h *HTTP) originTaken(origin string) bool {
	for _, taken := range h.origins {
		if strings.EqualFold(origin, taken) {
			return true
		}
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && isLoopback(u.Host)
}

// isLoopback says whether addr (a host, or host:port) is a loopback one.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func quote(s string) string {
	if len(s) > 100 {
		s = s[:100]
	}
	return `"` + strings.ToValidUTF8(s, "?") + `"`
}

// Stdio runs the tools over stdin and stdout, calling sift through c.
func Stdio(version string, c siftclient.API) *mcp.Server {
	return NewServer(version, func(*mcp.CallToolRequest) siftclient.API { return c })
}
