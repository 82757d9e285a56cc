// Package html is the built-in extractor for web pages: it removes what a
// reader cannot see, finds the main content with go-trafilatura, and renders
// it as markdown with html-to-markdown, links made absolute.
package html

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/PuerkitoBio/goquery"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/internal/charset"
	"github.com/siftd/sift/plugins/sdk"
)

// DefaultMaxOutput applies when the request sets no cap.
const DefaultMaxOutput = 1 << 20

// Extractor converts HTML pages to markdown. It is safe for concurrent use.
type Extractor struct {
	sdk.NoConfig
	md *htmltomarkdown.Converter
	// rules is nil but in the ablation benchmark, which switches rules
	// off (rules.go).
	rules *rules
}

// New returns the HTML extractor.
func New() sdk.Extractor {
	conv := htmltomarkdown.NewConverter(htmltomarkdown.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(commonmark.WithListEndComment(false)),
		table.NewTablePlugin(table.WithSkipEmptyRows(true), table.WithNewlineBehavior(table.NewlineBehaviorPreserve)),
	))
	conv.Register.Renderer(renderLooseTable, htmltomarkdown.PriorityEarly)
	conv.Register.Renderer(renderLooseCell, htmltomarkdown.PriorityStandard)
	conv.Register.Renderer(renderQuotedCode, htmltomarkdown.PriorityEarly)
	conv.Register.Renderer(renderNumberedList, htmltomarkdown.PriorityEarly)
	return &Extractor{md: conv}
}

// renderLooseCell keeps cells apart in tables that cannot become markdown
// tables (a heading or list in a cell): the table plugin then renders row
// by row, and without this the cells' words would run together.
func renderLooseCell(ctx htmltomarkdown.Context, w htmltomarkdown.Writer, n *html.Node) htmltomarkdown.RenderStatus {
	if n.Data != "td" && n.Data != "th" {
		return htmltomarkdown.RenderTryNext
	}
	w.WriteString(" ")
	ctx.RenderChildNodes(ctx, w, n)
	w.WriteString(" ")
	return htmltomarkdown.RenderSuccess
}

// Info names the media types handled.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "html", Version: "1.0.0",
		ContentTypes: []string{"text/html", "application/xhtml+xml"}}, nil
}

// Schema declares no attributes; its options are links and the part of
// the page to read (pageoptions.go).
func (*Extractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Options: []sdk.Option{
		{Name: "links", Type: sdk.TypeBool, Description: "false renders every link as its text, for pages where links would take most of the tokens"},
		{Name: OptionMainContent, Type: sdk.TypeBool, Description: "false renders the whole visible page (navigation, header and footer too), not only its main content"},
		{Name: OptionIncludeTags, Type: sdk.TypeString, Description: "CSS selectors, one a line: only the elements they match are read"},
		{Name: OptionExcludeTags, Type: sdk.TypeString, Description: "CSS selectors, one a line: the elements they match are removed before extraction"},
		{Name: OptionImages, Type: sdk.TypeBool, Description: "true renders the content's images as ![alt](URL), URLs absolute, lazy-loaded sources resolved, tracking pixels and icons left out"},
		{Name: OptionBase64Images, Type: sdk.TypeBool, Description: "true keeps, with images, the images the page inlines as data: URIs (each up to 64 KiB; a larger one is its alt text, with a warning); false or unset, each is its alt text"},
		{Name: OptionComments, Type: sdk.TypeBool, Description: "true keeps readers' comment sections on every page; false leaves them out on discussions too; unset, they are kept on discussions (forums, Q&A) alone"},
		{Name: sdk.OptionHTML, Type: sdk.TypeBool, Description: "true also returns the content as HTML (the part of the page the markdown is made from, links absolute), for Firecrawl's html format"},
	}}, nil
}

