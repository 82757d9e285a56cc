package mcptool

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/siftd/sift/internal/siftclient"
)

// HTTPHandler serves the tools over streamable HTTP. Each tool call runs
// through api in-process as the caller whose Authorization header the
// MCP request carried; the handler does not check keys itself, so mount
// it behind the API's authentication.
func HTTPHandler(version string, api http.Handler) http.Handler {
	srv := NewServer(version, func(req *mcp.CallToolRequest) siftclient.Caller {
		auth := ""
		if req.Extra != nil && req.Extra.Header != nil {
			auth = req.Extra.Header.Get("Authorization")
		}
		return &siftclient.Handler{Handler: api, Authorization: auth}
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

// Stdio runs the tools over stdin and stdout, calling sift through c.
func Stdio(version string, c siftclient.Caller) *mcp.Server {
	return NewServer(version, func(*mcp.CallToolRequest) siftclient.Caller { return c })
}
