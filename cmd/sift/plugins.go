package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/sdk"
)

// pluginListing is one plugin as `sift plugins` shows it.
type pluginListing struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Source  string `json:"source"` // built-in, companion or external
	Version string `json:"version"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256,omitempty"`
	// ContentTypes are the patterns the plugin claims; Shadowed those of
	// them that another extractor takes by the routing precedence.
	ContentTypes []string          `json:"content_types,omitempty"`
	Shadowed     map[string]string `json:"shadowed,omitempty"`
	Capabilities []string          `json:"capabilities,omitempty"`
	// Sniff are the rules by which the plugin claims documents of generic
	// media types by their content.
	Sniff []sniffListing `json:"sniff,omitempty"`
	// Containers are the rules by which it recognises documents served
	// with a generic media type by their container.
	Containers []containerListing `json:"containers,omitempty"`
	Attributes []attributeListing `json:"attributes"`
	Options    []optionListing    `json:"options"`
}

// attributeListing is an sdk.Attribute with the snake_case keys of sift's
// other JSON output.
type attributeListing struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Description string `json:"description"`
}

// sniffListing is an sdk.SniffRule with the snake_case keys of sift's
// other JSON output.
type sniffListing struct {
	ContentTypes []string `json:"content_types"`
	RootElements []string `json:"root_elements,omitempty"`
	Pattern      string   `json:"pattern,omitempty"`
}

// containerListing is an sdk.ContainerRule with the snake_case keys of
// sift's other JSON output.
type containerListing struct {
	MediaType   string   `json:"media_type"`
	Extensions  []string `json:"extensions,omitempty"`
	ZipEntries  []string `json:"zip_entries,omitempty"`
	ZipMimetype string   `json:"zip_mimetype,omitempty"`
	Magic       string   `json:"magic,omitempty"`
	MagicWithin int      `json:"magic_within,omitempty"`
}

// optionListing is an sdk.Option with the snake_case keys of sift's other
// JSON output.
type optionListing struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	MaxLength   int64    `json:"max_length,omitempty"`
	Values      []string `json:"values,omitempty"`
}

func attributeListings(as []sdk.Attribute) []attributeListing {
	out := make([]attributeListing, 0, len(as))
	for _, a := range as {
		out = append(out, attributeListing{Name: a.Name, Type: string(a.Type), Required: a.Required, Description: a.Description})
	}
	return out
}

func optionListings(opts []sdk.Option) []optionListing {
	out := make([]optionListing, 0, len(opts))
	for _, o := range opts {
		out = append(out, optionListing{Name: o.Name, Type: string(o.Type), Description: o.Description,
			Min: o.Min, Max: o.Max, MaxLength: o.MaxLength, Values: o.Values})
	}
	return out
}