// Extract finds the page's main content and renders it as markdown. When
// the main content is too thin to trust, the page's body without its chrome
// is returned instead (thin.go).
func (e *Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	keepLinks, err := linksOption(req.Options)
	if err != nil {
		return nil, err
	}
	po, err := readPageOptions(req.Options)
	if err != nil {
		return nil, err
	}
	wantHTML, err := htmlOption(req.Options)
	if err != nil {
		return nil, err
	}
	images, err := imagesOption(req.Options)
	if err != nil {
		return nil, err
	}
	comments, err := commentsOption(req.Options)
	if err != nil {
		return nil, err
	}
	base64Images, err := boolOption(req.Options, OptionBase64Images)
	if err != nil {
		return nil, err
	}
	root, warnings, err := parse(req.Body, req.ContentType)
	if err != nil {
		return nil, sdk.Invalid("parse HTML: %v", err)
	}
	out := &sdk.ExtractResult{Format: sdk.FormatMarkdown, Warnings: warnings}
	// A text longer than the output cap is cut there before anything
	// reads it (longtext.go).
	if e.rules.on("bound") {
		if warning := cutLongTexts(root, max(outputCap(req.MaxOutputBytes), DefaultMaxOutput)); warning != "" {
			out.Warnings = append(out.Warnings, warning)
		}
	}
	// JSON-LD too large or too deep to read in bounded time goes before
	// anything reads it (jsonld.go).
	out.Warnings = append(out.Warnings, boundJSONLD(root)...)
	// Every URL of the output resolves against the page's <base>, read
	// before the tags are applied, as a browser reads it whatever part of
	// the page is shown.
	docBase := documentBase(root, req.URL)
	// The JSON-LD is read before the tags are applied: it says what the
	// page is, whatever part of it is asked for.
	schema, partial := structuredData(root)
	if partial != "" {
		out.Warnings = append(out.Warnings, partial)
	}
	po.applyTags(root, out)
	objs := newObjects(docBase, images)
	objs.base64Images = base64Images
	// out is what either path returns: the warning is added once the
	// page is read.
	defer objs.warnInlineTooLarge(out)
	if po.whole {
		return e.wholePage(ctx, root, req, docBase, objs, schema, keepLinks, wantHTML, out)
	}
	page, hrefs, err := prepare(root, objs, e.rules)
	if err != nil {
		return nil, err
	}
	page.comments = comments.keep(page.discussion)
	content := mainContent(root, page, hrefs, req.URL, out, e.rules)
	out.Metadata = withSchema(out.Metadata, schema)
	e.rules.apply("quotes", content, func(c *html.Node) { restoreQuoteStructure(root, c) })
	e.rules.apply("itemlines", content, func(c *html.Node) { restoreItemLines(root, c) })
	restoreFigures(root, content, objs)
	restoreCodeLanguages(content)
	restoreListStarts(content)
	unwrapLayoutTables(content)
	e.rules.apply("tidy", content, tidy)
	var contentAsHTML string
	if wantHTML {
		contentAsHTML = objs.objectHTML(contentHTML(content, hrefs, docBase))
	}
	markAngles(content)
	md, err := e.markdown(ctx, content, docBase)
	if err != nil {
		return nil, err
	}
	md = finish(objs.objectMarkdown(linkMarkdown(md, hrefs, docBase)), root, page, images, out, e.rules)
	md = withProductFacts(md, schema)
	// Links and images go last, so that what the rules above read in
	// them (tag blocks, promotions) goes whether or not they are asked
	// for.
	if !keepLinks {
		md = unlinkMarkdown(md)
	}
	if !images {
		md = dropImageMarkdown(md)
	}
	if md == "" {
		contentAsHTML = "" // nothing to read: finish said why
	}
	return capped(out, md, contentAsHTML, req.MaxOutputBytes), nil
}

