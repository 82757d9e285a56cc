// Package extract is the stage that turns the fetched body into clean
// content through the extractor plugin registered for its media type.
package extract

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/tokens"
)

// DefaultMaxOutput bounds the clean content of one document.
const DefaultMaxOutput = 1 << 20

type rawConfig struct {
	MaxOutput hcl.Expression `hcl:"max_output,optional" type:"size" doc:"clean content of one document at most (default \"1MiB\")"`
}

// Stage routes each document to its extractor.
type Stage struct {
	router    stages.ExtractorRouter
	maxOutput int64
}

// Kind registers the extract stage; it needs a fetched body.
func Kind() stages.Kind {
	return stages.Kind{Name: "extract", Config: rawConfig{}, After: []string{"fetch"}, New: New}
}

// New decodes the extract block.
func New(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	if diags.HasErrors() {
		return nil, diags
	}
	maxOut, ds := config.Size(raw.MaxOutput, DefaultMaxOutput)
	return &Stage{router: deps.Extractors, maxOutput: maxOut}, append(diags, ds...)
}

// Run extracts doc's body into doc.Extraction.
func (s *Stage) Run(ctx context.Context, doc *stages.Doc) error {
	if doc.Response == nil {
		return fmt.Errorf("no fetched body to extract")
	}
	mt := doc.MediaType()
	name, ex, ok := s.route(mt, doc.Response.FinalURL, doc.Response.Body)
	if !ok {
		return fmt.Errorf("%w %q: no extractor handles it", stages.ErrUnsupportedType, mt)
	}
	if err := s.checkOptions(name, doc.Request); err != nil {
		return stages.PluginError(name, err)
	}
	opts := doc.Request.OptionsFor(mt)
	res, err := stages.ExtractFor(ctx, ex, doc.Request.Share, &sdk.ExtractRequest{
		Body:           doc.Response.Body,
		ContentType:    doc.Response.ContentType,
		URL:            doc.Response.FinalURL,
		Options:        opts,
		MaxOutputBytes: s.maxOutput,
	})
	if err != nil {
		return stages.PluginError(name, err)
	}
	title, metadata, cuts := capMetadata(res.Title, res.Metadata)
	links, linksCut := boundLinks(res.Links)
	doc.Extraction = &stages.Extraction{
		Content: res.Content, Format: string(res.Format), Title: title,
		Metadata: metadata, Extractor: name, Tokens: tokens.Estimate(res.Content), HTML: res.HTML,
		Links: links, Unapplied: s.unapplied(name, opts, doc.Request.StrictOptions), Cuts: cuts,
	}
	for _, w := range res.Warnings {
		doc.Warn(w)
	}
	if linksCut != "" {
		doc.Warn(linksCut)
	}
	for _, what := range slices.Sorted(maps.Keys(cuts)) {
		doc.Warn(cuts[what])
	}
	return nil
}

// Bounds of what an extractor reports beside the content: a page's title
// or meta description is the page's to write, and a hostile one of a
// megabyte made every answer carry it three times.
const (
	// MaxTitleBytes bounds an extraction's title.
	MaxTitleBytes = 1 << 10
	// MaxMetadataBytes bounds each metadata value.
	MaxMetadataBytes = 4 << 10
)

// capMetadata cuts the title and each metadata value to their bounds, and
// returns a warning for each it cut, by what it cut ("title", or
// "metadata:" and the key). The metadata map is copied when a value is
// cut, never changed in place.
func capMetadata(title string, metadata map[string]string) (string, map[string]string, map[string]string) {
	var cuts map[string]string
	capped := func(key, what, v string, max int64) string {
		cut, warning := Bound(what, v, max)
		if warning != "" {
			if cuts == nil {
				cuts = map[string]string{}
			}
			cuts[key] = warning
		}
		return cut
	}
	title = capped("title", "title", title, MaxTitleBytes)
	var out map[string]string
	for _, k := range slices.Sorted(maps.Keys(metadata)) {
		if v := capped("metadata:"+k, fmt.Sprintf("metadata %q", k), metadata[k], MaxMetadataBytes); v != metadata[k] {
			if out == nil {
				out = maps.Clone(metadata)
			}
			out[k] = v
		}
	}
	if out == nil {
		out = metadata
	}
	return title, out, cuts
}

// Bound cuts v to max bytes and, when it cut, returns the warning that
// names the cut of what: the extract stage's words for a title or a
// metadata value cut, which a page's head read elsewhere uses too.
func Bound(what, v string, max int64) (cut, warning string) {
	cut, truncated := sdk.Truncate(v, max)
	if truncated {
		warning = fmt.Sprintf("%s cut at %d of %d bytes", what, len(cut), len(v))
	}
	return cut, warning
}

// route finds the document's extractor, by its content too when the
// router knows extractors that sniff or recognise containers.
func (s *Stage) route(mediaType, docURL string, body []byte) (string, stages.Extractor, bool) {
	if dr, ok := s.router.(stages.DocumentRouter); ok {
		return dr.RouteDocument(mediaType, docURL, body)
	}
	return s.router.Route(mediaType)
}

// checkOptions holds the request's strict options to what the extractor
// declares, before the document is sent to it.
func (s *Stage) checkOptions(name string, req stages.Request) error {
	oc, ok := s.router.(stages.OptionChecker)
	if !ok || len(req.StrictOptions) == 0 {
		return nil
	}
	strict := make(map[string]string, len(req.StrictOptions))
	for _, k := range req.StrictOptions {
		strict[k] = req.Options[k]
	}
	return oc.CheckOptions(name, strict)
}

// unapplied names the document's non-strict options (the request's, as
// OptionsFor its type) that extractor name
// does not declare, sorted; none when the router cannot tell.
func (s *Stage) unapplied(name string, opts map[string]string, strict []string) []string {
	od, ok := s.router.(stages.OptionDeclarer)
	if !ok {
		return nil
	}
	var out []string
	for k := range opts {
		if !slices.Contains(strict, k) && !od.Declares(name, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

var _ stages.Stage = (*Stage)(nil)
