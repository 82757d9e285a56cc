package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/siftd/sift/internal/service"
)

func (s *Server) handleFetch(w http.ResponseWriter, r *http.Request, c *caller) {
	req, ae := decodeFetch(r)
	if ae != nil {
		writeError(w, ae)
		return
	}
	rl := logOf(r.Context())
	rl.setMode(req.Mode)
	out, ae := s.svc.Fetch(r.Context(), c, req)
	if ae != nil {
		writeError(w, ae)
		return
	}
	rl.answer(out.Source.Cached, out.Sizes.ReturnedTokens, len(out.Warnings))
	writeJSON(w, http.StatusOK, out)
}

func decodeFetch(r *http.Request) (*service.FetchRequest, *apiError) {
	var req service.FetchRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, badRequest(fmt.Sprintf("request body over %d bytes", MaxRequestBody))
		}
		return nil, badRequest("malformed JSON body: " + err.Error())
	}
	if ae := req.Validate(); ae != nil {
		return nil, ae
	}
	return &req, nil
}
