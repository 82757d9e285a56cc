package host

import (
	"fmt"
	"math"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/plugins/sdk"
)

// FitMemory sizes the memory limit of each extractor that says what it
// needs per byte of body (sdk.Info.MemoryPerBody) from the fetch stage's
// max_body: a block that sets no memory gets at least that, and one whose
// memory is less is refused, naming the need, so a limit too small is an
// error at start and not a process killed by the kernel on the first
// large document.
func FitMemory(specs []Spec, maxBody int64) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i := range specs {
		s := &specs[i]
		if s.Digester || s.Info.MemoryPerBody <= 0 || s.Isolation == "none" {
			continue
		}
		need := MemoryNeed(s.Info.MemoryPerBody, maxBody)
		switch {
		case !s.MemorySet:
			s.Memory = max(s.Memory, need)
		case s.Memory < need:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Memory too small for max_body",
				Detail: fmt.Sprintf("extractor %q has memory = %s, but reading a body of max_body (%s) needs about %g times it and %s more: %s; "+
					"raise memory or leave it out (sift then sizes it), or lower the fetch stage's max_body.",
					s.Name, mib(s.Memory), mib(maxBody), s.Info.MemoryPerBody, mib(sdk.BaseMemory), mib(need)),
				Subject: s.DefRange.Ptr()})
		}
	}
	return diags
}

// MemoryNeed is the memory of a process that needs perBody bytes per byte
// of a body of maxBody, rounded up to a MiB.
func MemoryNeed(perBody float64, maxBody int64) int64 {
	need := float64(sdk.BaseMemory) + perBody*float64(maxBody)
	return int64(math.Ceil(need/(1<<20))) << 20
}

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
}
