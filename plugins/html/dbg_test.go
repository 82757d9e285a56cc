package html
import ("testing";"os";"strings";"context";"github.com/siftd/sift/plugins/sdk")
func TestDbgRule(t *testing.T){
	body, _ := os.ReadFile(os.Getenv("DBG_FILE"))
	want := os.Getenv("DBG_WANT")
	base := New().(*Extractor)
	run := func(r *rules) bool {
		ex := &Extractor{md: base.md, rules: r}
		res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "text/html", URL: os.Getenv("DBG_URL")})
		if err != nil { t.Fatal(err) }
		return strings.Contains(res.Content, want)
	}
	t.Logf("all on: %v", run(nil))
	for _, name := range append(ruleNames(), "bound") {
		if got := run(&rules{off: map[string]bool{name: true}}); got { t.Logf("off %s: found", name) }
	}
}
