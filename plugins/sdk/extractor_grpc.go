package sdk

import (
	"context"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/siftd/sift/plugins/sdk/internal/pluginv1"
)

// ExtractorPlugin adapts an Extractor to go-plugin. The host uses it with a
// nil Impl to get a client.
type ExtractorPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Extractor
	// log receives a recovered panic; Serve sets it to the plugin's
	// logger, and without it a panic is logged to stderr.
	log hclog.Logger
}

// GRPCServer registers the implementation on the plugin's gRPC server.
func (p *ExtractorPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterExtractorServer(s, &extractorServer{describeServer: describeServer{p.Impl}, impl: p.Impl, log: p.log})
	return nil
}

// GRPCClient returns an Extractor that calls the plugin over conn.
func (p *ExtractorPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	rpc := pb.NewExtractorClient(conn)
	return &extractorClient{describeClient: describeClient{rpc}, rpc: rpc}, nil
}

type extractorServer struct {
	// One level down, so describeServer's methods win over the stubs.
	unimplementedExtractor
	describeServer
	impl Extractor
	log  hclog.Logger
}

type unimplementedExtractor struct {
	pb.UnimplementedExtractorServer
}

func (s *extractorServer) Extract(ctx context.Context, req *pb.ExtractRequest) (_ *pb.ExtractResponse, err error) {
	defer recoverCall(s.log, "Extract", &err)
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
		Html:     res.HTML,
		Links:    res.Links,
	}, nil
}

type extractorClient struct {
	describeClient
	rpc pb.ExtractorClient
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
		HTML:     res.GetHtml(),
		Links:    res.GetLinks(),
	}, nil
}

var (
	_ plugin.GRPCPlugin = (*ExtractorPlugin)(nil)
	_ Extractor         = (*extractorClient)(nil)
)
