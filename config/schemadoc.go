package config

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// AttrDoc documents one attribute of a block.
type AttrDoc struct {
	Name     string
	Type     string
	Required bool
	Doc      string
}

// BlockDoc documents one kind of block: its labels, attributes and the
// blocks it nests.
type BlockDoc struct {
	Name   string
	Labels []string
	Doc    string
	Attrs  []AttrDoc
	Blocks []BlockDoc
	// Open says the block takes attributes beyond Attrs, documented
	// elsewhere (a stage kind's, a plugin's schema).
	Open bool
}

// FileSchema documents the configuration file from the structs it is
// decoded into, so the reference cannot drift from the decoder.
func FileSchema() (BlockDoc, error) {
	return Describe("", "", reflect.TypeFor[rawFile]())
}

var exprType = reflect.TypeFor[hcl.Expression]()

// Describe documents a gohcl struct: each field's hcl tag names it, its
// doc tag says what it is, and its type tag gives its type when the Go
// type does not (an hcl.Expression decoded later). A field without a doc
// tag, or an expression without a type tag, is an error: every attribute
// is documented.
func Describe(name, doc string, t reflect.Type) (BlockDoc, error) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	b := BlockDoc{Name: name, Doc: doc}
	var errs []string
	for f := range t.Fields() {
		tag, ok := f.Tag.Lookup("hcl")
		if !ok {
			continue
		}
		attr, kind, _ := strings.Cut(tag, ",")
		fdoc := f.Tag.Get("doc")
		switch kind {
		case "label":
			b.Labels = append(b.Labels, strings.ToUpper(attr))
			continue
		case "remain":
			b.Open = true
			continue
		case "def_range", "range":
			continue
		case "block":
			nested, err := Describe(attr, fdoc, f.Type)
			if err != nil {
				errs = append(errs, err.Error())
			}
			if fdoc == "" {
				errs = append(errs, fmt.Sprintf("block %s in %s has no doc tag", attr, describedName(name)))
			}
			b.Blocks = append(b.Blocks, nested)
			continue
		}
		typ := f.Tag.Get("type")
		if typ == "" {
			typ = goType(f.Type)
		}
		if fdoc == "" || typ == "" {
			errs = append(errs, fmt.Sprintf("attribute %s in %s has no doc or type tag", attr, describedName(name)))
		}
		b.Attrs = append(b.Attrs, AttrDoc{Name: attr, Type: typ, Required: kind == "", Doc: fdoc})
	}
	if len(errs) > 0 {
		return b, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return b, nil
}

func describedName(name string) string {
	if name == "" {
		return "the top level"
	}
	return "block " + name
}

// goType is the HCL type of a plainly decoded field, "" for an
// expression, whose type tag must say.
func goType(t reflect.Type) string {
	if t == exprType {
		return ""
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "number"
	case reflect.Slice:
		if e := goType(t.Elem()); e != "" {
			return "list(" + e + ")"
		}
	}
	return ""
}