// capped sets out's content and HTML, each cut at the output cap with a
// warning; the markdown at a line end, its code fence closed
// (capMarkdown).
func capped(out *sdk.ExtractResult, md, contentAsHTML string, maxOut int64) *sdk.ExtractResult {
	var warning string
	if out.Content, warning = capMarkdown(md, maxOut); warning != "" {
		out.Warnings = append(out.Warnings, warning)
	}
	if out.HTML, warning = sdk.CapOutput(contentAsHTML, maxOut, DefaultMaxOutput); warning != "" {
		out.Warnings = append(out.Warnings, "html "+warning)
	}
	return out
}

// wholePage renders the whole visible page: the title and metadata are
// still read as for the main content, the text is the body's. Its URLs
// resolve against docBase (documentBase).
func (e *Extractor) wholePage(ctx context.Context, root *html.Node, req *sdk.ExtractRequest, docBase string, objs *objects, schema map[string]string, keepLinks, wantHTML bool, out *sdk.ExtractResult) (*sdk.ExtractResult, error) {
	page, hrefs, err := prepareVisible(root, objs)
	if err != nil {
		return nil, err
	}
	if why := tooCostly(root); why != "" {
		out.Title = pageTitle(root)
		out.Metadata = headMetadata(root, out.Title)
		out.Warnings = append(out.Warnings, "metadata read from the page's head only: "+why)
	} else {
		_ = mainContent(root, page, nil, req.URL, out, nil)
	}
	out.Metadata = withSchema(out.Metadata, schema)
	content := visibleBody(root)
	restoreCodeLanguages(content)
	unwrapLayoutTables(content)
	tidy(content)
	var contentAsHTML string
	if wantHTML {
		contentAsHTML = objs.objectHTML(contentHTML(content, hrefs, docBase))
	}
	// The HTML keeps the lists of a grid's cells; the markdown's table
	// cannot (gridcells.go).
	listCellItems(content)
	markAngles(content)
	md, err := e.markdown(ctx, content, docBase)
	if err != nil {
		return nil, err
	}
	md = objs.objectMarkdown(linkMarkdown(md, hrefs, docBase))
	if !keepLinks {
		md = unlinkMarkdown(md)
	}
	if !objs.images {
		md = dropImageMarkdown(md)
	}
	return capped(out, md, contentAsHTML, req.MaxOutputBytes), nil
}

// prepare readies the page for go-trafilatura: it marks formulas
// (math.go), shows what readers see and removes what they cannot
// (hidden.go) or must close to read
// (overlays.go, modals.go), reads what the page declares itself to be (pagetype.go),
// removes the banner, navigation and footer every page of the site
// repeats (landmarks.go), marks its links (links.go) and removes what a
// page of its type holds beside its content (reviews, other articles), and
// writes code in table cells and preformatted blocks as go-trafilatura
// keeps it (cells.go, code.go). It returns the page type and the links'
// hrefs by number. r switches rules off for the ablation benchmark.
func prepare(root *html.Node, objs *objects, r *rules) (pageType, []string, error) {
	r.apply("streamed", root, revealStreamed)
	r.apply("noscript", root, openNoscript)
	markMath(root, objs)
	if err := removeHiddenWith(root, r); err != nil {
		return pageType{}, nil, err
	}
	countFormulasTooLarge(root, objs)
	r.apply("overlays", root, dropOverlays)
	r.apply("modals", root, dropClosedModals)
	unwrapLineNumberTables(root)
	layOutTables(root)
	listCellItems(root)
	r.apply("liststart", root, markListStarts)
	if objs.images {
		markImages(root, objs, objs.base)
	}
	r.apply("strike", root, func(n *html.Node) { markStrikethrough(n, objs) })
	r.apply("cells", root, keepCellCode)
	r.apply("pre", root, flattenPreformatted)
	r.apply("emphasis", root, flattenEmphasis)
	breakAfterSummaries(root)
	r.apply("spaces", root, markSpaces)
	r.apply("breaks", root, keepBreaks)
	page := pageTypeWith(root, r)
	r.apply("landmarks", root, dropLandmarks)
	var hrefs []string
	if r.on("links") {
		hrefs = markLinks(root, !page.article)
		r.note("links", len(hrefs) > 0)
	}
	if page.product {
		r.apply("reviews", root, dropReviews)
	}
	if page.article {
		r.apply("articles", root, func(n *html.Node) { dropOtherArticles(n, page.markedArticle) })
	}
	// Last, so every rule above reads the page whole (intext.go).
	r.apply("intext", root, func(n *html.Node) { dropFromText(n) })
	return page, hrefs, nil
}

