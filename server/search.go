package server

import (
	"net/http"

	"github.com/siftd/sift/firecrawl"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// handleSearch answers POST /v1/search, sift's own.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request, c *caller) {
	httpapi.LogOf(r.Context()).SetMode("search")
	raw, ae := httpapi.ReadBody(r)
	if ae != nil {
		writeError(w, ae)
		return
	}
	// Firecrawl v1's search shares the path: told apart by its fields.
	if firecrawl.IsV1Search(raw) {
		s.firecrawl.SearchV1(w, r, raw, c)
		return
	}
	var req service.SearchRequest
	if be := httpapi.DecodeBody(raw, &req, true); be != nil {
		writeError(w, httpapi.BadRequest(be.Error()))
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
