package workspace

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on the key terms of one page.
const (
	minTerms = 3
	maxTerms = 6
	// bodySample is how much of the clean text stands in when title and
	// headings give fewer than minTerms terms.
	bodySample = 4000
)

// Weights of a word by where it was seen.
const (
	weightTitle   = 3
	weightHeading = 2
	weightText    = 1
)

// keyTerms derives 3–6 words that say what a page is about: from its
// digest when there is one (already focused on the agent's question), else
// from its title and headings, filled up from the opening of the text when
// those give fewer than three. Frequent words win; ties go to the earliest.
func keyTerms(title, digest, content string) []string {
	t := newTally()
	t.add(title, weightTitle)
	if digest != "" {
		t.add(digest, weightText)
		return t.top(maxTerms)
	}
	for _, line := range strings.Split(content, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimSpace(line), "#"); ok {
			t.add(strings.TrimLeft(h, "#"), weightHeading)
		}
	}
	terms := t.top(maxTerms)
	if len(terms) >= minTerms {
		return terms
	}
	body := newTally()
	body.add(cutRunes(content, bodySample), weightText)
	for _, w := range body.top(maxTerms) {
		if len(terms) < maxTerms && !slices.Contains(terms, w) {
			terms = append(terms, w)
		}
	}
	return terms
}

type tally struct {
	score map[string]int
	first map[string]int
	seen  int
}

func newTally() *tally { return &tally{score: map[string]int{}, first: map[string]int{}} }

func (t *tally) add(text string, weight int) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\''
	})
	for _, w := range words {
		w = strings.Trim(w, "-'")
		if !isContentWord(w) {
			continue
		}
		if _, ok := t.first[w]; !ok {
			t.first[w] = t.seen
		}
		t.seen++
		t.score[w] += weight
	}
}

func (t *tally) top(n int) []string {
	words := make([]string, 0, len(t.score))
	for w := range t.score {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		a, b := words[i], words[j]
		if t.score[a] != t.score[b] {
			return t.score[a] > t.score[b]
		}
		return t.first[a] < t.first[b]
	})
	return words[:min(n, len(words))]
}

// isContentWord drops short words, numbers and English function words.
func isContentWord(w string) bool {
	if len([]rune(w)) < 3 || stopwords[w] {
		return false
	}
	return strings.ContainsFunc(w, unicode.IsLetter)
}

func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		about above after again against all also and any are aren't because been before being
		below between both but can can't cannot could couldn't did didn't does doesn't doing
		don't down during each few for from further had hadn't has hasn't have haven't having
		her here here's hers herself him himself his how how's into isn't it's its itself let's
		more most mustn't myself nor not off once only other ought our ours ourselves out over
		own same shan't she she'd she'll she's should shouldn't some such than that that's the
		their theirs them themselves then there there's these they they'd they'll they're
		they've this those through too under until very was wasn't we'd we'll we're we've were
		weren't what what's when when's where where's which while who who's whom why why's will
		with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
		one two new use used using get got may might must many much way ways like just also
		page read more http https www com html`) {
		m[w] = true
	}
	return m
}()
