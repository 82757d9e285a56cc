package json

import (
	"fmt"
	"math"
	"reflect"

	"github.com/itchyny/gojq"
)

// Bounds on a jq program beyond its time. gojq checks the deadline between
// instructions, but one instruction can be huge: `"a" * 1e9` builds a
// gigabyte string in one step (9 s, measured) and `. + .` doubles one in
// each. So string repetition and concatenation are bounded before they
// run, by rewriting the program's `*` and `+` into functions that check
// their operands first.
const (
	// MaxProgram bounds a jq program's length in bytes.
	MaxProgram = 4 << 10
	// MaxString bounds a string a program builds with `*` or `+`.
	MaxString = 1 << 20
	// MaxArray bounds an array a program builds with `+`.
	MaxArray = 1 << 17
)

// Names of the bounded operators the rewrite calls.
const (
	boundedMul = "_sift_multiply"
	boundedAdd = "_sift_add"
	rhsVar     = "$__sift_rhs"
)

// boundedOps compiles the program with `*`, `+`, `*=` and `+=` routed
// through the bounded operators.
func boundedOps(query *gojq.Query) (*gojq.Code, error) {
	rewrite(reflect.ValueOf(query))
	mul, err := delegate(".[0] * .[1]")
	if err != nil {
		return nil, err
	}
	add, err := delegate(".[0] + .[1]")
	if err != nil {
		return nil, err
	}
	return gojq.Compile(query,
		gojq.WithFunction(boundedMul, 2, 2, func(_ any, args []any) any {
			if v, ok := mulNumbers(args[0], args[1]); ok {
				return v
			}
			if err := checkMul(args[0], args[1]); err != nil {
				return err
			}
			return mul(args[0], args[1])
		}),
		gojq.WithFunction(boundedAdd, 2, 2, func(_ any, args []any) any {
			if v, ok := addNumbers(args[0], args[1]); ok {
				return v
			}
			if err := checkAdd(args[0], args[1]); err != nil {
				return err
			}
			return add(args[0], args[1])
		}))
}

// addNumbers is `+` on two ints that do not overflow or two floats, the
// arithmetic reductions spend their time on, answered as gojq does without
// the cost of delegating; ok is false for anything else.
func addNumbers(l, r any) (any, bool) {
	switch l := l.(type) {
	case int:
		if r, isInt := r.(int); isInt {
			if v := l + r; (v >= l) == (r >= 0) {
				return v, true
			}
		}
	case float64:
		if r, isFloat := r.(float64); isFloat {
			return l + r, true
		}
	}
	return nil, false
}

// mulNumbers is addNumbers for `*`.
func mulNumbers(l, r any) (any, bool) {
	switch l := l.(type) {
	case int:
		if r, isInt := r.(int); isInt && r != -1 {
			if v := l * r; r == 0 || v/r == l {
				return v, true
			}
		}
	case float64:
		if r, isFloat := r.(float64); isFloat {
			return l * r, true
		}
	}
	return nil, false
}

// delegate compiles a binary operator of gojq's own, so the bounded
// operators keep jq's exact semantics once their operands pass.
func delegate(program string) (func(l, r any) any, error) {
	q, err := gojq.Parse(program)
	if err != nil {
		return nil, err
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, err
	}
	return func(l, r any) any {
		v, _ := code.Run([]any{l, r}).Next()
		return v
	}, nil
}

// rewrite walks the syntax tree below v and rewrites, children first,
// every query whose operator is `*`, `+`, `*=` or `+=`.
func rewrite(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		rewrite(v.Elem())
		if q, ok := v.Interface().(*gojq.Query); ok {
			rewriteQuery(q)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				rewrite(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			rewrite(v.Index(i))
		}
	}
}

func rewriteQuery(q *gojq.Query) {
	switch q.Op {
	case gojq.OpMul, gojq.OpAdd:
		name := map[gojq.Operator]string{gojq.OpMul: boundedMul, gojq.OpAdd: boundedAdd}[q.Op]
		*q = gojq.Query{Term: call(name, q.Left, q.Right)}
	case gojq.OpUpdateMul, gojq.OpUpdateAdd:
		// l op= r is `r as $x | l |= . op $x`: r runs on the input, as
		// jq defines it.
		name := map[gojq.Operator]string{gojq.OpUpdateMul: boundedMul, gojq.OpUpdateAdd: boundedAdd}[q.Op]
		update := &gojq.Query{Term: call(name, &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity}},
			&gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: rhsVar}}})}
		*q = gojq.Query{Left: q.Right, Op: gojq.OpPipe, Patterns: []*gojq.Pattern{{Name: rhsVar}},
			Right: &gojq.Query{Left: q.Left, Op: gojq.OpModify, Right: update}}
	}
}

func call(name string, args ...*gojq.Query) *gojq.Term {
	return &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: name, Args: args}}
}

// checkMul refuses a string repetition whose result would pass MaxString.
func checkMul(l, r any) error {
	s, ok := l.(string)
	n, isNum := gojq.ToFloat64(r)
	if !ok || !isNum {
		s, ok = r.(string)
		n, isNum = gojq.ToFloat64(l)
	}
	if ok && isNum && !math.IsNaN(n) && n > 0 && float64(len(s))*math.Min(n, math.MaxInt32) > MaxString {
		return fmt.Errorf("repeating a %d-byte string %g times passes the limit of %d bytes", len(s), n, MaxString)
	}
	return nil
}

// checkAdd refuses a concatenation whose result would pass MaxString or
// MaxArray.
func checkAdd(l, r any) error {
	switch l := l.(type) {
	case string:
		if r, ok := r.(string); ok && len(l)+len(r) > MaxString {
			return fmt.Errorf("joining strings of %d and %d bytes passes the limit of %d bytes", len(l), len(r), MaxString)
		}
	case []any:
		if r, ok := r.([]any); ok && len(l)+len(r) > MaxArray {
			return fmt.Errorf("joining arrays of %d and %d values passes the limit of %d", len(l), len(r), MaxArray)
		}
	}
	return nil
}
