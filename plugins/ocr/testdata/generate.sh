#!/usr/bin/env bash
# Makes the ocr extractor's test images from a repository PDF: the head of
# page 1 of plugins/pdf/testdata/pdfjs-TAMReview.pdf (its title and
# author), rendered at 150 dpi by poppler's pdftoppm, as PNG and as
# lossless WebP by cwebp (Debian's poppler-utils and webp). Go's encoders
# make the JPEG, GIF, TIFF and BMP copies in the tests themselves; Go has
# no WebP encoder, so that one is committed.
set -euo pipefail
cd "$(dirname "$0")"
pdftoppm -r 150 -f 1 -l 1 -x 0 -y 0 -W 1275 -H 420 -gray -png -singlefile \
  ../../pdf/testdata/pdfjs-TAMReview.pdf title
cwebp -quiet -lossless title.png -o title.webp
