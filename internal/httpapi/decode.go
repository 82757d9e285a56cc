package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/service"
)

// BodyError is a request body that does not decode, said in the terms of
// the JSON the client sent: the field by its name and the kind of value
// it wants, never a Go type.
type BodyError struct {
	// Field is the field's JSON path ("targets.url"); "" for the body as
	// a whole.
	Field string
	Why   string
	// Syntax is set when the body is not JSON at all.
	Syntax bool
}

func (e *BodyError) Error() string {
	if e.Field == "" {
		return e.Why
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Why)
}

// DecodeBody decodes raw, which must hold one JSON object and nothing
// after it, into v (a pointer to a struct). With strict, a field v does
// not have is refused.
func DecodeBody(raw []byte, v any, strict bool) *BodyError {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return DescribeDecodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return &BodyError{Why: fmt.Sprintf("unexpected data after the JSON object, at byte %d: send one object", dec.InputOffset()), Syntax: true}
	}
	// encoding/json reads null into a struct as nothing at all: without
	// this, a body of null is taken for an empty object, and refused for
	// the first field it lacks (url is required).
	if bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("null")) {
		return &BodyError{Why: "the body must be a JSON object, not null"}
	}
	return nil
}

// DescribeDecodeError says what encoding/json's error means for the
// client.
func DescribeDecodeError(err error) *BodyError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return &BodyError{Why: "malformed JSON: the body is empty; send a JSON object", Syntax: true}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &BodyError{Why: "malformed JSON: the body ends before the object does", Syntax: true}
	case errors.As(err, &se):
		return &BodyError{Why: fmt.Sprintf("malformed JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: ")), Syntax: true}
	case errors.As(err, &te) && te.Field == "":
		return &BodyError{Why: "the body must be a JSON object, not " + article(te.Value)}
	case errors.As(err, &te):
		return &BodyError{Field: jsonPath(te.Field), Why: fmt.Sprintf("want %s, not %s", jsonKind(te.Type), article(te.Value))}
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		field, _ := strconv.Unquote(name)
		return &BodyError{Field: field, Why: "no such field"}
	}
	return &BodyError{Why: strings.TrimPrefix(msg, "json: ")}
}

// embeddedTypes are Go struct types embedded in the ones requests decode
// into; encoding/json names them in a type error's path, but they are no
// part of the JSON. schemaWithoutMethods is jsonschema-go's.
var embeddedTypes = []string{"scrapeOptions.", "schemaWithoutMethods."}

// jsonPath is a type error's field path without the names of embedded
// structs.
func jsonPath(field string) string {
	for _, e := range embeddedTypes {
		field = strings.ReplaceAll(field, e, "")
	}
	return field
}

// article puts "a" or "an" before a JSON kind as encoding/json names it
// ("string", "number 1.5", "object").
func article(kind string) string {
	if kind == "" {
		return "that"
	}
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// jsonKind names a Go type as the JSON a caller should send.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "an object"
}

// ReadBody reads a request body up to the route's cap (the route wrapper gives the cap).
func ReadBody(r *http.Request) ([]byte, *service.Error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r.Body); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, BodyTooLarge(mbe.Limit, -1)
		}
		return nil, BadRequest("reading the request body: " + err.Error())
	}
	return buf.Bytes(), nil
}

// CheckEncoding refuses a request body sent with a content coding
// (Content-Encoding: gzip), 415 naming it, on both APIs: the route's cap
// bounds the bytes on the wire, so inflating them would need a second
// bound, and the bodies sift takes (64 KiB, 256 KiB for a batch) gain
// little from compression; read as it is, it would be JSON garbage.
func CheckEncoding(values []string) *service.Error {
	for _, v := range values {
		for _, coding := range strings.Split(v, ",") {
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding == "" || coding == "identity" {
				continue
			}
			ae := service.ClassError(errclass.Unsupported, fmt.Sprintf(
				"request body in Content-Encoding %q: send the JSON uncompressed, without a Content-Encoding header", coding))
			ae.FirecrawlStatus = http.StatusUnsupportedMediaType
			return ae
		}
	}
	return nil
}

// ReadJSON reads and decodes a native (/v1) request body into v, refusing
// fields v does not have.
func ReadJSON(r *http.Request, v any) *service.Error {
	raw, ae := ReadBody(r)
	if ae != nil {
		return ae
	}
	if be := DecodeBody(raw, v, true); be != nil {
		return BadRequest(be.Error())
	}
	return nil
}

// BodyTooLarge is a request body over the route's cap of limit bytes;
// size is the body's declared length, or negative when unknown. It is 413
// on both APIs: the body was not read, whatever the route.
func BodyTooLarge(limit, size int64) *service.Error {
	msg := fmt.Sprintf("the request body is over the %d-byte limit of this route", limit)
	if size >= 0 {
		msg = fmt.Sprintf("the request body is %d bytes, over the %d-byte limit of this route", size, limit)
	}
	if limit < MaxBatchBody {
		msg += fmt.Sprintf("; many URLs go to the batch routes, whose limit is %d bytes", MaxBatchBody)
	}
	ae := service.ClassError(errclass.TooLarge, msg)
	ae.FirecrawlStatus = http.StatusRequestEntityTooLarge
	return ae
}
