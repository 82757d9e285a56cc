package server

import (
	"net/http"
	"slices"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/httpapi"
)

// metricsRoute serves /metrics as the metrics block says: open by
// default, else only to a scrape with a caller's key (one of the block's
// callers, when it names them), refused 401 in sift's envelope as on the
// other native routes. The series name every caller and count its
// requests, so an operator whose /metrics is reachable by others closes it.
func (s *Server) metricsRoute(access config.Metrics) http.Handler {
	page := s.metrics.Handler()
	if !access.KeyRequired {
		return page
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ae := s.authenticate(r)
		if ae != nil {
			writeError(w, ae)
			return
		}
		httpapi.LogOf(r.Context()).SetCaller(c)
		if access.Callers != nil && !slices.Contains(access.Callers, c.Name) {
			writeError(w, classError(errclass.Unauthorized, "this key may not scrape /metrics: send the key of a caller the metrics block's callers name"))
			return
		}
		page.ServeHTTP(w, r)
	})
}
