package firecrawl

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// TestFirecrawlEnvelope: the Firecrawl envelope's status and code are the
// table's for every class.
func TestFirecrawlEnvelope(t *testing.T) {
	t.Parallel()
	for _, r := range errclass.Rows() {
		if r.Status == 0 {
			continue
		}
		rec := httptest.NewRecorder()
		WriteError(rec, service.ClassError(r.Class, "x"))
		body := rec.Body.String()
		if rec.Code != r.FirecrawlStatus || (r.FirecrawlCode != "") != strings.Contains(body, `"code":"`+r.FirecrawlCode+`"`) {
			t.Errorf("%s: %d %s, want %d code %q", r.Class, rec.Code, body, r.FirecrawlStatus, r.FirecrawlCode)
		}
		if (r.RetryAfter > 0) != (rec.Header().Get("Retry-After") != "") {
			t.Errorf("%s: Retry-After %q", r.Class, rec.Header().Get("Retry-After"))
		}
	}
	rec := httptest.NewRecorder()
	WriteError(rec, withCode(badRequest("malformed JSON"), errclass.CodeInvalidJSON))
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"code":"BAD_REQUEST_INVALID_JSON"`) {
		t.Errorf("a refined code: %d %s", rec.Code, rec.Body.String())
	}
	// A refinement the table does not list for the class is not sent:
	// the envelope is the class's.
	rec = httptest.NewRecorder()
	wrong := withCode(service.ClassError(errclass.Timeout, "x"), errclass.CodeInvalidJSON)
	wrong.FirecrawlStatus = http.StatusRequestEntityTooLarge
	WriteError(rec, wrong)
	if rec.Code != 408 || !strings.Contains(rec.Body.String(), `"code":"SCRAPE_TIMEOUT"`) {
		t.Errorf("a refinement outside the table: %d %s", rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	WriteError(rec, httpapi.BodyTooLarge(10, 20))
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), `"code":"TOO_LARGE"`) {
		t.Errorf("a request body over its cap: %d %s", rec.Code, rec.Body.String())
	}
}
