// Package fetch is the stage that downloads the resource through the
// guard: it dials only vetted addresses, follows redirects by hand with
// every hop vetted again, and bounds time, headers, body and decompressed
// size.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
)

// Defaults for the fetch block.
const (
	DefaultTimeout   = 20 * time.Second
	DefaultMaxBody   = 5 << 20
	DefaultMaxHeader = 64 << 10
	// MaxRedirects is how many redirects one fetch follows.
	MaxRedirects = 5
)

// Config is the fetch stage's decoded block.
type Config struct {
	Timeout   time.Duration
	MaxBody   int64
	MaxHeader int64
	// ArchiveURL is the Wayback Machine prefix `recover` fetches
	// snapshots through: ArchiveURL + "2id_/" + URL is the newest capture,
	// as it was served.
	ArchiveURL string
}

// DefaultArchiveURL is the Internet Archive's Wayback Machine.
const DefaultArchiveURL = "https://web.archive.org/web/"

type rawConfig struct {
	Timeout    hcl.Expression `hcl:"timeout,optional" type:"duration" doc:"total deadline of one fetch, redirects included (default \"20s\")"`
	MaxBody    hcl.Expression `hcl:"max_body,optional" type:"size" doc:"body at most, on the wire and after decoding (default \"5MiB\")"`
	MaxHeader  hcl.Expression `hcl:"max_header,optional" type:"size" doc:"response headers at most (default \"64KiB\")"`
	ArchiveURL *string        `hcl:"archive_url,optional" type:"string" doc:"the archive recover reads snapshots from (default \"https://web.archive.org/web/\")"`
}

// Kind registers the fetch stage; it needs the guard before it.
func Kind() stages.Kind {
	return stages.Kind{Name: "fetch", Config: rawConfig{}, After: []string{"guard"}, New: New}
}

// Stage fetches the guard's target.
type Stage struct {
	cfg    Config
	client *client
}

// New decodes and validates the fetch block.
func New(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
	cfg, diags := Decode(body)
	if diags.HasErrors() {
		return nil, diags
	}
	return &Stage{cfg: cfg, client: newClient(cfg, deps.Guard, deps.UserAgent)}, diags
}

// Config is the stage's decoded block: the plugin host sizes its messages
// from its MaxBody, and `recover` reads its ArchiveURL.
func (s *Stage) Config() Config { return s.cfg }

// DefaultConfig is the block's defaults, for a chain without a fetch stage.
func DefaultConfig() Config {
	return Config{Timeout: DefaultTimeout, MaxBody: DefaultMaxBody, MaxHeader: DefaultMaxHeader, ArchiveURL: DefaultArchiveURL}
}

// Decode reads a fetch block.
func Decode(body hcl.Body) (Config, hcl.Diagnostics) {
	cfg := DefaultConfig()
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	if diags.HasErrors() {
		return cfg, diags
	}
	var ds hcl.Diagnostics
	cfg.Timeout, ds = config.Duration(raw.Timeout, DefaultTimeout)
	diags = append(diags, ds...)
	cfg.MaxBody, ds = config.Size(raw.MaxBody, DefaultMaxBody)
	diags = append(diags, ds...)
	cfg.MaxHeader, ds = config.Size(raw.MaxHeader, DefaultMaxHeader)
	diags = append(diags, ds...)
	cfg.ArchiveURL = DefaultArchiveURL
	if raw.ArchiveURL != nil {
		cfg.ArchiveURL = *raw.ArchiveURL
		if u, err := url.Parse(cfg.ArchiveURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.HasSuffix(u.Path, "/") {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid archive_url",
				Detail: "archive_url is an http(s) URL ending in \"/\", such as \"" + DefaultArchiveURL + "\".", Subject: body.MissingItemRange().Ptr()})
		}
	}
	return cfg, diags
}

// Run fetches doc.Target into doc.Response.
func (s *Stage) Run(ctx context.Context, doc *stages.Doc) error {
	if doc.Target == nil {
		return errors.New("no vetted target: the guard stage must run first")
	}
	if s.client.guard == nil {
		return errors.New("no guard to vet redirects with")
	}
	// The request's own deadline may come first; the error names the one
	// that fired.
	dl, bounded := ctx.Deadline()
	byRequest := bounded && time.Until(dl) < s.cfg.Timeout
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	resp, notModified, err := s.client.fetch(ctx, doc.Target, doc.Revalidate)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			if byRequest {
				return fmt.Errorf("%w: no complete answer before the request's deadline", ErrTimeout)
			}
			return fmt.Errorf("%w: no complete answer within %s", ErrTimeout, s.cfg.Timeout)
		}
		return err
	}
	doc.Response, doc.NotModified = resp, notModified
	if doc.Revalidate != nil && !notModified && resp.FinalURL == doc.Revalidate.URL {
		// The request for the stored URL was conditional, and the origin
		// sent the page whole.
		doc.SetOutcome("revalidate", "modified")
	}
	return nil
}

var _ stages.Stage = (*Stage)(nil)

// ArchiveSnapshotURL is where the newest archived capture of pageURL is
// served unmodified.
func ArchiveSnapshotURL(archiveURL, pageURL string) string {
	return archiveURL + "2id_/" + pageURL
}
