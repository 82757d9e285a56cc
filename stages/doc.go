package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/mediatype"
)

// Doc is what flows through the chain. Each stage reads what earlier stages
// wrote and adds its own part; a stage never removes another's part.
type Doc struct {
	Request    Request
	Target     *Target     // set by guard
	Response   *Response   // set by fetch
	Extraction *Extraction // set by extract
	Digest     string      // set by digest
	Context    []ContextHit
	Warnings   []string
	Timings    []Timing
	// CachedAt is set when a cache stage restored the Doc from a snapshot
	// taken then.
	CachedAt time.Time
	// Memo is the memo of the snapshot the Doc was restored from, set
	// only when no stage ran after the checkpoint that restored it: the
	// Doc is then that snapshot's whole answer to the request, and what
	// is derived from it may be kept beside the snapshot.
	Memo Memo
	// Revalidate, when set, holds the validators of a snapshot a
	// checkpoint keeps past its freshness: fetch sends them, and sets
	// NotModified when the origin answers 304 (Response then holds the
	// 304's headers and no body), for the runner to renew the snapshot.
	Revalidate  *Validators
	NotModified bool
	// Outcomes say how the stages that may fall back ended (digest:
	// the class of a failed digest; context: "ok", "timeout", …), by
	// stage kind, for the metrics: the warnings say it to the agent.
	Outcomes map[string]string
}

// Cached reports whether the Doc came from a cache snapshot.
func (d *Doc) Cached() bool { return !d.CachedAt.IsZero() }

// Request is what the agent asked for.
type Request struct {
	URL    string
	Caller string
	// Gate admits the request to the origin (see Gate); nil admits it at
	// once.
	Gate Gate
	// Share names whose share of a bounded resource (a plugin pool's
	// slots) the request uses: the caller's name, or "<caller>/batch" for
	// batch work, which has a share of its own.
	Share string
	// Restricted is the caller's class: a restricted caller's requests
	// neither read nor write what other callers' requests can see (cache
	// entries), so no caller learns whether or when another fetched a URL.
	Restricted bool
	// Workspace is the caller's Honcho workspace, the only one the context
	// stage searches for this request.
	Workspace string
	Question  string
	Mode      string
	// Context asks for what the agent's team already knows about the page.
	Context bool
	// Options are per-request knobs passed to extractors: json_path, jq,
	// pages, max_pages …
	Options map[string]string
	// StrictOptions names the Options the agent passed as the extractor's
	// own (`options` of /v1/fetch, `siftOptions` of a scrape, `-o`): the
	// extractor that gets the document must declare each of them, and each
	// value must fit its declaration. The others are sift's own request
	// fields, given to whichever extractor takes them.
	StrictOptions []string
	// MaxAge, when set, bounds the age of a cached snapshot the request
	// accepts: 0 always goes to the origin.
	MaxAge *time.Duration
	// MinAge, when set, is the youngest cached snapshot the request
	// accepts (Firecrawl's minAge).
	MinAge *time.Duration
	// CacheOnly answers from a cache snapshot or not at all: no stage
	// past the always-run ones (the guard) runs, so the origin is never
	// contacted, and a miss is ErrNotCached (Firecrawl's lockdown and
	// minAge).
	CacheOnly bool
	// NoStore keeps this request's answer out of the cache.
	NoStore bool
}

// OptionFor is the key of an option that applies only to documents of one
// media type: Firecrawl's pdf parser's mode is the ocr option of a PDF
// alone, so an image the same request fetches is still read by OCR.
func OptionFor(mediaType, name string) string { return name + "@" + mediaType }

// OptionsFor are the options the extractor of a mediaType document gets:
// the request's own, with those scoped to mediaType (OptionFor) in place
// of the unscoped ones of their names, and those scoped to other types
// left out. It returns r.Options itself when none is scoped.
func (r Request) OptionsFor(mediaType string) map[string]string {
	scoped := false
	for k := range r.Options {
		if strings.Contains(k, "@") {
			scoped = true
			break
		}
	}
	if !scoped {
		return r.Options
	}
	out := make(map[string]string, len(r.Options))
	for k, v := range r.Options {
		if !strings.Contains(k, "@") {
			if _, set := out[k]; !set {
				out[k] = v
			}
			continue
		}
		if name, mt, _ := strings.Cut(k, "@"); mt == mediaType {
			out[name] = v
		}
	}
	return out
}

// Target is the request's URL as the guard vetted it: the canonical URL
// and the only addresses fetch may dial for it.
type Target = guard.Vetted

// Response is the fetched resource.
type Response struct {
	FinalURL    string
	Status      int
	Header      http.Header
	Body        []byte
	ContentType string // the full Content-Type value, parameters included
	// Tokens is the body's token count, counted once when it was fetched
	// (and kept in cache snapshots), so answers never count it again.
	Tokens int
	// Hash is the body's content address ("sha256:…"), computed once when
	// it was fetched and kept in cache snapshots like Tokens; empty when
	// the fetcher did not compute it.
	Hash string
	// FetchedAt is when the response came from the origin; zero when the
	// fetcher did not say. A cache snapshot keeps it, so an answer from the
	// cache reports the time the answer from the origin did.
	FetchedAt time.Time
}

// BodyHash is the content address of a fetched body.
func BodyHash(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// MediaType returns the response's media type, lower-cased and without
// parameters ("text/html"), or "" before fetch.
func (d *Doc) MediaType() string {
	if d.Response == nil {
		return ""
	}
	return mediatype.Of(d.Response.ContentType)
}

// Extraction is the clean form of the document.
type Extraction struct {
	Content   string
	Format    string
	Title     string
	Metadata  map[string]string
	Extractor string // the plugin that produced it
	// Tokens is Content's token count, counted once by the extract stage.
	Tokens int
	// HTML is the content as HTML, when the request asked for it
	// (sdk.OptionHTML) and the extractor renders HTML.
	HTML string `json:",omitempty"`
	// Links are the document's links as its extractor reported them
	// (sdk.ExtractResult.Links): absolute URLs, each once, in the
	// document's order, bounded by the extract stage.
	Links []string `json:",omitempty"`
	// Unapplied names the request's own options (not the strict ones)
	// that the extractor does not declare, and so did not apply.
	Unapplied []string `json:",omitempty"`
	// Cuts are the warnings, among the Doc's, of the title and metadata
	// values the extract stage cut to their bounds, by what was cut
	// ("title", or "metadata:" and the key): an answer that shows
	// something else in that place leaves the warning out.
	Cuts map[string]string `json:",omitempty"`
}

// ContextHit is one thing the agent's team already knows.
type ContextHit struct {
	Kind      string    `json:"kind"` // "message"
	Peer      string    `json:"peer"`
	Content   string    `json:"content"`
	CreatedAt time.Time `json:"created_at"`
}

// Timing records how long one stage took.
type Timing struct {
	Stage    string
	Duration time.Duration
	Skipped  bool // true when the stage did not run (content type filter)
}

// Warn adds a warning for the agent.
func (d *Doc) Warn(msg string) { d.Warnings = append(d.Warnings, msg) }

// SetOutcome records how stage ended (see Outcomes).
func (d *Doc) SetOutcome(stage, outcome string) {
	if d.Outcomes == nil {
		d.Outcomes = map[string]string{}
	}
	d.Outcomes[stage] = outcome
}
