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

// runJQ runs a jq program with a time bound and a bound on how many values
// it may emit. Several outputs become a JSON array.
func runJQ(ctx context.Context, body []byte, program string) ([]byte, error) {
	query, err := gojq.Parse(program)
	if err != nil {
		return nil, sdk.Invalid("jq: %v", err)
	}
	code, err := gojq.Compile(query)
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
	var results []any
	iter := code.RunWithContext(ctx, data)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, sdk.Invalid("jq: program ran past %s", QueryTimeout)
			}
			return nil, sdk.Invalid("jq: %v", err)
		}
		if len(results) == MaxQueryResults {
			return nil, sdk.Invalid("jq: program emitted more than %d values", MaxQueryResults)
		}
		results = append(results, v)
	}
	if len(results) == 1 {
		return marshal(results[0])
	}
	return marshal(results)
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
