package app

import "github.com/siftd/sift/config"

// CacheStages lists where the configured chain's cache stages stand,
// counting the pipeline's stages from 1 as operators read them.
func CacheStages(cfg *config.Config) []int {
	var out []int
	for i, st := range chainBlocks(cfg) {
		if st.Kind == "cache" {
			out = append(out, i+1)
		}
	}
	return out
}
