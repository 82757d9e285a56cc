package server

import (
	"net/http"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

func (s *Server) handleFetch(w http.ResponseWriter, r *http.Request, c *caller) {
	req, ae := decodeFetch(r)
	if ae != nil {
		writeError(w, ae)
		return
	}
	rl := httpapi.LogOf(r.Context())
	rl.SetMode(req.Mode)
	out, ae := s.svc.Fetch(r.Context(), c, req)
	if ae != nil {
		writeError(w, ae)
		return
	}
	rl.Answer(out.Source.Cached, out.Sizes.ReturnedTokens, len(out.Warnings))
	if enc := out.Encoded; enc != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(enc)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

func decodeFetch(r *http.Request) (*service.FetchRequest, *apiError) {
	var req service.FetchRequest
	if ae := httpapi.ReadJSON(r, &req); ae != nil {
		return nil, ae
	}
	if ae := service.ValidateFetch(&req); ae != nil {
		return nil, ae
	}
	return &req, nil
}
