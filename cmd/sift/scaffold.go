package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/plugins/builtin"
)

// sdkRelease is the SDK version a scaffolded plugin requires.
const sdkRelease = "v0.1.0"

var pluginName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)

// pluginNewCommand is `sift plugin new NAME`: a plugin module to start from.
func pluginNewCommand() *cobra.Command {
	var dir, sdkDir, module string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Write a new extractor plugin module, with a test, to start from",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if !pluginName.MatchString(name) {
				return fmt.Errorf("plugin name %q: want lower-case letters, digits, - or _, starting with a letter", name)
			}
			if builtin.Named(name) {
				return fmt.Errorf("plugin name %q is a built-in plugin's: a block of that name would configure the built-in; pick another", name)
			}
			if dir == "" {
				dir = "sift-" + name
			}
			if module == "" {
				module = "example.com/sift-" + name
			}
			if sdkDir != "" {
				abs, err := filepath.Abs(sdkDir)
				if err != nil {
					return err
				}
				sdkDir = abs
			}
			if err := scaffold(dir, scaffoldData{Name: name, Module: module, SDK: sdkRelease, SDKDir: sdkDir}); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: cd %s && go mod tidy && go test ./... && go build -o sift-%s .\n", dir, dir, name)
			if sdkDir == "" {
				fmt.Fprintf(cmd.OutOrStdout(), "the module requires github.com/siftd/sift/plugins/sdk %s; where your module proxy cannot reach it, run sift plugin new again with --sdk PATH/TO/sift/plugins/sdk (a replace directive)\n", sdkRelease)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "folder to write (default sift-NAME); it must not exist")
	cmd.Flags().StringVar(&module, "module", "", "the module path (default example.com/sift-NAME)")
	cmd.Flags().StringVar(&sdkDir, "sdk", "", "a local plugins/sdk folder to build against (a replace directive) instead of the released SDK")
	return cmd
}

type scaffoldData struct {
	Name, Module, SDK, SDKDir string
}

func (d scaffoldData) Type() string { return "Extractor" }

func scaffold(dir string, data scaffoldData) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s exists; give another --dir", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, text := range scaffoldFiles {
		var b strings.Builder
		if err := template.Must(template.New(name).Parse(text)).Execute(&b, data); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

var scaffoldFiles = map[string]string{
	"go.mod": `module {{.Module}}

go 1.26.0

require github.com/siftd/sift/plugins/sdk {{.SDK}}
{{if .SDKDir}}
replace github.com/siftd/sift/plugins/sdk => {{.SDKDir}}
{{end}}`,
	"main.go": `// Command sift-{{.Name}} is an extractor plugin for sift. Build it, take its
// hash and declare it in sift's config.hcl:
//
//	go build -o sift-{{.Name}} . && sha256sum sift-{{.Name}}
//
//	extractor "{{.Name}}" {
//	  command = ["/usr/lib/sift/sift-{{.Name}}"]
//	  sha256  = "<the hash>"
//	}
package main

import "github.com/siftd/sift/plugins/sdk"

func main() {
	sdk.Serve(sdk.ServeConfig{Extractor: &extractor{prefix: ""}})
}
`,
	"extractor.go": `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
)

// extractor turns documents of its media types into text. Replace Extract
// with your own conversion.
type extractor struct {
	prefix string
}

func (e *extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "{{.Name}}", Version: "0.1.0", ContentTypes: []string{"text/x-{{.Name}}"}}, nil
}

func (e *extractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{
		Attributes: []sdk.Attribute{{"{{"}}Name: "prefix", Type: sdk.TypeString, Description: "text put before every answer"}},
		Options:    []sdk.Option{{"{{"}}Name: "upper", Type: sdk.TypeBool, Description: "true answers in upper case"}},
	}, nil
}

func (e *extractor) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var cfg struct {
		Prefix string ` + "`json:\"prefix\"`" + `
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("decode config: %w", err)
	}
	e.prefix = cfg.Prefix
	return nil, nil
}

func (e *extractor) Extract(_ context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	if len(req.Body) == 0 {
		return nil, sdk.Invalid("empty document")
	}
	text := e.prefix + string(req.Body)
	if req.Options["upper"] == "true" {
		text = strings.ToUpper(text)
	}
	content, warning := sdk.CapOutput(text, req.MaxOutputBytes, 1<<20)
	res := &sdk.ExtractResult{Content: content, Format: sdk.FormatText}
	if warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}
`,
	"extractor_test.go": `package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

// block is the plugin's block as an operator writes it in sift's config.hcl.
const block = "extractor \"{{.Name}}\" {\n  command = [\"/usr/lib/sift/sift-{{.Name}}\"]\n  sha256  = \"<the hash>\"\n  prefix  = \"> \"\n}\n"

func TestExtract(t *testing.T) {
	ctx := context.Background()
	ex := sdktest.ConfiguredExtractor(t, &extractor{}, block)
	res, err := ex.Extract(ctx, &sdk.ExtractRequest{Body: []byte("hello"), Options: map[string]string{"upper": "true"}})
	if err != nil || res.Content != "> HELLO" {
		t.Fatalf("got %+v, %v", res, err)
	}
	_, err = ex.Extract(ctx, &sdk.ExtractRequest{})
	var de *sdk.DocError
	if !errors.As(err, &de) || de.Class != sdk.ClassInvalid {
		t.Fatalf("empty document: %v, want an invalid DocError", err)
	}
	schema, _ := (&extractor{}).Schema(ctx)
	if err := schema.CheckOptions(map[string]string{"upper": "maybe"}); err == nil {
		t.Error("upper=maybe was accepted")
	}
}

// TestConfigure: sift refuses a misspelt attribute on its line.
func TestConfigure(t *testing.T) {
	diags := sdktest.Configure(t, &extractor{}, strings.Replace(block, "prefix ", "prefx  ", 1))
	if !strings.Contains(diags.Error(), "config.hcl:4") || !strings.Contains(diags.Error(), "Unsupported argument") {
		t.Errorf("diagnostics %v, want prefx refused on line 4", diags)
	}
}
`,
}
