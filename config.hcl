# sift's default configuration: runs as it is on one machine, with SQLite
# under ./data and no LLM, Honcho or search backend. `sift validate` checks
# a configuration; docs/config.md describes every block and attribute.
# `make run` serves this file from disk; the binary embeds it (defaults.go)
# as the default when no --config is given and ./config.hcl does not exist.

listen   = "127.0.0.1:8890"
data_dir = "./data"
# public_url = "https://sift.example.com"  # base of the URLs sift hands back
#                                          # (batch status, next pages); default
#                                          # http:// and the listen address

store {
  driver = "sqlite"
}

# The development key is "sift-dev-key" (README.md, "A first fetch"). While
# a caller holds it, sift refuses to listen on anything but loopback.
# `sift key new NAME` prints a fresh key and its block.
caller "local" {
  key_sha256 = "4525af7e8f344cc741a6e9608adc2f8a4c5d1303103ca9ac907b698232109aea"
  workspace  = "default"
  restricted = false
}

pipeline {
  stage "guard" {
    allow_ports = [80, 443]
  }
  stage "fetch" {
    timeout  = "20s"
    max_body = "5MiB"
  }
  stage "extract" {}
  stage "cache" {           # after extract: clean content is kept, later stages re-run
    ttl       = "24h"       # when the response sets no lifetime
    max_ttl   = "168h"
    max_bytes = "256MiB"    # oldest entries go first
  }
}

# Each html process reads one page at a time on one thread: on one CPU its
# collector stops competing with the pool's other processes for the cores.
extractor "html" {
  pool    = 2
  cpus    = 1
  timeout = "30s"
  memory  = "512MiB"
}

# PDFs run in their own pool: PDFium (WebAssembly) per process, killed and
# replaced when a hostile file hangs it past timeout or outgrows memory.
# Pages without a text layer (scans) are read by OCR when Debian's
# tesseract-ocr is installed: a tesseract process per page, at most one
# per core, about 5 s a page, so timeout leaves room for a 60-page scan.
extractor "pdf" {
  pool          = 2
  timeout       = "180s"
  memory        = "768MiB"
  max_pages     = 500
  ocr_languages = ["eng"]
}

# Images (PNG, JPEG, TIFF, WebP, GIF, BMP) are read by OCR, in a pool of
# their own; without tesseract they are refused (415) and sift validate
# says what to install.
extractor "ocr" {
  pool      = 1
  timeout   = "90s"
  memory    = "768MiB"
  languages = ["eng"]
}

# Feeds, notebooks and CSV/TSV are small documents parsed in milliseconds:
# one process each (killed and replaced like any other on a hostile file).
extractor "feeds" {
  pool = 1
}
extractor "notebook" {
  pool = 1
}
extractor "delimited" {
  pool = 1
}

# Office documents (DOCX, XLSX, PPTX, ODT, ODS, ODP) and e-books (EPUB)
# run in pools of their own, like PDFs: zip packages that may be bombs,
# read under bounds. Their memory follows the fetch stage's max_body
# unless a block sets it; one set too small is refused at start.
extractor "office" {
  pool    = 2
  timeout = "60s"
}

extractor "epub" {
  pool    = 1
  timeout = "60s"
}

# One caller fetches one host at a time. A fetch that finds that gate (or
# sift's limit of 8 at once) full waits in line, first come first served,
# for at most wait and never past its own deadline; past wait, or behind
# queue others, it is answered 429 with Retry-After. queue = 0 refuses at once.
gates {
  wait  = "10s"
  queue = 16     # waiting per caller and host
}

# Asynchronous batches (POST /v1/batch, Firecrawl's /v2/batch/scrape): one
# worker drains every live job serially, so a batch holds one fetch slot.
batch {
  workers          = 1       # at most 2
  targets_per_job  = 32
  jobs_per_caller  = 1
  jobs_total       = 8
  ttl              = "24h"   # a job is kept this long after its last activity
  max_bytes        = "64MiB" # stored results of all callers
  max_caller_bytes = "16MiB" # of one caller; a result that does not fit fails too_large
  max_result_bytes = "8MiB"  # of one result (at most 8MiB)
}
