package sdk

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/siftd/sift/plugins/sdk/internal/pluginv1"
)

// DigesterPlugin adapts a Digester to go-plugin. The host uses it with a nil
// Impl to get a client.
type DigesterPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Digester
}

// GRPCServer registers the implementation on the plugin's gRPC server.
func (p *DigesterPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterDigesterServer(s, &digesterServer{impl: p.Impl})
	return nil
}

// GRPCClient returns a Digester that calls the plugin over conn.
func (p *DigesterPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &digesterClient{rpc: pb.NewDigesterClient(conn)}, nil
}

type digesterServer struct {
	pb.UnimplementedDigesterServer
	impl Digester
}

func (s *digesterServer) GetInfo(ctx context.Context, _ *pb.GetInfoRequest) (*pb.Info, error) {
	info, err := s.impl.Info(ctx)
	return infoToProto(info), err
}

func (s *digesterServer) GetSchema(ctx context.Context, _ *pb.GetSchemaRequest) (*pb.Schema, error) {
	schema, err := s.impl.Schema(ctx)
	return schemaToProto(schema), err
}

func (s *digesterServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	diags, err := s.impl.Configure(ctx, req.GetConfigJson())
	return &pb.ConfigureResponse{Diagnostics: diagsToProto(diags)}, err
}

func (s *digesterServer) Digest(ctx context.Context, req *pb.DigestRequest) (*pb.DigestResponse, error) {
	res, err := s.impl.Digest(ctx, &DigestRequest{
		Content:   req.GetContent(),
		Question:  req.GetQuestion(),
		URL:       req.GetUrl(),
		Title:     req.GetTitle(),
		MaxTokens: req.GetMaxTokens(),
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
	rpc pb.DigesterClient
}

func (c *digesterClient) Info(ctx context.Context) (Info, error) {
	info, err := c.rpc.GetInfo(ctx, &pb.GetInfoRequest{})
	if err != nil {
		return Info{}, err
	}
	return infoFromProto(info), nil
}

func (c *digesterClient) Schema(ctx context.Context) (Schema, error) {
	s, err := c.rpc.GetSchema(ctx, &pb.GetSchemaRequest{})
	if err != nil {
		return Schema{}, err
	}
	return schemaFromProto(s), nil
}

func (c *digesterClient) Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error) {
	res, err := c.rpc.Configure(ctx, &pb.ConfigureRequest{ConfigJson: config})
	if err != nil {
		return nil, err
	}
	return diagsFromProto(res.GetDiagnostics()), nil
}

func (c *digesterClient) Digest(ctx context.Context, req *DigestRequest) (*DigestResult, error) {
	res, err := c.rpc.Digest(ctx, &pb.DigestRequest{
		Content:   req.Content,
		Question:  req.Question,
		Url:       req.URL,
		Title:     req.Title,
		MaxTokens: req.MaxTokens,
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