func pluginsCommand() *cobra.Command {
	var file string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List the built-in and configured plugins: version, binary, hash, media types, attributes and options",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, diags := loadConfig(cmd, file)
			if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
				return err
			}
			specs, diags := app.Plan(cmd.Context(), cfg)
			if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
				return err
			}
			var list []pluginListing
			for i := range specs {
				s := &specs[i]
				if err := host.Describe(cmd.Context(), s); err != nil {
					return fmt.Errorf("plugin %q: %w", s.Name, err)
				}
				list = append(list, listing(specs, s))
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			for _, l := range list {
				printListing(cmd.OutOrStdout(), l)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "config", config.DefaultFile, configHelp)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func listing(specs []host.Spec, s *host.Spec) pluginListing {
	l := pluginListing{Name: s.Name, Kind: "extractor", Source: "built-in", Version: s.Info.Version,
		SHA256: s.SHA256, ContentTypes: s.ContentTypes, Capabilities: s.Info.Capabilities,
		Attributes: attributeListings(s.Schema.Attributes), Options: optionListings(s.Schema.Options)}
	if s.Digester {
		l.Kind = "digester"
	}
	for _, r := range s.Info.Sniff {
		l.Sniff = append(l.Sniff, sniffListing{ContentTypes: r.ContentTypes, RootElements: r.RootElements, Pattern: r.Pattern})
	}
	for _, r := range s.Info.Containers {
		l.Containers = append(l.Containers, containerListing{MediaType: r.MediaType, Extensions: r.Extensions,
			ZipEntries: r.ZipEntries, ZipMimetype: r.ZipMimetype, Magic: r.Magic, MagicWithin: r.MagicWithin})
	}
	switch {
	case s.Companion:
		l.Source, l.Path = "companion", s.Command[0]
	case s.DevOverride:
		l.Source, l.Path = "development override, unpinned", strings.Join(s.Command, " ")
	case s.External():
		l.Source, l.Path = "external", strings.Join(s.Command, " ")
	default:
		self, _ := os.Executable()
		l.Path = self + " plugin " + s.Name
	}
	if s.Digester {
		return l
	}
	for _, ct := range s.ContentTypes {
		if strings.Contains(ct, "*") {
			continue
		}
		if owner, ok := host.RouteSpec(specs, ct); ok && owner != s.Name {
			if l.Shadowed == nil {
				l.Shadowed = map[string]string{}
			}
			l.Shadowed[ct] = owner
		}
	}
	return l
}

func printListing(w io.Writer, l pluginListing) {
	fmt.Fprintf(w, "%s (%s, %s) version %s\n", l.Name, l.Kind, l.Source, orNone(l.Version))
	fmt.Fprintf(w, "  path:           %s\n", l.Path)
	if l.SHA256 != "" {
		fmt.Fprintf(w, "  sha256:         %s\n", l.SHA256)
	}
	if len(l.ContentTypes) > 0 {
		cts := make([]string, len(l.ContentTypes))
		for i, ct := range l.ContentTypes {
			cts[i] = ct
			if owner, ok := l.Shadowed[ct]; ok {
				cts[i] += " (taken by " + owner + ")"
			}
		}
		fmt.Fprintf(w, "  content types:  %s\n", strings.Join(cts, ", "))
	}
	if len(l.Capabilities) > 0 {
		fmt.Fprintf(w, "  capabilities:   %s\n", strings.Join(l.Capabilities, ", "))
	}
	for _, r := range l.Sniff {
		fmt.Fprintf(w, "  sniffs:         %s%s\n", strings.Join(r.ContentTypes, ", "), sniffTests(r))
	}
	for _, r := range l.Containers {
		fmt.Fprintf(w, "  recognises:     %s%s\n", r.MediaType, containerTests(r))
	}
	fmt.Fprintf(w, "  attributes:%s\n", emptyMark(len(l.Attributes)))
	for _, a := range l.Attributes {
		req := ""
		if a.Required {
			req = ", required"
		}
		fmt.Fprintf(w, "    %s (%s%s): %s\n", a.Name, a.Type, req, orNone(a.Description))
	}
	fmt.Fprintf(w, "  options:%s\n", emptyMark(len(l.Options)))
	for _, o := range l.Options {
		fmt.Fprintf(w, "    %s (%s%s): %s\n", o.Name, o.Type, limits(o), orNone(o.Description))
	}
}

// limits describes an option's limits for the listing.
func limits(o optionListing) string {
	var parts []string
	if o.Min != nil {
		parts = append(parts, fmt.Sprintf("min %g", *o.Min))
	}
	if o.Max != nil {
		parts = append(parts, fmt.Sprintf("max %g", *o.Max))
	}
	if o.MaxLength > 0 {
		parts = append(parts, fmt.Sprintf("at most %d bytes", o.MaxLength))
	}
	if len(o.Values) > 0 {
		parts = append(parts, "one of "+strings.Join(o.Values, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// sniffTests describes what a sniff rule looks for in a document.
func sniffTests(r sniffListing) string {
	var parts []string
	if len(r.RootElements) > 0 {
		parts = append(parts, "root element "+strings.Join(r.RootElements, " or "))
	}
	if r.Pattern != "" {
		parts = append(parts, fmt.Sprintf("matching %q", r.Pattern))
	}
	return " with " + strings.Join(parts, " and ")
}

// containerTests describes what a container rule looks for in a document
// of a generic media type.
func containerTests(r containerListing) string {
	var parts []string
	if len(r.ZipEntries) > 0 {
		parts = append(parts, "a zip holding "+strings.Join(r.ZipEntries, " and "))
	}
	if r.ZipMimetype != "" {
		parts = append(parts, fmt.Sprintf("a zip whose mimetype is %s", r.ZipMimetype))
	}
	if r.Magic != "" {
		within := r.MagicWithin
		if within == 0 {
			within = sdk.MagicWithin
		}
		parts = append(parts, fmt.Sprintf("%q within %d bytes", r.Magic, within))
	}
	out := " in " + strings.Join(parts, " and ")
	if len(r.Extensions) > 0 {
		out += " (." + strings.Join(r.Extensions, ", .") + " on a tie)"
	}
	return out
}

func emptyMark(n int) string {
	if n == 0 {
		return " none"
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
