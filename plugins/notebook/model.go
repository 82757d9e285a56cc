package notebook

import (
	"encoding/json"
	"strings"
)

// notebook is the part of nbformat 4 (nbformat.v4.schema.json) rendered.
type notebook struct {
	NBFormat      int `json:"nbformat"`
	NBFormatMinor int `json:"nbformat_minor"`
	Metadata      struct {
		Title      string `json:"title"`
		KernelSpec struct {
			Language    string `json:"language"`
			DisplayName string `json:"display_name"`
		} `json:"kernelspec"`
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
	} `json:"metadata"`
	Cells *[]cell `json:"cells"`
}

// language is the kernel's, for the code fences: the kernelspec's, else
// language_info's, lower-case.
func (n *notebook) language() string {
	l := n.Metadata.KernelSpec.Language
	if l == "" {
		l = n.Metadata.LanguageInfo.Name
	}
	return strings.ToLower(strings.Join(strings.Fields(l), "-"))
}

type cell struct {
	CellType string    `json:"cell_type"`
	Source   multiline `json:"source"`
	Outputs  []output  `json:"outputs"`
}

type output struct {
	OutputType string `json:"output_type"`
	// stream
	Name string    `json:"name"`
	Text multiline `json:"text"`
	// display_data, execute_result: by MIME type, each a multiline
	// string (text) or a JSON value (application/json).
	Data map[string]json.RawMessage `json:"data"`
	// error
	EName     string   `json:"ename"`
	EValue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

// multiline is nbformat's text: a string, or a list of lines to join.
type multiline string

// UnmarshalJSON reads either form.
func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		return err
	}
	*m = multiline(strings.Join(lines, ""))
	return nil
}
