package sdk

import (
	"context"
	"encoding/json"

	"google.golang.org/grpc"

	pb "github.com/siftd/sift/plugins/sdk/internal/pluginv1"
)

// Both services share GetInfo, GetSchema and Configure with the same
// messages; these halves serve and call them for either.

type describeServer struct {
	impl describer
}

func (s describeServer) GetInfo(ctx context.Context, _ *pb.GetInfoRequest) (*pb.Info, error) {
	info, err := s.impl.Info(ctx)
	return infoToProto(info), err
}

func (s describeServer) GetSchema(ctx context.Context, _ *pb.GetSchemaRequest) (*pb.Schema, error) {
	schema, err := s.impl.Schema(ctx)
	return schemaToProto(schema), err
}

func (s describeServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	diags, err := s.impl.Configure(ctx, req.GetConfigJson())
	return &pb.ConfigureResponse{Diagnostics: diagsToProto(diags)}, err
}

// describeRPC is the part of both generated clients the host calls alike.
type describeRPC interface {
	GetInfo(ctx context.Context, in *pb.GetInfoRequest, opts ...grpc.CallOption) (*pb.Info, error)
	GetSchema(ctx context.Context, in *pb.GetSchemaRequest, opts ...grpc.CallOption) (*pb.Schema, error)
	Configure(ctx context.Context, in *pb.ConfigureRequest, opts ...grpc.CallOption) (*pb.ConfigureResponse, error)
}

type describeClient struct {
	rpc describeRPC
}

func (c describeClient) Info(ctx context.Context) (Info, error) {
	info, err := c.rpc.GetInfo(ctx, &pb.GetInfoRequest{})
	if err != nil {
		return Info{}, err
	}
	return infoFromProto(info), nil
}

func (c describeClient) Schema(ctx context.Context) (Schema, error) {
	s, err := c.rpc.GetSchema(ctx, &pb.GetSchemaRequest{})
	if err != nil {
		return Schema{}, err
	}
	return schemaFromProto(s), nil
}

func (c describeClient) Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error) {
	res, err := c.rpc.Configure(ctx, &pb.ConfigureRequest{ConfigJson: config})
	if err != nil {
		return nil, err
	}
	return diagsFromProto(res.GetDiagnostics()), nil
}
