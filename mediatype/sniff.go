package mediatype

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"path"
	"strings"
)

// byExtension names the document types sift reads whose extension Go's
// mime table does not know (or knows only from the host's mime.types).
var byExtension = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown",
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".tab": "text/tab-separated-values",
	".ipynb": "application/x-ipynb+json",
	".rss":   "application/rss+xml", ".atom": "application/atom+xml", ".rdf": "application/rdf+xml",
	".txt": "text/plain",
}

// Sniff guesses the media type of a document that came without a useful
// one (no Content-Type, or a generic one such as application/octet-stream):
// by the extension of name (a file's name or a URL's path) when it is one
// of the text formats sift reads, else by the bytes, as
// http.DetectContentType does. DetectContentType's charset=utf-8 on text
// is a guess it makes without reading the bytes, so it is dropped: the
// extractor then reads the charset from the document or detects it.
// "application/octet-stream" means the bytes say nothing.
func Sniff(name string, body []byte) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := byExtension[ext]; ok {
		return t
	}
	if ext != "" {
		if t := mime.TypeByExtension(ext); t != "" && Of(t) != "application/octet-stream" {
			return withoutUTF8Guess(t)
		}
	}
	trimmed := bytes.TrimSpace(body)
	// A malformed JSON object is still JSON: the extractor says where it breaks.
	if bytes.HasPrefix(trimmed, []byte("{")) || bytes.HasPrefix(trimmed, []byte("[")) && json.Valid(trimmed) {
		return "application/json"
	}
	return withoutUTF8Guess(http.DetectContentType(body))
}

func withoutUTF8Guess(t string) string {
	mt, params, err := mime.ParseMediaType(t)
	if err != nil || !strings.EqualFold(params["charset"], "utf-8") {
		return t
	}
	delete(params, "charset")
	return mime.FormatMediaType(mt, params)
}
