package json

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/itchyny/gojq"
	"github.com/jmespath/go-jmespath"

	"github.com/siftd/sift/plugins/sdk"
)

// jmesPath applies a JMESPath expression.
func jmesPath(body []byte, expr string) ([]byte, error) {
	compiled, err := jmespath.Compile(expr)
	if err != nil {
		return nil, sdk.Invalid("json_path: %v", err)
	}
	var data any
	if err := json.Unmarshal(body, &data); err != nil {
		return nil, sdk.Invalid("json_path: %v", err)
	}
	res, err := compiled.Search(data)
	if err != nil {
		return nil, sdk.Invalid("json_path: %v", err)
	}
	return json.Marshal(res)
}

// runJQ runs a jq program with a time bound, a bound on how many values
// it may emit and bounds on what one step may build (see bounds.go).
// Several outputs become a JSON array. The program runs on a goroutine of
// its own, so the answer comes at the deadline even when one step is
// still running; that step then ends the run, as gojq looks at the
// context before the next.
func runJQ(ctx context.Context, body []byte, program string) ([]byte, error) {
	if len(program) > MaxProgram {
		return nil, sdk.Invalid("jq: the program is %d bytes, over the limit of %d", len(program), MaxProgram)
	}
	query, err := gojq.Parse(program)
	if err != nil {
		return nil, sdk.Invalid("jq: %v", err)
	}
	code, err := boundedOps(query)
	if err != nil {
		return nil, sdk.Invalid("jq: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		return nil, sdk.Invalid("jq: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, QueryTimeout)
	defer cancel()
	type outcome struct {
		out []byte
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		out, err := collect(ctx, code, data)
		done <- outcome{out, err}
	}()
	select {
	case o := <-done:
		return o.out, o.err
	case <-ctx.Done():
		return nil, timeoutError(ctx.Err())
	}
}

// collect runs the program and encodes what it emits.
func collect(ctx context.Context, code *gojq.Code, data any) ([]byte, error) {
	var results []any
	iter := code.RunWithContext(ctx, data)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			if ctx.Err() != nil {
				return nil, timeoutError(ctx.Err())
			}
			return nil, sdk.Invalid("jq: %v", err)
		}
		if len(results) == MaxQueryResults {
			return nil, sdk.Invalid("jq: program emitted more than %d values", MaxQueryResults)
		}
		results = append(results, v)
	}
	var v any = results
	if len(results) == 1 {
		v = results[0]
	}
	if !fits(v, MaxResult) {
		return nil, sdk.Invalid("jq: the result is over %d bytes; narrow the program", MaxResult)
	}
	return marshal(v)
}

// timeoutError says the program ran past its time, or that the request
// ended first.
func timeoutError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return sdk.Invalid("jq: program ran past %s", QueryTimeout)
	}
	return err
}

// fits reports whether v, encoded, stays within about limit bytes. It
// stops counting at the limit, so a result sharing one subtree many
// times costs no more than a small one.
func fits(v any, limit int) bool {
	budget := limit
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			budget -= len(v) + 2
		case []any:
			budget -= 2
			for _, e := range v {
				if !walk(e) {
					return false
				}
			}
		case map[string]any:
			budget -= 2
			for k, e := range v {
				budget -= len(k) + 4
				if !walk(e) {
					return false
				}
			}
		default:
			budget -= 8
		}
		return budget >= 0
	}
	return walk(v)
}

// marshal encodes a jq result; jq can compute values JSON cannot hold
// (infinite or NaN numbers), which is the query's fault, not the plugin's.
func marshal(v any) ([]byte, error) {
	out, err := json.Marshal(v)
	if err != nil {
		return nil, sdk.Invalid("jq: the result is not representable as JSON: %v", err)
	}
	return out, nil
}
