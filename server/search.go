package server

import (
	"net/http"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// handleSearch answers POST /v1/search, sift's own.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request, c *caller) {
	httpapi.LogOf(r.Context()).SetMode("search")
	var req service.SearchRequest
	if ae := httpapi.ReadJSON(r, &req); ae != nil {
		writeError(w, ae)
		return
	}
	if req.Query == "" {
		writeError(w, badRequest("query is required"))
		return
	}
	if req.K <= 0 {
		req.K = 8
	}
	out, ae := s.svc.Search(r.Context(), c, &req)
	if ae != nil {
		writeError(w, ae)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}
