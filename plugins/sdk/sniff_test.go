package sdk_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

var feedRule = sdk.SniffRule{ContentTypes: []string{"application/xml", "text/xml"}, RootElements: []string{"rss", "feed", "RDF"}}

func TestSniffRuleMatchContent(t *testing.T) {
	padding := "<!-- " + strings.Repeat("x", sdk.SniffBytes) + " -->"
	tests := []struct {
		name string
		rule sdk.SniffRule
		body string
		want bool
	}{
		{"rss with prolog", feedRule, `<?xml version="1.0" encoding="ISO-8859-1"?>
<!-- a comment -->
<!DOCTYPE rss>
<rss version="2.0"><channel/></rss>`, true},
		{"atom with namespace", feedRule, `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>`, true},
		{"rdf with prefix", feedRule, `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>`, true},
		{"byte order mark", feedRule, "\xef\xbb\xbf<rss/>", true},
		{"stylesheet and a doctype with an internal subset", feedRule, `<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="rss.xsl"?>
<!DOCTYPE rss [<!ENTITY nbsp "&#160;"> <!ENTITY gt2 ">>">]>
<rss>`, true},
		{"root cut inside its name", feedRule, `<?xml version="1.0"?><rs`, false},
		{"unclosed comment", feedRule, `<!-- <rss/>`, false},
		{"another root", feedRule, `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`, false},
		{"names compare exactly", feedRule, `<RSS/>`, false},
		{"root in a child", feedRule, `<html><rss/></html>`, false},
		{"text before any element", feedRule, `hello <rss/>`, false},
		{"not xml", feedRule, `{"rss": 1}`, false},
		{"empty", feedRule, ``, false},
		{"root beyond the sniffed bytes", feedRule, padding + `<rss/>`, false},
		{"pattern", sdk.SniffRule{ContentTypes: []string{"text/plain"}, Pattern: `^#EXTM3U`}, "#EXTM3U\n#EXTINF:1,a\n", true},
		{"pattern misses", sdk.SniffRule{ContentTypes: []string{"text/plain"}, Pattern: `^#EXTM3U`}, "a playlist?", false},
		{"both tests must hold", sdk.SniffRule{ContentTypes: []string{"text/xml"}, RootElements: []string{"rss"}, Pattern: `version="2\.0"`}, `<rss version="0.91"/>`, false},
		{"both tests hold", sdk.SniffRule{ContentTypes: []string{"text/xml"}, RootElements: []string{"rss"}, Pattern: `version="2\.0"`}, `<rss version="2.0"/>`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.rule.Compile()
			if err != nil {
				t.Fatal(err)
			}
			if got := s.MatchContent([]byte(tc.body)); got != tc.want {
				t.Errorf("MatchContent = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSniffRuleCompileRefusesBadRules(t *testing.T) {
	for rule, want := range map[*sdk.SniffRule]string{
		{RootElements: []string{"rss"}}:                                "no content types",
		{ContentTypes: []string{"text/xml"}}:                           "neither root elements nor a pattern",
		{ContentTypes: []string{"text/xml"}, Pattern: `(unclosed`}:     "sniff pattern",
		{ContentTypes: []string{"text/xml"}, Pattern: `(?<=lookback)`}: "sniff pattern",
	} {
		if _, err := rule.Compile(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want an error saying %q", *rule, err, want)
		}
	}
}

type feedInfo struct{ upper }

func (feedInfo) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "feed", ContentTypes: []string{"application/rss+xml"}, Sniff: []sdk.SniffRule{feedRule,
		{ContentTypes: []string{"text/plain"}, Pattern: "^#EXTM3U"}}}, nil
}

// TestSniffRulesCrossTheProtocol: the rules a plugin announces reach the
// host as they were written.
func TestSniffRulesCrossTheProtocol(t *testing.T) {
	ex := sdktest.Extractor(t, feedInfo{})
	info, err := ex.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := feedInfo{}.Info(t.Context())
	if !reflect.DeepEqual(info.Sniff, want.Sniff) {
		t.Errorf("sniff rules %+v, want %+v", info.Sniff, want.Sniff)
	}
}

// FuzzSniffRuleMatchContent: a hostile document's start neither panics the
// sniffer nor makes it read past SniffBytes.
func FuzzSniffRuleMatchContent(f *testing.F) {
	for _, seed := range []string{`<?xml version="1.0"?><rss/>`, "<!DOCTYPE x [<!ENTITY a 'b'>]><feed/>", "\xef\xbb\xbf<", "<![CDATA[", "<a:b:c/>"} {
		f.Add([]byte(seed))
	}
	s, err := sdk.SniffRule{ContentTypes: []string{"text/xml"}, RootElements: []string{"rss"}, Pattern: "rss"}.Compile()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := s.MatchContent(body)
		if len(body) > sdk.SniffBytes && got != s.MatchContent(body[:sdk.SniffBytes]) {
			t.Errorf("the answer depends on bytes past SniffBytes")
		}
	})
}

// BenchmarkSniff is the cost a sniff rule adds to routing one document of
// a type it sniffs: a feed found after a long prolog, and a large XML
// document of another kind.
func BenchmarkSniff(b *testing.B) {
	s, err := feedRule.Compile()
	if err != nil {
		b.Fatal(err)
	}
	docs := map[string][]byte{
		"rss after a 4KiB comment": []byte(`<?xml version="1.0"?><!-- ` + strings.Repeat("x", 4<<10) + ` --><rss version="2.0"><channel/></rss>`),
		"other xml, 1MiB":          []byte(`<?xml version="1.0"?><catalog>` + strings.Repeat("<book>Go</book>", 1<<16) + `</catalog>`),
	}
	for name, doc := range docs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				s.MatchContent(doc)
			}
		})
	}
}
