package focus

import (
	"math"
	"strings"
	"unicode"
)

// BM25's usual constants: term-frequency saturation and length
// normalisation.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25 scores each document against the query's terms, with document
// frequencies taken from the documents themselves (the page's own parts).
func bm25(query []string, docs [][]string) []float64 {
	n := float64(len(docs))
	scores := make([]float64, len(docs))
	if len(docs) == 0 || len(query) == 0 {
		return scores
	}
	df := map[string]int{}
	total := 0
	tfs := make([]map[string]int, len(docs))
	for i, d := range docs {
		total += len(d)
		tf := map[string]int{}
		for _, t := range d {
			if tf[t] == 0 {
				df[t]++
			}
			tf[t]++
		}
		tfs[i] = tf
	}
	avg := float64(total) / n
	if avg == 0 {
		return scores
	}
	seen := map[string]bool{}
	for _, q := range query {
		if seen[q] || df[q] == 0 {
			continue
		}
		seen[q] = true
		idf := math.Log(1 + (n-float64(df[q])+0.5)/(float64(df[q])+0.5))
		for i, tf := range tfs {
			f := float64(tf[q])
			if f == 0 {
				continue
			}
			norm := bm25K1 * (1 - bm25B + bm25B*float64(len(docs[i]))/avg)
			scores[i] += idf * f * (bm25K1 + 1) / (f + norm)
		}
	}
	return scores
}

// terms are the words of s that carry meaning: lower-cased, stop words
// dropped, plurals folded.
func terms(s string) []string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	out := words[:0]
	for _, w := range words {
		if stopWords[w] || (len(w) < 2 && !unicode.IsNumber(rune(w[0]))) {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// stem folds the commonest English inflections (Harman's S-stemmer and
// -ing/-ed), enough that "tables" finds "table".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies") && !strings.HasSuffix(w, "eies") && !strings.HasSuffix(w, "aies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "es") && !strings.HasSuffix(w, "aes") && !strings.HasSuffix(w, "ees") && !strings.HasSuffix(w, "oes"):
		return w[:len(w)-1]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return w[:len(w)-2]
	}
	return w
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does for from had has have he her
		his how i if in into is it its me my no not of on or our she so than that the their them then there these they
		this to was we were what when where which who whom why will with would you your about after also any all
		more most other some such only own same too very just over under again further once here both each few
		nor off out up down should now s t don doesn isn aren wasn weren hasn haven hadn won wouldn shan shouldn
		between through during before above below am being having doing itself himself herself themselves ourselves
		yourself yourselves those until while against because tell please page`) {
		m[w] = true
	}
	return m
}()
