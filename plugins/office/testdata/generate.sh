#!/usr/bin/env bash
# Regenerates the office extractor's test documents from the sources in
# src/ with Debian's pandoc and LibreOffice (apt-get install pandoc
# libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui).
# The generated files are committed: tests never need either converter.
# Run from anywhere; `make testdata-docs` runs it. After it, review the
# golden markdown with `go test ./plugins/office/ -update` and git diff.
set -euo pipefail
cd "$(dirname "$0")"
command -v pandoc >/dev/null || { echo "pandoc missing: apt-get install pandoc" >&2; exit 1; }
command -v soffice >/dev/null || { echo "soffice missing: apt-get install libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui" >&2; exit 1; }
# LibreOffice keeps a profile; a private one keeps a user's own out of it.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
lo() { soffice -env:UserInstallation=file://"$profile" --headless --convert-to "$@" >/dev/null; }

(cd src && pandoc report.md -o ../report.docx && pandoc report.md -o ../report.odt)
(cd src && pandoc deck.md -o ../deck.pptx)
lo odt --outdir lo src/../report.docx
lo docx:"MS Word 2007 XML" --outdir lo lo/report.odt
lo odp --outdir lo deck.pptx
lo xlsx:"Calc MS Excel 2007 XML" --outdir lo src/book.fods
lo ods --outdir lo src/book.fods
lo xls:"MS Excel 97" --outdir lo src/book.fods

# A DOCX whose first entry is a thumbnail, as Word writes one with
# "save thumbnail": the same parts, the thumbnail first.
python3 - report.docx thumbnail.docx <<'PY'
import sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
    out.writestr("docProps/thumbnail.jpeg", b"\xff\xd8\xff\xe0" + bytes(range(256)) * 64 + b"\xff\xd9")
    for info in z.infolist():
        out.writestr(info, z.read(info.filename))
PY
