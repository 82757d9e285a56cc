#!/usr/bin/env bash
# Regenerates the epub extractor's test books from src/ with Debian's
# pandoc (apt-get install pandoc); the books are committed, so tests never
# need it. After it, review the golden markdown with
# `go test ./plugins/epub/ -update` and git diff.
set -euo pipefail
cd "$(dirname "$0")"
command -v pandoc >/dev/null || { echo "pandoc missing: apt-get install pandoc" >&2; exit 1; }
cd src
pandoc book.md -o ../book.epub           # EPUB 3, a nav document
pandoc book.md -t epub2 -o ../book2.epub # EPUB 2, an NCX
