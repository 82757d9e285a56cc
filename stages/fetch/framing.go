package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"sync/atomic"
)

// A server that sends more than its Content-Length declared is lying about
// the body: Go's client stops at the declared length, so sift would return
// a cut body as if it were whole. Counting what the socket delivered
// catches it: after a complete HTTP/1 response, nothing more may arrive.

// countingConn counts the bytes read from the socket.
type countingConn struct {
	net.Conn
	read atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// framing follows one exchange: the connection it used, where its byte
// count stood when the exchange began, and the bytes of any 1xx responses.
type framing struct {
	conn    *countingConn
	start   int64
	interim int64
}

// trace wires f into a request's context.
func (f *framing) trace(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if cc, ok := info.Conn.(*countingConn); ok {
				f.conn, f.start = cc, cc.read.Load()
			}
		},
		Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			f.interim += int64(len("HTTP/1.1 100 Continue\r\n\r\n")) + headerBytes(http.Header(h))
			return nil
		},
	})
}

// slack absorbs the difference between the header bytes as sent and as
// estimated from the parsed header (spacing, folding).
const slack = 256

// overrun reports whether the socket delivered more than the response's
// status line, headers and declared body.
func (f *framing) overrun(resp *http.Response, bodyBytes int64) bool {
	if f.conn == nil || resp.ProtoMajor != 1 || resp.ContentLength < 0 {
		return false
	}
	expected := int64(len(resp.Proto)+len(resp.Status)+4) + headerBytes(resp.Header) + 2 + bodyBytes + f.interim
	return f.conn.read.Load()-f.start > expected+slack
}

// headerBytes estimates the size of a header block as sent.
func headerBytes(h http.Header) int64 {
	var n int64
	for k, vs := range h {
		for _, v := range vs {
			n += int64(len(k) + len(v) + 4)
		}
	}
	return n
}
