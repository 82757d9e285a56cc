#!/usr/bin/env python3
"""Build a corpus that the PDF benchmark's score.py can score, from any PDFs.

    python3 bench/pdf/make_corpus.py OUT_DIR FILE.pdf [FILE.pdf.gz ...]
    python3 $PDF_BENCH/score.py OUT_DIR --cmd 'bin/sift extract --format text'

Each PDF (gzipped ones are unpacked) is copied to OUT_DIR/pdf/, poppler's
`pdftotext` text becomes its reference in OUT_DIR/ref/, and manifest.json
lists them with their page counts from `pdfinfo`. This is how sift is
checked on PDFs that are not in the shared corpus (plugins/pdf/README.md).
"""
import gzip
import json
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, files = sys.argv[1], sys.argv[2:]
    os.makedirs(os.path.join(out, "pdf"), exist_ok=True)
    os.makedirs(os.path.join(out, "ref"), exist_ok=True)
    manifest = []
    for src in files:
        name = os.path.basename(src)
        opener = gzip.open if name.endswith(".gz") else open
        name = name[:-3] if name.endswith(".gz") else name
        if any(e["file"] == "pdf/" + name for e in manifest):
            continue  # the same file from two places
        with opener(src, "rb") as fh:
            body = fh.read()
        path = os.path.join(out, "pdf", name)
        with open(path, "wb") as fh:
            fh.write(body)
        info = subprocess.run(["pdfinfo", path], capture_output=True, text=True)
        pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1)) if info.returncode == 0 else 0
        ref = subprocess.run(["pdftotext", "-q", path, "-"], capture_output=True)
        ok = ref.returncode == 0
        ref_file = "ref/" + name + ".txt"
        with open(os.path.join(out, ref_file), "wb") as fh:
            fh.write(ref.stdout)
        manifest.append({"file": "pdf/" + name, "category": "outside", "pages": pages,
                         "poppler_ok": ok, "ref_text_file": ref_file, "ref_raw_text_file": ref_file,
                         "ref_tokens": len(ref.stdout.split())})
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)
    print("%d PDFs, %d pages" % (len(manifest), sum(e["pages"] for e in manifest)))


if __name__ == "__main__":
    main()
