package llmdigest

import (
	"io"
	"net/http"
)

func readBody(r *http.Request) ([]byte, error) { return io.ReadAll(r.Body) }

func copyBody(w http.ResponseWriter, resp *http.Response) { _, _ = io.Copy(w, resp.Body) }
