package html

import (
	"os"
	"strings"
)

// experiment switches, not for commit
func off(name string) bool {
	b, _ := os.ReadFile("/tmp/h44-off")
	return strings.Contains(string(b), name)
}
