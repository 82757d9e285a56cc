package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/internal/warm"
	"github.com/siftd/sift/mediatype"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// maxInput bounds what `sift extract` reads from a file or stdin.
const maxInput = 64 << 20

type extractFlags struct {
	config  string
	typ     string
	url     string
	json    bool
	batch   bool
	format  string
	options []string
	warm    time.Duration
}

func extractCommand() *cobra.Command {
	var f extractFlags
	cmd := &cobra.Command{
		Use:   "extract [FILE]",
		Short: "Run the extractor for a local file or stdin, without a server",
		Long: `Run the extractor for a local file (or stdin) through the same plugin host
sift serve uses, and print the clean content.

With --batch (or EXTRACT_BATCH=1) it speaks the benchmark protocol: a header
line "<nbytes> <url>" then the page, answered by "<nbytes> <ms> <ok|err>" and
the output, for as long as stdin stays open.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.batch || os.Getenv("EXTRACT_BATCH") == "1" {
				return runBatch(cmd, f)
			}
			return runExtract(cmd, f, args)
		},
	}
	cmd.Flags().StringVar(&f.config, "config", config.DefaultFile, configHelp)
	cmd.Flags().StringVar(&f.typ, "type", "", "media type of the input (default: from the file name, else sniffed)")
	cmd.Flags().StringVar(&f.url, "url", "", "the document's URL, for resolving relative links")
	cmd.Flags().BoolVar(&f.json, "json", false, "print a JSON envelope with metadata and warnings")
	cmd.Flags().StringVar(&f.format, "format", "markdown", "markdown, or text: plain text with a PDF's pages separated by form feeds, as pdftotext prints")
	cmd.Flags().BoolVar(&f.batch, "batch", false, "speak the benchmark batch protocol on stdin/stdout")
	cmd.Flags().DurationVar(&f.warm, "warm", warmDefault(),
		"keep the extractor warm this long for the next sift extract in this directory (0: start one for this call only; default from $SIFT_EXTRACT_WARM)")
	cmd.Flags().StringArrayVarP(&f.options, "option", "o", nil, "extractor option KEY=VALUE (json_path, jq, …); repeatable")
	return cmd
}

func runExtract(cmd *cobra.Command, f extractFlags, args []string) error {
	body, name, err := readInput(cmd.InOrStdin(), args)
	if err != nil {
		return err
	}
	mediaType := f.typ
	if mediaType == "" {
		mediaType = mediatype.Sniff(name, body)
	}
	opts, err := parseOptions(f.options)
	if err != nil {
		return err
	}
	if f.format != "markdown" && f.format != "text" {
		return fmt.Errorf("--format %q: want markdown or text", f.format)
	}
	res, err := extractOne(cmd, f, &sdk.ExtractRequest{
		Body: body, ContentType: mediaType, URL: f.url, Options: opts,
	})
	if err != nil {
		return withErrorExit(err)
	}
	res = cleanResult(res)
	for _, w := range res.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	out := cmd.OutOrStdout()
	if f.format == "text" {
		res.Content = pagesAsFormFeeds(res.Content)
	}
	if !f.json {
		_, err = io.WriteString(out, strings.TrimRight(res.Content, "\n")+"\n")
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(envelope{ContentType: mediaType, Format: string(res.Format), Title: res.Title,
		Metadata: res.Metadata, Warnings: res.Warnings, Content: res.Content})
}

// extractOne runs req through the warm extractor when --warm allows one and
// it can be reached, and through an extractor started for this call
// otherwise.
func extractOne(cmd *cobra.Command, f extractFlags, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	// The configuration is read here, once, so its errors print with their
	// source lines whichever way the document goes.
	cfg, diags := loadConfig(cmd, f.config)
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return nil, err
	}
	// Development overrides are applied here, once: their warning then
	// reaches this terminal even when a warm extractor (whose output goes
	// nowhere) does the work, and the warm extractor's socket is chosen by
	// the binary that really runs, so a rebuild gets a fresh one.
	if err := report(cmd.ErrOrStderr(), cfg, app.ApplyDevOverrides(cfg, problemLog(cmd))); err != nil {
		return nil, err
	}
	if f.warm > 0 {
		res, err := extractWarm(cmd, f, cfg, req)
		if c, _ := errclass.Of(err); c == errclass.ExtractorFailed {
			// The warm extractor's own output goes nowhere: the plugin's
			// log (a panic's stack) shows only inline.
			err = fmt.Errorf("%w (for the plugin's own log, run again with --warm 0)", err)
		}
		if !errors.Is(err, warm.ErrUnreachable) {
			return res, err
		}
	}
	ex, closeFn, err := startExtractor(cmd, cfg, req.ContentType, req.URL, req.Body)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return ex.Extract(cmd.Context(), req)
}

// cleanResult is res cleaned of invisible and control characters exactly
// as /v1/fetch cleans its answer (service.StripInvisible): its content,
// title, metadata, HTML and warnings, with a warning of how many it
// removed. What sift extract prints to a pipe or a file is read by an
// agent as often as by a person, and a terminal gets the same text.
func cleanResult(res *sdk.ExtractResult) *sdk.ExtractResult {
	doc := &stages.Doc{
		Extraction: &stages.Extraction{Content: res.Content, Title: res.Title, Metadata: res.Metadata, HTML: res.HTML},
		Warnings:   res.Warnings,
	}
	service.StripInvisible(doc)
	clean := *res
	ex := doc.Extraction
	clean.Content, clean.Title, clean.Metadata, clean.HTML, clean.Warnings = ex.Content, ex.Title, ex.Metadata, ex.HTML, doc.Warnings
	return &clean
}

// pageMarker matches the page markers of the pdf extractor.
var pageMarker = regexp.MustCompile(`(?m)^<!-- page \d+ -->\n*`)

// pagesAsFormFeeds turns page markers into form feeds between pages;
// content without markers is left as it is.
func pagesAsFormFeeds(content string) string {
	parts := pageMarker.Split(content, -1)
	if len(parts) < 2 {
		return content
	}
	pages := parts[1:] // before the first marker there is nothing
	for i := range pages {
		pages[i] = strings.TrimRight(pages[i], "\n")
	}
	return strings.Join(pages, "\f")
}

type envelope struct {
	ContentType string            `json:"content_type"`
	Format      string            `json:"format"`
	Title       string            `json:"title,omitempty"`
	Metadata    map[string]string `json:"metadata,omitempty"`
	Warnings    []string          `json:"warnings,omitempty"`
	Content     string            `json:"content"`
}

// startExtractor starts only the plugin that handles mediaType, or the
// document body at docURL when it is given (see host.RouteDocument).
func startExtractor(cmd *cobra.Command, cfg *config.Config, mediaType, docURL string, body []byte) (stages.Extractor, func(), error) {
	ctx := cmd.Context()
	specs, diags := app.Plan(ctx, cfg)
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return nil, nil, err
	}
	name, err := routeName(specs, mediaType, docURL, body)
	if err != nil {
		return nil, nil, err
	}
	a, diags := app.Load(ctx, cfg, app.Options{Only: []string{name}, Logger: problemLog(cmd), NoStore: true})
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return nil, nil, err
	}
	return routed(a, mediaType, docURL, body), func() { _ = a.Close(context.WithoutCancel(ctx)) }, nil
}

// problemLog is the log of a one-document run: problems on stderr, not
// each plugin's start.
func problemLog(cmd *cobra.Command) *slog.Logger {
	return slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// routed returns a's extractor for mediaType, which refuses the -o options
// it does not declare, or whose values do not fit, as a server would.
func routed(a *app.App, mediaType, docURL string, body []byte) stages.Extractor {
	name, ex, _ := a.Host.RouteDocument(mediatype.Of(mediaType), docURL, body)
	return checkedOptions{ex: ex, check: func(opts map[string]string) error { return a.Host.CheckOptions(name, opts) }}
}

// checkedOptions checks a request's options before extracting.
type checkedOptions struct {
	ex    stages.Extractor
	check func(map[string]string) error
}

func (c checkedOptions) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if err := c.check(req.Options); err != nil {
		return nil, err
	}
	return c.ex.Extract(ctx, req)
}

// ExtractFor keeps the routed extractor's shares (stages.SharedExtractor).
func (c checkedOptions) ExtractFor(ctx context.Context, share string, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if err := c.check(req.Options); err != nil {
		return nil, err
	}
	return stages.ExtractFor(ctx, c.ex, share, req)
}

// routeName names the extractor that specs route mediaType to, or the
// document body at docURL.
func routeName(specs []host.Spec, mediaType, docURL string, body []byte) (string, error) {
	name, ok := host.RouteSpecDocument(specs, mediatype.Of(mediaType), docURL, body)
	if !ok {
		return "", fmt.Errorf("%w %q: no extractor handles it", stages.ErrUnsupportedType, mediaType)
	}
	return name, nil
}

func readInput(stdin io.Reader, args []string) ([]byte, string, error) {
	r, name := stdin, ""
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		r, name = f, args[0]
	}
	body, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, "", fmt.Errorf("read input: %w", err)
	}
	if len(body) > maxInput {
		return nil, "", fmt.Errorf("input larger than %d MiB", maxInput>>20)
	}
	return body, name, nil
}

func parseOptions(kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("option %q: want KEY=VALUE", kv)
		}
		out[k] = v
	}
	return out, nil
}
