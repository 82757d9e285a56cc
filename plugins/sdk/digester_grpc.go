package sdk

import (
	"context"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/siftd/sift/plugins/sdk/internal/pluginv1"
)

// DigesterPlugin adapts a Digester to go-plugin. The host uses it with a nil
// Impl to get a client.
type DigesterPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Digester
	// log receives a recovered panic; Serve sets it to the plugin's
	// logger, and without it a panic is logged to stderr.
	log hclog.Logger
}

// GRPCServer registers the implementation on the plugin's gRPC server.
func (p *DigesterPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterDigesterServer(s, &digesterServer{describeServer: describeServer{p.Impl}, impl: p.Impl, log: p.log})
	return nil
}

// GRPCClient returns a Digester that calls the plugin over conn.
func (p *DigesterPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	rpc := pb.NewDigesterClient(conn)
	return &digesterClient{describeClient: describeClient{rpc}, rpc: rpc}, nil
}

type digesterServer struct {
	// One level down, so describeServer's methods win over the stubs.
	unimplementedDigester
	describeServer
	impl Digester
	log  hclog.Logger
}

type unimplementedDigester struct{ pb.UnimplementedDigesterServer }

func (s *digesterServer) Digest(ctx context.Context, req *pb.DigestRequest) (_ *pb.DigestResponse, err error) {
	defer recoverCall(s.log, "Digest", &err)
	res, err := s.impl.Digest(ctx, &DigestRequest{
		Content:    req.GetContent(),
		Question:   req.GetQuestion(),
		URL:        req.GetUrl(),
		Title:      req.GetTitle(),
		MaxTokens:  req.GetMaxTokens(),
		JSONSchema: req.GetJsonSchema(),
	})
	docErr, err := docErrorToProto(err)
	if err != nil {
		return nil, err
	}
	if docErr != nil || res == nil {
		return &pb.DigestResponse{Error: docErr}, nil
	}
	return &pb.DigestResponse{Digest: res.Digest, Warnings: res.Warnings}, nil
}

type digesterClient struct {
	describeClient
	rpc pb.DigesterClient
}

func (c *digesterClient) Digest(ctx context.Context, req *DigestRequest) (*DigestResult, error) {
	res, err := c.rpc.Digest(ctx, &pb.DigestRequest{
		Content:    req.Content,
		Question:   req.Question,
		Url:        req.URL,
		Title:      req.Title,
		MaxTokens:  req.MaxTokens,
		JsonSchema: req.JSONSchema,
	})
	if err != nil {
		return nil, err
	}
	if err := docErrorFromProto(res.GetError()); err != nil {
		return nil, err
	}
	return &DigestResult{Digest: res.GetDigest(), Warnings: res.GetWarnings()}, nil
}

var (
	_ plugin.GRPCPlugin = (*DigesterPlugin)(nil)
	_ Digester          = (*digesterClient)(nil)
)
