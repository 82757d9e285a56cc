package search

import (
	"net/url"
	"sort"
	"strings"
)

// trackingParams are query parameters that name a campaign, not a page.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "msclkid": true, "yclid": true,
	"mc_cid": true, "mc_eid": true, "igshid": true, "_ga": true, "ref_src": true,
}

// Normalize returns the form of a URL used to tell duplicates apart: scheme
// and host lower-cased, default port, fragment and tracking parameters
// (utm_*, fbclid, gclid, …) dropped, remaining parameters sorted, and a
// trailing slash dropped from any path but the root.
func Normalize(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return raw
	}
	u.Scheme = strings.ToLower(u.Scheme)
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if port := u.Port(); port != "" && !(u.Scheme == "http" && port == "80" || u.Scheme == "https" && port == "443") {
		host += ":" + port
	}
	u.Host, u.Fragment, u.RawFragment, u.User = host, "", "", nil
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(strings.ToLower(k), "utm_") || trackingParams[strings.ToLower(k)] {
			q.Del(k)
		}
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		for _, v := range q[k] {
			parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(v))
		}
	}
	u.RawQuery = strings.Join(parts, "&")
	if u.Path != "/" {
		u.Path = strings.TrimSuffix(u.Path, "/")
		u.RawPath = ""
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// Merge interleaves the backends' lists by rank (first of each, then
// second of each, …), folds duplicates into their first appearance —
// keeping the longest snippet, every chunk and every source — and cuts the
// list to limit.
func Merge(limit int, lists ...[]Result) []Result {
	var out []Result
	index := map[string]int{}
	for rank := 0; ; rank++ {
		more := false
		for _, list := range lists {
			if rank >= len(list) {
				continue
			}
			more = true
			r := list[rank]
			key := Normalize(r.URL)
			if i, dup := index[key]; dup {
				out[i] = fold(out[i], r)
				continue
			}
			index[key] = len(out)
			out = append(out, r)
		}
		if !more {
			break
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

func fold(kept, dup Result) Result {
	if len(dup.Snippet) > len(kept.Snippet) {
		kept.Snippet = dup.Snippet
	}
	if kept.Title == "" {
		kept.Title = dup.Title
	}
	kept.Chunks = append(kept.Chunks, dup.Chunks...)
	for _, s := range dup.Sources {
		if !contains(kept.Sources, s) {
			kept.Sources = append(kept.Sources, s)
		}
	}
	return kept
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
