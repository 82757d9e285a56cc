package honcho

import (
	"context"

	"github.com/siftd/sift/stages"
)

// Source is Honcho as the context stage sees it: a workspace search with a
// fixed result limit, its messages turned into context hits.
type Source struct {
	Client *Client
	Limit  int
}

// Search returns up to s.Limit hits for query in workspace.
func (s Source) Search(ctx context.Context, workspace, query string) ([]stages.ContextHit, error) {
	msgs, err := s.Client.Search(ctx, workspace, query, s.Limit)
	if err != nil {
		return nil, err
	}
	hits := make([]stages.ContextHit, 0, len(msgs))
	for _, m := range msgs {
		hits = append(hits, stages.ContextHit{Kind: "message", Peer: m.PeerID, Content: m.Content, CreatedAt: m.CreatedAt})
	}
	return hits, nil
}

var _ stages.ContextSource = Source{}
