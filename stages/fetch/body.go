package fetch

import (
	"compress/flate"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/siftd/sift/mediatype"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/tokens"
)

// read takes the body under the caps: the bytes on the wire and the bytes
// after decoding each stay within max_body, so a gzip bomb stops at the cap
// instead of filling memory. A body over the cap is an error, never a
// truncated success.
func (c *client) read(resp *http.Response, target *stages.Target, f *framing) (*stages.Response, error) {
	defer resp.Body.Close()
	max := c.cfg.MaxBody
	if resp.ContentLength > max {
		return nil, fmt.Errorf("%w: Content-Length %d is over the %d-byte cap", ErrTooLarge, resp.ContentLength, max)
	}
	wire := &capReader{r: resp.Body, left: max}
	decoded, err := decoder(resp.Header.Get("Content-Encoding"), wire)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(&capReader{r: decoded, left: max})
	if err != nil {
		return nil, readError(resp.Request.Context(), err)
	}
	if f.overrun(resp, max-wire.left) {
		return nil, fmt.Errorf("%w: the server sent more than its Content-Length of %d bytes", ErrUpstream, resp.ContentLength)
	}
	contentType, err := contentType(resp.Header.Get("Content-Type"), urlPath(target.URL), body)
	if err != nil {
		return nil, err
	}
	header := resp.Header.Clone()
	header.Del("Set-Cookie")
	return &stages.Response{FinalURL: target.URL, Status: resp.StatusCode, Header: header, Body: body, ContentType: contentType,
		Tokens: tokens.EstimateBytes(body), Hash: stages.BodyHash(body), FetchedAt: time.Now().UTC()}, nil
}

func readError(ctx context.Context, err error) error {
	switch {
	case err == errOverCap:
		return fmt.Errorf("%w: body over the cap", ErrTooLarge)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return fmt.Errorf("%w: reading the body: %v", ErrUpstream, err)
}

var errOverCap = fmt.Errorf("over the cap")

// capReader fails once more than left bytes would be read.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errOverCap
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, errOverCap
	}
	return n, err
}

// decoder undoes the Content-Encoding. Concatenated gzip members are read
// as one stream, as the format allows.
func decoder(encoding string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return r, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%w: bad gzip body: %v", ErrUpstream, err)
		}
		return zr, nil
	case "deflate":
		return flate.NewReader(r), nil
	}
	return nil, fmt.Errorf("%w: unsupported Content-Encoding %q", ErrUpstream, encoding)
}

// binaryPrefixes are what a sniffed body that claims to be text must not be.
var binaryPrefixes = []string{"image/", "audio/", "video/", "font/", "application/pdf", "application/zip",
	"application/x-gzip", "application/wasm", "application/vnd.ms-fontobject", "application/x-rar-compressed"}

// contentType trusts the header and sniffs only to catch a lie: a body
// that claims to be text or JSON but is a binary format is refused. A
// missing header is replaced by the type mediatype.Sniff reads from the
// URL's path and the body.
func contentType(header, name string, body []byte) (string, error) {
	if header == "" {
		return mediatype.Sniff(name, body), nil
	}
	sniffed := http.DetectContentType(body)
	mt, _, err := mime.ParseMediaType(header)
	if err != nil {
		return "", fmt.Errorf("%w: malformed Content-Type %q", ErrContentType, header)
	}
	if isTextual(mt) {
		for _, p := range binaryPrefixes {
			if strings.HasPrefix(sniffed, p) {
				return "", fmt.Errorf("%w: declared %s but the body is %s", ErrContentType, mt, mediatype.Of(sniffed))
			}
		}
	}
	return header, nil
}

func isTextual(mt string) bool {
	return strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "json") || strings.HasSuffix(mt, "xml")
}

// urlPath is the path of rawURL, for its extension; "" when it does not parse.
func urlPath(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Path
}
