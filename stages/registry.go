package stages

import (
	"fmt"
	"sort"
)

// Registry holds the stage kinds a chain may use.
type Registry struct {
	kinds map[string]Kind
}

// NewRegistry returns a registry holding kinds. It panics on a duplicate
// name: that is a programming error, not a configuration one.
func NewRegistry(kinds ...Kind) *Registry {
	r := &Registry{kinds: make(map[string]Kind, len(kinds))}
	for _, k := range kinds {
		if _, dup := r.kinds[k.Name]; dup {
			panic(fmt.Sprintf("stages: kind %q registered twice", k.Name))
		}
		r.kinds[k.Name] = k
	}
	return r
}

// Lookup returns the kind called name.
func (r *Registry) Lookup(name string) (Kind, bool) {
	k, ok := r.kinds[name]
	return k, ok
}

// Names lists the registered kinds in alphabetical order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.kinds))
	for n := range r.kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
