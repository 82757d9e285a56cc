package llmdigest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/siftd/sift/focus"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/tokens"
)

// promptOverhead reserves tokens for the instructions around the page.
const promptOverhead = 300

// Digest condenses req.Content. A page longer than the model's context is
// narrowed to the parts most relevant to the question that fit it (the
// beginning, cut between parts, without a question), with a warning. When
// the server still finds the prompt too long (its tokenizer is not sift's),
// the page is narrowed once more by the ratio it reports, and the ratio is
// remembered. Any failure is a DocError naming its class, so the digest
// stage can fall back.
func (d *Digester) Digest(ctx context.Context, req *sdk.DigestRequest) (*sdk.DigestResult, error) {
	ctx, cancel := d.deadline(ctx)
	defer cancel()
	window := d.contextTokens(ctx)
	out := d.outputTokens(req, window)
	asked := tokens.Count(req.Question + req.Title + req.URL)
	var text string
	var warnings []string
	for attempt := 0; ; attempt++ {
		// The window is in the model's tokens, the page in counted ones.
		budget := int(float64(window-out)/d.modelScale()) - promptOverhead - asked
		if budget < 1 {
			return nil, &sdk.DocError{Class: ClassOverflow, Message: fmt.Sprintf("a context of %d tokens leaves no room for the page", window)}
		}
		content, w := fit(ctx, req, budget, window)
		cr := d.request(req, content, out)
		var err error
		text, err = d.call(ctx, cr)
		var of *overflowError
		if errors.As(err, &of) && attempt == 0 && of.prompt > 0 {
			d.learnScale(tokens.Count(cr.Messages[0].Content+cr.Messages[1].Content), of.prompt)
			if of.ctx > 0 && of.ctx < window {
				window = of.ctx
				out = d.outputTokens(req, window)
			}
			continue
		}
		if errors.As(err, &of) {
			return nil, of.DocError
		}
		if err != nil {
			return nil, err
		}
		warnings = w
		break
	}
	if text == "" {
		return nil, &sdk.DocError{Class: ClassBadAnswer, Message: "the model returned no text"}
	}
	return &sdk.DigestResult{Digest: text, Warnings: warnings}, nil
}

// fit narrows the page to budget tokens through focus.Select.
func fit(ctx context.Context, req *sdk.DigestRequest, budget, window int) (string, []string) {
	if len(req.Content) <= budget || tokens.Count(req.Content) <= budget {
		return req.Content, nil
	}
	sel := focus.Select(ctx, req.Content, req.Question, budget, focus.Options{})
	return sel.Content, []string{fmt.Sprintf("the digest read %d of the page's %d parts (%d tokens) to fit the model's context of %d tokens",
		sel.Kept, sel.Total, sel.Tokens, window)}
}

// outputTokens is the digest's own budget: the configured one (or the
// request's, if smaller), at most a third of the context so the page keeps
// most of it.
func (d *Digester) outputTokens(req *sdk.DigestRequest, window int) int {
	n := d.cfg.MaxTokens
	if req.MaxTokens > 0 {
		n = min(n, int(req.MaxTokens))
	}
	return max(16, min(n, window/3))
}

// deadlineMargin is how long before the host's deadline a digest gives up,
// so it reports a timeout itself instead of being killed as a hung plugin.
const deadlineMargin = 500 * time.Millisecond

func (d *Digester) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok {
		return context.WithDeadline(ctx, dl.Add(-deadlineMargin))
	}
	return context.WithTimeout(ctx, d.cfg.timeout)
}
