package digest

import (
	"context"
	"fmt"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// promptOverhead reserves tokens for the instructions around the page.
const promptOverhead = 300

// Digest condenses req.Content. A page longer than the model's context is
// cut to fit, with a warning; any failure is a DocError naming its class,
// so the digest stage can fall back to clean text.
func (d *Digester) Digest(ctx context.Context, req *sdk.DigestRequest) (*sdk.DigestResult, error) {
	ctx, cancel := d.deadline(ctx)
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

// deadlineMargin is how long before the host's deadline a digest gives up,
// so it reports a timeout itself instead of being killed as a hung plugin.
const deadlineMargin = 500 * time.Millisecond

func (d *Digester) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok {
		return context.WithDeadline(ctx, dl.Add(-deadlineMargin))
	}
	return context.WithTimeout(ctx, d.cfg.timeout)
}
