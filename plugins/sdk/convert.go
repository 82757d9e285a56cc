package sdk

import (
	"context"
	"encoding/json"

	pb "github.com/siftd/sift/plugins/sdk/internal/pluginv1"
)

// describer is the part Extractor and Digester share.
type describer interface {
	Info(ctx context.Context) (Info, error)
	Schema(ctx context.Context) (Schema, error)
	Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error)
}

func infoToProto(in Info) *pb.Info {
	out := &pb.Info{Name: in.Name, Version: in.Version, ContentTypes: in.ContentTypes, Capabilities: in.Capabilities,
		MemoryPerBody: in.MemoryPerBody}
	for _, r := range in.Sniff {
		out.Sniff = append(out.Sniff, &pb.SniffRule{ContentTypes: r.ContentTypes, RootElements: r.RootElements, Pattern: r.Pattern})
	}
	for _, r := range in.Containers {
		out.Containers = append(out.Containers, &pb.ContainerRule{MediaType: r.MediaType, Extensions: r.Extensions,
			ZipEntries: r.ZipEntries, ZipMimetype: r.ZipMimetype, Magic: r.Magic, MagicWithin: int32(r.MagicWithin)})
	}
	return out
}

func infoFromProto(in *pb.Info) Info {
	out := Info{Name: in.GetName(), Version: in.GetVersion(), ContentTypes: in.GetContentTypes(), Capabilities: in.GetCapabilities(),
		MemoryPerBody: in.GetMemoryPerBody()}
	for _, r := range in.GetSniff() {
		out.Sniff = append(out.Sniff, SniffRule{ContentTypes: r.GetContentTypes(), RootElements: r.GetRootElements(), Pattern: r.GetPattern()})
	}
	for _, r := range in.GetContainers() {
		out.Containers = append(out.Containers, ContainerRule{MediaType: r.GetMediaType(), Extensions: r.GetExtensions(),
			ZipEntries: r.GetZipEntries(), ZipMimetype: r.GetZipMimetype(), Magic: r.GetMagic(), MagicWithin: int(r.GetMagicWithin())})
	}
	return out
}

func schemaToProto(s Schema) *pb.Schema {
	out := &pb.Schema{}
	for _, a := range s.Attributes {
		out.Attributes = append(out.Attributes, &pb.Attribute{
			Name: a.Name, Type: string(a.Type), Required: a.Required, Description: a.Description, Env: a.Env,
		})
	}
	for _, o := range s.Options {
		out.Options = append(out.Options, &pb.Option{
			Name: o.Name, Type: string(o.Type), Description: o.Description,
			Min: o.Min, Max: o.Max, MaxLength: o.MaxLength, Values: o.Values,
		})
	}
	return out
}

func schemaFromProto(s *pb.Schema) Schema {
	var out Schema
	for _, a := range s.GetAttributes() {
		out.Attributes = append(out.Attributes, Attribute{
			Name: a.GetName(), Type: AttrType(a.GetType()), Required: a.GetRequired(), Description: a.GetDescription(), Env: a.GetEnv(),
		})
	}
	for _, o := range s.GetOptions() {
		out.Options = append(out.Options, Option{
			Name: o.GetName(), Type: AttrType(o.GetType()), Description: o.GetDescription(),
			Min: o.Min, Max: o.Max, MaxLength: o.GetMaxLength(), Values: o.GetValues(),
		})
	}
	return out
}

func diagsToProto(ds Diagnostics) []*pb.Diagnostic {
	out := make([]*pb.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, &pb.Diagnostic{
			Severity: pb.Diagnostic_Severity(d.Severity), Summary: d.Summary, Detail: d.Detail, Attribute: d.Attribute,
		})
	}
	return out
}

func diagsFromProto(ds []*pb.Diagnostic) Diagnostics {
	out := make(Diagnostics, 0, len(ds))
	for _, d := range ds {
		out = append(out, Diagnostic{
			Severity: Severity(d.GetSeverity()), Summary: d.GetSummary(), Detail: d.GetDetail(), Attribute: d.GetAttribute(),
		})
	}
	return out
}

// docErrorToProto splits an implementation's error into a result error (a bad
// document) and a call error (a broken plugin).
func docErrorToProto(err error) (*pb.Error, error) {
	if err == nil {
		return nil, nil
	}
	if de, ok := asDocError(err); ok {
		return &pb.Error{Class: de.Class, Message: de.Message}, nil
	}
	return nil, err
}

func docErrorFromProto(e *pb.Error) error {
	if e == nil {
		return nil
	}
	return &DocError{Class: e.GetClass(), Message: e.GetMessage()}
}
