package server

import (
	"net/http"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// apiError is an error as agents see it (service.Error): the handlers
// write it in the envelope of their API.
type apiError = service.Error

// classError is a failure of class c, its message prefixed with the class.
func classError(c errclass.Class, msg string) *apiError { return service.ClassError(c, msg) }

// fromRow is the answer of row r with message msg.
func fromRow(r errclass.Row, msg string) *apiError { return service.FromRow(r, msg) }

// toAPIError classifies any failure through errclass's table.
func toAPIError(err error) *apiError { return service.ErrorOf(err) }

func badRequest(msg string) *apiError { return httpapi.BadRequest(msg) }

// writeError writes sift's error envelope.
func writeError(w http.ResponseWriter, e *apiError) {
	body := map[string]any{"success": false, "error": e.Message}
	if e.Hint != "" {
		body["hint"] = e.Hint
	}
	httpapi.SetRetryAfter(w, e)
	httpapi.WriteJSON(w, e.Status, body)
}
