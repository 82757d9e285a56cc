// Package tokens estimates how many LLM tokens a text costs an agent.
//
// The estimate is one token per four bytes of UTF-8, the rule of thumb of
// BPE tokenizers on English prose; code and non-Latin scripts cost more per
// byte. It is labelled an estimate wherever it is reported.
package tokens

// Estimate returns the approximate token count of s.
func Estimate(s string) int {
	return (len(s) + 3) / 4
}
