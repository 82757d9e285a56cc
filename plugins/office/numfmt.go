package office

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/siftd/sift/plugins/zipdoc"
)

// cellFormat is what a cell's number format makes of its value.
type cellFormat int

const (
	fmtNumber cellFormat = iota
	fmtDate
	fmtDateTime
	fmtTime
	fmtPercent
)

// maxCellFormats bounds the cell formats read.
const maxCellFormats = 65_536

// builtinFormats are the number formats SpreadsheetML numbers without
// writing them (ECMA-376, 18.8.30) that are dates, times or percentages.
var builtinFormats = map[int]cellFormat{
	9: fmtPercent, 10: fmtPercent,
	14: fmtDate, 15: fmtDate, 16: fmtDate, 17: fmtDate, 22: fmtDateTime,
	18: fmtTime, 19: fmtTime, 20: fmtTime, 21: fmtTime, 45: fmtTime, 46: fmtTime, 47: fmtTime,
	27: fmtDate, 30: fmtDate, 36: fmtDate, 50: fmtDate, 57: fmtDate,
}

// readCellFormats reads styles.xml's cell formats (cellXfs), each by the
// kind of its number format.
func readCellFormats(a *zipdoc.Archive, name string) ([]cellFormat, error) {
	rc, err := a.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	custom := map[int]cellFormat{}
	var out []cellFormat
	inXfs := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, zipdoc.XMLError(name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "numFmt":
				id, _ := strconv.Atoi(zipdoc.Attr(t, "numFmtId"))
				custom[id] = formatKind(zipdoc.Attr(t, "formatCode"))
			case "cellXfs":
				inXfs = true
			case "xf":
				if !inXfs || len(out) >= maxCellFormats {
					continue
				}
				id, _ := strconv.Atoi(zipdoc.Attr(t, "numFmtId"))
				kind, ok := custom[id]
				if !ok {
					kind = builtinFormats[id]
				}
				out = append(out, kind)
			}
		case xml.EndElement:
			if t.Name.Local == "cellXfs" {
				inXfs = false
			}
		}
	}
}

// formatKind reads a format code: a date or time where it has date or
// time parts outside quoted text, escapes and brackets ([Red], [$-409]),
// a percentage where it has %.
func formatKind(code string) cellFormat {
	var plain strings.Builder
	quoted, bracket := false, false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '\\' || c == '_' || c == '*':
			i++
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case !bracket:
			plain.WriteByte(c | 0x20)
		}
	}
	p := plain.String()
	if p == "general" {
		return fmtNumber
	}
	date := strings.ContainsAny(p, "dy") || strings.Contains(p, "mmm")
	clock := strings.ContainsAny(p, "hs")
	switch {
	case date && clock:
		return fmtDateTime
	case date:
		return fmtDate
	case clock:
		return fmtTime
	case strings.Contains(p, "%"):
		return fmtPercent
	}
	return fmtNumber
}

// cellText is a cell's value as an agent should read it.
func (b *workbook) cellText(typ string, style int, value, inline string) string {
	switch typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || i < 0 || i >= len(b.strings) {
			return ""
		}
		return b.strings[i]
	case "inlineStr":
		return inline
	case "str", "e":
		return value
	case "b":
		if strings.TrimSpace(value) == "1" {
			return "TRUE"
		}
		return "FALSE"
	case "d":
		return value // ISO 8601 already
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil {
		return value
	}
	kind := fmtNumber
	if style >= 0 && style < len(b.formats) {
		kind = b.formats[style]
	}
	return formatNumber(f, kind, b.date1904)
}

// formatNumber writes a number as its format's kind shows it: dates as
// ISO dates (Excel's serial days, 1900 or 1904 based), percentages as
// percentages, other numbers without float noise.
func formatNumber(f float64, kind cellFormat, date1904 bool) string {
	switch kind {
	case fmtDate, fmtDateTime, fmtTime:
		if t, ok := serialTime(f, date1904); ok {
			switch {
			case kind == fmtTime && f < 1:
				return t.Format("15:04:05")
			case kind == fmtDate || t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0:
				return t.Format("2006-01-02")
			default:
				return t.Format("2006-01-02 15:04:05")
			}
		}
	case fmtPercent:
		return plainNumber(f*100) + "%"
	}
	return plainNumber(f)
}

// plainNumber writes f with at most 15 significant digits, the precision
// a spreadsheet shows, so 0.1+0.2 reads 0.3.
func plainNumber(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	g, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if math.Abs(g) >= 1e15 || (g != 0 && math.Abs(g) < 1e-9) {
		return strconv.FormatFloat(g, 'g', -1, 64)
	}
	return strconv.FormatFloat(g, 'f', -1, 64)
}

// serialTime converts a spreadsheet serial date. The 1900 system counts
// 1900-02-29, which never was, so its epoch is 1899-12-30 from serial 61
// on and 1899-12-31 before it.
func serialTime(f float64, date1904 bool) (time.Time, bool) {
	if f < 0 || f > 2_958_465 { // 9999-12-31
		return time.Time{}, false
	}
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	switch {
	case date1904:
		epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	case f < 61:
		epoch = time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC)
	}
	days := math.Floor(f)
	secs := math.Round((f - days) * 86400)
	return epoch.AddDate(0, 0, int(days)).Add(time.Duration(secs) * time.Second), true
}
