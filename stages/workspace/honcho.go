package workspace

import (
	"context"

	"github.com/siftd/sift/honcho"
	"github.com/siftd/sift/stages"
)

// Honcho is Honcho's workspace search as the context stage sees it
// (stages.ContextSource): a fixed result limit, its messages turned into
// context hits.
type Honcho struct {
	Client *honcho.Client
	Limit  int
}

// Search returns up to s.Limit hits for query in workspace.
func (s Honcho) Search(ctx context.Context, workspace, query string) ([]stages.ContextHit, error) {
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

var _ stages.ContextSource = Honcho{}
