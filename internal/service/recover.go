package service

import (
	"context"
	"fmt"
	"strings"

	"github.com/siftd/sift/internal/apiv1"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/fetch"
)

// Recovered says the content is an archived snapshot (apiv1's shape).
type Recovered = apiv1.Recovered

// Recovery is what RunRecovering did beyond the run: the snapshot it
// answered with, or why recovering failed when the origin's own answer
// stands.
type Recovery struct {
	Recovered *Recovered
	Failed    string
}

// RunRecovering is RunHeld, and when recover is asked for and the
// origin's answer is worth replacing (recoverReason), the run of the
// newest archived snapshot instead. The snapshot's run goes through the
// chain like any URL, so through the guard and fetch.
func (s *Service) RunRecovering(ctx context.Context, c *Caller, request stages.Request, hold, recover bool) (res *Result, release func(), rec Recovery, ae *Error) {
	res, release, ae = s.RunHeld(ctx, c, request, hold)
	if !recover || s.archive == "" {
		return res, release, rec, ae
	}
	why := recoverReason(res, ae)
	if why == "" {
		return res, release, rec, ae
	}
	snapshot := fetch.ArchiveSnapshotURL(s.archive, request.URL)
	request.URL = snapshot
	release()
	archived, releaseArchived, archiveErr := s.RunHeld(ctx, c, request, hold)
	release = releaseArchived
	switch {
	case archiveErr == nil:
		res, ae, rec.Recovered = archived, nil, &Recovered{From: "wayback", SnapshotURL: snapshot, Reason: why}
	case ae != nil:
		ae.Message += " (recover from the archive failed too: " + archiveErr.Message + ")"
	default:
		rec.Failed = "recover from the archive failed: " + archiveErr.Message
	}
	return res, release, rec, ae
}

// recoverReason says why the origin's answer is worth replacing with an
// archived one, or "" when it is not: a failure whose class errclass's
// table marks Recover (upstream, timeout, …), an error status, or no
// content. A refusal is never recovered.
func recoverReason(res *Result, ae *Error) string {
	switch {
	case ae != nil && RowOf(ae.Class).Recover:
		return ae.Message
	case ae != nil:
		return ""
	case res.Doc.Response.Status >= 400:
		return fmt.Sprintf("status %d", res.Doc.Response.Status)
	case res.Doc.Extraction != nil && strings.TrimSpace(res.Doc.Extraction.Content) == "":
		return "no content"
	}
	return ""
}
