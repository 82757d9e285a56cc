package sdk

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/siftd/sift/plugins/sdk/internal/pluginv1"
)

// ExtractorPlugin adapts an Extractor to go-plugin. The host uses it with a
// nil Impl to get a client.
type ExtractorPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Extractor
}

// GRPCServer registers the implementation on the plugin's gRPC server.
func (p *ExtractorPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterExtractorServer(s, &extractorServer{impl: p.Impl})
	return nil
}

// GRPCClient returns an Extractor that calls the plugin over conn.
func (p *ExtractorPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &extractorClient{rpc: pb.NewExtractorClient(conn)}, nil
}

type extractorServer struct {
	pb.UnimplementedExtractorServer
	impl Extractor
}

func (s *extractorServer) GetInfo(ctx context.Context, _ *pb.GetInfoRequest) (*pb.Info, error) {
	info, err := s.impl.Info(ctx)
	return infoToProto(info), err
}

func (s *extractorServer) GetSchema(ctx context.Context, _ *pb.GetSchemaRequest) (*pb.Schema, error) {
	schema, err := s.impl.Schema(ctx)
	return schemaToProto(schema), err
}

func (s *extractorServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	diags, err := s.impl.Configure(ctx, req.GetConfigJson())
	return &pb.ConfigureResponse{Diagnostics: diagsToProto(diags)}, err
}

func (s *extractorServer) Extract(ctx context.Context, req *pb.ExtractRequest) (*pb.ExtractResponse, error) {
	res, err := s.impl.Extract(ctx, &ExtractRequest{
		Body:           req.GetBody(),
		ContentType:    req.GetContentType(),
		URL:            req.GetUrl(),
		Options:        req.GetOptions(),
		MaxOutputBytes: req.GetMaxOutputBytes(),
	})
	docErr, err := docErrorToProto(err)
	if err != nil {
		return nil, err
	}
	if docErr != nil || res == nil {
		return &pb.ExtractResponse{Error: docErr}, nil
	}
	return &pb.ExtractResponse{
		Content:  res.Content,
		Format:   string(res.Format),
		Title:    res.Title,
		Metadata: res.Metadata,
		Warnings: res.Warnings,
	}, nil
}

type extractorClient struct {
	rpc pb.ExtractorClient
}

func (c *extractorClient) Info(ctx context.Context) (Info, error) {
	info, err := c.rpc.GetInfo(ctx, &pb.GetInfoRequest{})
	if err != nil {
		return Info{}, err
	}
	return infoFromProto(info), nil
}

func (c *extractorClient) Schema(ctx context.Context) (Schema, error) {
	s, err := c.rpc.GetSchema(ctx, &pb.GetSchemaRequest{})
	if err != nil {
		return Schema{}, err
	}
	return schemaFromProto(s), nil
}

func (c *extractorClient) Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error) {
	res, err := c.rpc.Configure(ctx, &pb.ConfigureRequest{ConfigJson: config})
	if err != nil {
		return nil, err
	}
	return diagsFromProto(res.GetDiagnostics()), nil
}

func (c *extractorClient) Extract(ctx context.Context, req *ExtractRequest) (*ExtractResult, error) {
	res, err := c.rpc.Extract(ctx, &pb.ExtractRequest{
		Body:           req.Body,
		ContentType:    req.ContentType,
		Url:            req.URL,
		Options:        req.Options,
		MaxOutputBytes: req.MaxOutputBytes,
	})
	if err != nil {
		return nil, err
	}
	if err := docErrorFromProto(res.GetError()); err != nil {
		return nil, err
	}
	return &ExtractResult{
		Content:  res.GetContent(),
		Format:   Format(res.GetFormat()),
		Title:    res.GetTitle(),
		Metadata: res.GetMetadata(),
		Warnings: res.GetWarnings(),
	}, nil
}

var (
	_ plugin.GRPCPlugin = (*ExtractorPlugin)(nil)
	_ Extractor         = (*extractorClient)(nil)
)