// mainContent finds the page's main content with go-trafilatura, steered
// by the page type, and sets out's title, metadata and warnings. Without a
// main content it returns the page without its chrome.
func mainContent(root *html.Node, page pageType, hrefs []string, pageURL string, out *sdk.ExtractResult, r *rules) *html.Node {
	opts := extractOptions(pageURL)
	if !r.on("links") {
		opts.IncludeLinks = true // go-trafilatura's own links, unmarked
	}
	if r.on("comments") {
		opts.ExcludeComments = !page.comments
		r.note("comments", page.comments)
	}
	if page.items && r.on("recall") {
		opts.Focus = trafilatura.FavorRecall
		r.note("recall", true)
	}
	if why := tooCostly(root); why != "" && r.on("bound") {
		// The page is read as when go-trafilatura finds nothing, but
		// at once, not after seconds to minutes of its work (bounded.go).
		out.Title = pageTitle(root)
		out.Metadata = headMetadata(root, out.Title)
		out.Warnings = append(out.Warnings, "main content not sought: "+why+"; returning the whole page without its menus, header and footer")
		return withoutChrome(root)
	}
	// go-trafilatura works on its own copy of the tree.
	res, err := trafilatura.ExtractDocument(root, opts)
	// The code blocks' line breaks, kept from go-trafilatura (code.go).
	restoreLines(root)
	if err != nil {
		out.Title = pageTitle(root)
		out.Metadata = headMetadata(root, out.Title)
		out.Warnings = append(out.Warnings, "no main content found ("+err.Error()+"); returning the whole page")
		return withoutChrome(root)
	}
	restoreLines(res.ContentNode)
	restoreLines(res.CommentsNode)
	res.ContentText = unmarkLines(res.ContentText)
	res.Metadata.Title = withoutPermalink(res.Metadata.Title)
	out.Title, out.Metadata = stripObjectMarks(stripLinkMarks(restoreSpaces(res.Metadata.Title))), metadata(res.Metadata)
	setLanguage(out.Metadata, root, res)
	content := chooseContent(root, page, hrefs, res, r)
	if !page.discussion {
		r.apply("split", content, func(c *html.Node) { restoreSplitBody(root, c) })
	}
	r.apply("heading-levels", content, func(c *html.Node) { restoreHeadingLevels(root, c) })
	r.apply("section-headings", content, func(c *html.Node) { restoreSectionHeadings(root, c) })
	r.apply("title-heading", content, func(c *html.Node) { restoreTitleHeading(root, c, out.Title) })
	return content
}

// finish removes from the markdown what follows an article's text (tag
// blocks, one-link paragraphs; with images, the images among them stay),
// and returns no content, with a warning in
// out, when what is left is only words of the page's title or of its
// menus and footer (thin.go).
func finish(md string, root *html.Node, page pageType, images bool, out *sdk.ExtractResult, r *rules) string {
	if r.on("tail") {
		kept := dropLinkTail(md, page.article, images)
		r.note("tail", kept != md)
		md = kept
	}
	if page.article && r.on("lonelinks") {
		kept := dropLoneLinks(md)
		r.note("lonelinks", kept != md)
		md = kept
	}
	if r.on("titleonly") && len(md) <= maxTitleBytes && titleOnly(md, out.Title+" "+pageTitle(root)) {
		r.note("titleonly", md != "")
		out.Warnings = append(out.Warnings, "the page holds nothing to read beyond its title (scripts may build it)")
		return ""
	}
	if r.on("chromeonly") && chromeOnly(unlinkMarkdown(md), root) {
		r.note("chromeonly", md != "")
		out.Warnings = append(out.Warnings, "the page holds nothing to read beyond its menus and footer (scripts may build it)")
		return ""
	}
	return md
}

