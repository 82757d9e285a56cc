package pdf

import (
	"fmt"
	"strconv"
	"strings"
)

// parsePages reads a page selection such as "1-3,7" against a document of
// count pages and returns the 0-based page indexes in order, without
// repeats. An empty spec selects every page.
func parsePages(spec string, count int) ([]int, error) {
	if strings.TrimSpace(spec) == "" {
		all := make([]int, count)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(spec, ",") {
		first, last, err := pageRange(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("pages %q: %w", spec, err)
		}
		if last > count {
			return nil, fmt.Errorf("pages %q: page %d is past the last page (%d)", spec, last, count)
		}
		for p := first; p <= last; p++ {
			if !seen[p] {
				seen[p] = true
				out = append(out, p-1)
			}
		}
	}
	return out, nil
}

// pageRange reads "4" or "2-5" (1-based, inclusive).
func pageRange(part string) (first, last int, err error) {
	lo, hi, isRange := strings.Cut(part, "-")
	if first, err = pageNumber(lo); err != nil {
		return 0, 0, err
	}
	last = first
	if isRange {
		if last, err = pageNumber(hi); err != nil {
			return 0, 0, err
		}
	}
	if last < first {
		return 0, 0, fmt.Errorf("%q runs backwards", part)
	}
	return first, last, nil
}

func pageNumber(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a page number (pages count from 1)", s)
	}
	return n, nil
}

// firstPages keeps the first n of the selected pages, n read from a
// request's max_pages option ("" keeps them all).
func firstPages(pages []int, n string) ([]int, error) {
	if n == "" {
		return pages, nil
	}
	max, err := strconv.Atoi(n)
	if err != nil || max < 1 {
		return nil, fmt.Errorf("max_pages %q: want a whole number from 1", n)
	}
	return pages[:min(max, len(pages))], nil
}
