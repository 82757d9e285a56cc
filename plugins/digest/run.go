package digest

import (
	"context"
	"fmt"

	"github.com/siftd/sift/plugins/sdk"
)

// promptOverhead reserves tokens for the instructions around the page.
const promptOverhead = 300

// Digest condenses req.Content. A page longer than the model's context is
// cut to fit, with a warning; any failure is a DocError naming its class,
// so the digest stage can fall back to clean text.
func (d *Digester) Digest(ctx context.Context, req *sdk.DigestRequest) (*sdk.DigestResult, error) {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.timeout)
	defer cancel()
	res := &sdk.DigestResult{}
	budget := (d.cfg.ContextTokens - d.cfg.MaxTokens - promptOverhead) * bytesPerToken
	content := req.Content
	if budget > 0 && len(content) > budget {
		content, _ = sdk.Truncate(content, int64(budget))
		res.Warnings = append(res.Warnings, fmt.Sprintf("page cut to %d of %d bytes to fit the model's context", len(content), len(req.Content)))
	}
	text, err := d.call(ctx, d.request(req, content))
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, &sdk.DocError{Class: ClassBadAnswer, Message: "the model returned no text"}
	}
	res.Digest = text
	return res, nil
}

// bytesPerToken is the estimate that sizes the page to the context; the
// server's own overflow error is still handled.
const bytesPerToken = 3
