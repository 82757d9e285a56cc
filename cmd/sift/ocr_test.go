package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/testenv"
)

// ocrOrigin serves the ocr extractor's test image as image/png and as
// application/octet-stream, and the pdf extractor's scan.
func ocrOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	png, err := os.ReadFile(filepath.Join("..", "..", "plugins", "ocr", "testdata", "title.png"))
	if err != nil {
		t.Fatal(err)
	}
	scan, err := os.ReadFile(filepath.Join("..", "..", "plugins", "pdf", "testdata", "pdfjs-issue12213.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/title.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(png)
		case "/download":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(png)
		case "/scan.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write(scan)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// startOCRSift serves a configuration like the shipped one (its pdf and
// ocr blocks) against origin, with env added to sift's environment.
func startOCRSift(t *testing.T, origin *httptest.Server, env ...string) string {
	t.Helper()
	addr, _ := startSiftPipeline(t, origin, "", `extractor "pdf" {
  timeout       = "5m"
  ocr_languages = ["eng"]
}
extractor "ocr" {
  timeout   = "5m"
  languages = ["eng"]
}
`, env...)
	return addr
}

func fetchJSON(t *testing.T, addr, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	method := http.MethodGet
	if body != nil {
		raw, _ := json.Marshal(body)
		rd, method = bytes.NewReader(raw), http.MethodPost
	}
	req, _ := http.NewRequest(method, "http://"+addr+path, rd)
	req.Header.Set("Authorization", "Bearer "+sdkKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %d %s", path, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

// pathWithoutTesseract is PATH with the directories holding tesseract
// taken off.
func pathWithoutTesseract() string {
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "tesseract")); err != nil {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// TestServeWithoutTesseract: without the OCR engine sift serves as
// before; /healthz names the missing engine and its Debian package, an
// image is a 415 and a scan keeps its 422, each saying what to install.
func TestServeWithoutTesseract(t *testing.T) {
	origin := ocrOrigin(t)
	addr := startOCRSift(t, origin, "PATH="+pathWithoutTesseract())
	status, health := fetchJSON(t, addr, "/healthz", nil)
	if raw, _ := json.Marshal(health); status != http.StatusOK || !strings.Contains(string(raw), "OCR engine missing") ||
		!strings.Contains(string(raw), "tesseract-ocr") {
		t.Errorf("/healthz: %d %s", status, raw)
	}
	status, out := fetchJSON(t, addr, "/v1/fetch", map[string]any{"url": origin.URL + "/title.png"})
	if msg, _ := out["error"].(string); status != http.StatusUnsupportedMediaType || !strings.Contains(msg, "install Debian's tesseract-ocr") {
		t.Errorf("an image: %d %v", status, out)
	}
	status, out = fetchJSON(t, addr, "/v1/fetch", map[string]any{"url": origin.URL + "/scan.pdf"})
	if msg, _ := out["error"].(string); status != http.StatusUnprocessableEntity || out["hint"] != "ocr" ||
		!strings.HasPrefix(msg, "no_text:") || !strings.Contains(msg, "install Debian's tesseract-ocr") {
		t.Errorf("a scan: %d %v", status, out)
	}
}

// TestServeOCR: through sift serve, an image (served as image/png, and as
// application/octet-stream, recognised by its header) and a scan are read
// by OCR, with the warning that says so; /healthz warns of nothing.
func TestServeOCR(t *testing.T) {
	testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
	origin := ocrOrigin(t)
	addr := startOCRSift(t, origin)
	if _, health := fetchJSON(t, addr, "/healthz", nil); strings.Contains(fmt.Sprint(health), "warnings") {
		t.Errorf("/healthz: %v", health)
	}
	for _, path := range []string{"/title.png", "/download"} {
		status, out := fetchJSON(t, addr, "/v1/fetch", map[string]any{"url": origin.URL + path})
		content, _ := out["content"].(string)
		meta, _ := out["metadata"].(map[string]any)
		if status != http.StatusOK || !strings.Contains(content, "Technology Acceptance Model") || meta["width"] != "1240" ||
			!strings.Contains(fmt.Sprint(out["warnings"]), "read by OCR (tesseract") {
			t.Errorf("%s: %d %v", path, status, out)
		}
	}
	status, out := fetchJSON(t, addr, "/v1/fetch", map[string]any{"url": origin.URL + "/scan.pdf"})
	if content, _ := out["content"].(string); status != http.StatusOK || !strings.Contains(content, "california") {
		t.Errorf("a scan: %d %v", status, out)
	}
}

// TestExtractImageAndScan: sift extract reads an image and a scan by OCR,
// and -o ocr=always reads a text page by OCR too.
func TestExtractImageAndScan(t *testing.T) {
	testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
	img, _ := filepath.Abs(filepath.Join("..", "..", "plugins", "ocr", "testdata", "title.webp"))
	stdout, stderr, code := runSift(t, nil, "extract", "--warm", "0", img)
	if code != 0 || !strings.Contains(stdout, "Technology Acceptance Model") || !strings.Contains(stderr, "warning: the image was read by OCR") {
		t.Fatalf("an image: exit %d\n%s%s", code, stdout, stderr)
	}
	scan, _ := filepath.Abs(filepath.Join("..", "..", "plugins", "pdf", "testdata", "pdfjs-issue12213.pdf"))
	if stdout, stderr, code = runSift(t, nil, "extract", "--warm", "0", scan); code != 0 || !strings.Contains(stdout, "california") {
		t.Fatalf("a scan: exit %d\n%s%s", code, stdout, stderr)
	}
	text, _ := filepath.Abs(filepath.Join("..", "..", "plugins", "pdf", "testdata", "pdfjs-TAMReview.pdf"))
	stdout, stderr, code = runSift(t, nil, "extract", "--warm", "0", "-o", "ocr=always", "-o", "pages=1", "--json", text)
	if code != 0 || !strings.Contains(stdout, `"ocr_pages": "1"`) {
		t.Fatalf("ocr=always: exit %d\n%s%s", code, stdout, stderr)
	}
}