// chooseContent picks the content (pickContent) and drops what follows
// its posts on a discussion (signatures) or its text on an article (lists
// of teasers for other articles).
func chooseContent(root *html.Node, page pageType, hrefs []string, res *trafilatura.ExtractResult, r *rules) *html.Node {
	content := pickContent(root, page, hrefs, res, r)
	switch {
	case content == nil:
	case page.discussion:
		r.apply("signatures", content, dropSignatures)
	case page.article:
		r.apply("teasers", content, dropTeaserLists)
	}
	return content
}

// pickContent picks the content among go-trafilatura's pick and the
// regions the page's own structure offers: its thread (thread.go), its body
// when the pick is too thin (thin.go), a wider region (widen.go).
func pickContent(root *html.Node, page pageType, hrefs []string, res *trafilatura.ExtractResult, r *rules) *html.Node {
	if page.discussion && r.on("thread") {
		if thread := threadOf(root, r); thread != nil {
			r.note("thread", true)
			return thread
		}
	}
	content := res.ContentNode
	if page.article {
		r.apply("density", content, func(c *html.Node) { dropMarkedLinkParagraphs(c, hrefs) })
	}
	// Comments were asked of go-trafilatura only when they are content.
	if page.comments && res.CommentsNode != nil && content != nil && r.on("comments") {
		content.AppendChild(res.CommentsNode)
	}
	r.apply("echo", content, dropLeadingEcho)
	r.apply("codeblocks", content, restoreCodeBlocks)
	r.apply("separate", content, separateTopLevel)
	r.apply("rejoin", content, rejoinParagraphs)
	if r.on("thin") && (tooThin(res.ContentText) || flattened(content)) {
		before := content
		content = orNonEmpty(withoutChrome(root), content)
		r.note("thin", content != before)
	}
	if !r.on("widen") {
		return content
	}
	if wider := widerContent(root, page, content); wider != nil {
		r.note("widen", true)
		return wider
	}
	return content
}

// linksOption reads the "links" option: "false" renders every link as its
// text, for pages where links would take most of the tokens.
func linksOption(opts map[string]string) (bool, error) {
	switch v, ok := opts["links"]; {
	case !ok || v == "true":
		return true, nil
	case v == "false":
		return false, nil
	default:
		return false, &sdk.DocError{Class: sdk.ClassBadOption, Message: fmt.Sprintf(`links %q: want "true" or "false"`, v)}
	}
}

func extractOptions(pageURL string) trafilatura.Options {
	opts := trafilatura.Options{
		EnableFallback:  true,             // also try readability and DOM Distiller, as the field figures were measured
		ExcludeComments: true,             // comments cost precision on articles and did not help forums
		IncludeLinks:    false,            // links are marked and put back afterwards (links.go)
		HtmlDateMode:    trafilatura.Fast, // dates from markup only; the extensive parser is slow
	}
	if u, err := url.Parse(pageURL); err == nil && u.IsAbs() {
		opts.OriginalURL = u
	}
	return opts
}

// withoutPermalink drops the permalink sign documentation generators put
// at a heading's end ("Configuration¶"), which go-trafilatura keeps when
// it takes the heading for the title.
func withoutPermalink(title string) string {
	return strings.TrimRightFunc(title, func(r rune) bool {
		return r == '¶' || r == '\U0001F517' || unicode.IsSpace(r) || r == spaceMark || !isNotLinkMark(r)
	})
}

// pageTitle returns the text of the document's <title>.
func pageTitle(root *html.Node) string {
	if t := goquery.NewDocumentFromNode(root).Find("title").First().Text(); t != "" {
		return strings.TrimSpace(restoreSpaces(t))
	}
	return ""
}

