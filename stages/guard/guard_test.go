package guardstage

import (
	"context"
	"net"
	"net/netip"
	"testing"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/stages"
)

func TestStageRecordsTarget(t *testing.T) {
	s := &Stage{checker: guard.NewChecker(guard.DefaultPolicy(), staticResolver{"public.test": {netip.MustParseAddr("93.184.216.34")}})}
	doc := &stages.Doc{Request: stages.Request{URL: "HTTP://Public.Test./a?b#c"}}
	if err := s.Run(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	if doc.Target.URL != "http://public.test/a?b#c" || doc.Target.Port != 80 || doc.Target.Addrs[0].String() != "93.184.216.34" {
		t.Fatalf("target %+v", doc.Target)
	}
	doc = &stages.Doc{Request: stages.Request{URL: "http://10.0.0.5/"}}
	if err := s.Run(context.Background(), doc); err == nil || err.Error() != "blocked: private address 10.0.0.5" {
		t.Fatalf("err = %v", err)
	}
}

type staticResolver map[string][]netip.Addr

func (r staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if addrs, ok := r[host]; ok {
		return addrs, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}