// parse decodes the page to UTF-8 (plugins/internal/charset, as the
// text extractor does, with the page's <meta> as one more label) and
// parses it. warnings say how the page was read when an agent should
// know: a charset guessed or not fitting the bytes, bytes replaced, nesting flattened.
// Binary data is refused: it is no page, and decoded it is mojibake. The
// byte-order mark goes, as a browser's decoder drops it: left in, it is
// text before <html>, the parser opens the body on it, and the <head>'s
// <title> became the first words of the page's body.
func parse(body []byte, contentType string) (root *html.Node, warnings []string, err error) {
	if err := charset.Binary(body); err != nil {
		return nil, nil, err
	}
	decoded := charset.DecodeHTML(body, contentType)
	root, warning, err := parseNested(string(decoded.Text))
	if err != nil {
		return nil, nil, err
	}
	if warning != "" {
		decoded.Warnings = append(decoded.Warnings, warning)
	}
	return root, decoded.Warnings, nil
}

// parseNested parses text, flattening it (flatten.go) when x/net/html
// refuses it, which it does only for nesting past its limit: a page too
// deep for the parser still has text to read.
func parseNested(text string) (*html.Node, string, error) {
	root, err := html.Parse(strings.NewReader(text))
	if err == nil {
		return root, "", nil
	}
	for _, depth := range flattenDepths {
		if root, ferr := html.Parse(strings.NewReader(flatten(text, depth))); ferr == nil {
			return root, fmt.Sprintf("the page nests elements deeper than the HTML parser allows (%v): the elements past depth %d were flattened, their text kept", err, depth), nil
		}
	}
	return nil, "", err
}

var blankRuns = regexp.MustCompile(`\n{3,}`)

func (e *Extractor) markdown(ctx context.Context, n *html.Node, docBase string) (string, error) {
	// The converter's first step, done in linear time (textruns.go), and
	// nesting it reads at every level bounded (nestcap.go).
	mergeTextRuns(n)
	capNesting(n)
	b, err := e.md.ConvertNode(n, htmltomarkdown.WithContext(ctx), htmltomarkdown.WithDomain(docBase))
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	md := strings.TrimSpace(oneBreakPerLine(stripCellFill(unmarkAngles(restoreSpaces(string(b))), " ")))
	md = escapeCodeSpanPipes(md)
	if e.rules.on("heading-markers") {
		escaped := escapeHeadingMarkers(md)
		e.rules.note("heading-markers", escaped != md)
		md = escaped
	}
	return blankRuns.ReplaceAllString(md, "\n\n"), nil
}

func metadata(m trafilatura.Metadata) map[string]string {
	out := map[string]string{}
	set := func(k, v string) {
		if v = strings.TrimSpace(stripObjectMarks(stripLinkMarks(restoreSpaces(v)))); v != "" {
			out[k] = v
		}
	}
	set("title", m.Title)
	set("author", m.Author)
	set("description", m.Description)
	set("site_name", m.Sitename)
	set("url", m.URL)
	if !m.Date.IsZero() {
		out["date"] = m.Date.Format("2006-01-02")
	}
	return out
}

// setLanguage prefers the language the page declares (<html lang>) and
// trusts go-trafilatura's detection only on enough text: on a few words it
// guesses wildly ("hi" is Zulu).
func setLanguage(meta map[string]string, root *html.Node, res *trafilatura.ExtractResult) {
	lang := ""
	if h := goquery.NewDocumentFromNode(root).Find("html").First(); h.Length() > 0 {
		lang, _ = h.Attr("lang")
		lang, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(lang)), "-")
	}
	if lang == "" && !tooThin(res.ContentText) {
		lang = res.Metadata.Language
	}
	if lang != "" {
		meta["language"] = lang
	}
}

var _ sdk.Extractor = (*Extractor)(nil)
