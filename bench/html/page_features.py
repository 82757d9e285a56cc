#!/usr/bin/env python3
"""What of a page's code languages, captions and formulas reaches the markdown.

Runs an extractor over a dataset of the extraction benchmark (the batch
protocol of its eval.py) and counts, over every page:

- code blocks whose class or data-lang names a language (language-*, lang-*,
  highlight-*, brush:, hljs NAME, data-lang), and how many of them come out
  as a fence naming it (```python);
- figure captions that are part of the article (their text is in the page's
  ground truth), and how many of them are in the markdown;
- formulas (MathML, KaTeX, MathJax, MediaWiki) and the $…$ and $$…$$ in the
  markdown.

    python3 bench/html/page_features.py --data DIR/data/wcxb-dev --cmd 'bin/sift extract --batch'
    python3 bench/html/page_features.py --data DIR/data/wcxb-dev --cmd 'bin/sift extract --batch -o images=true'

DIR is the extraction benchmark's folder (make bench BENCH_DATA=DIR).
Standard library only.
"""

import argparse
import gzip
import html.parser
import json
import os
import re
import subprocess
import sys

LANG_PREFIXES = ("language-", "lang-", "highlight-source-", "highlight-text-", "highlight-")
NOT_LANG = {"default", "none", "nohighlight", "no-highlight", "undefined", "null", "plain", "highlight", "source"}
BARE = {"bash", "c", "cpp", "css", "go", "html", "java", "javascript", "js", "json", "python", "ruby", "rust",
        "shell", "sh", "sql", "typescript", "ts", "xml", "yaml", "php", "kotlin", "swift", "csharp", "cs"}
NAME = re.compile(r"^[a-z0-9][a-z0-9_+#.-]{0,29}$")


def class_language(attrs, own):
    d = dict(attrs)
    for key in ("data-lang", "data-language"):
        v = (d.get(key) or "").strip().lower()
        if v and v not in NOT_LANG and NAME.match(v):
            return v
    cls = d.get("class") or ""
    m = re.search(r"brush:\s*([A-Za-z0-9_+#.-]+)", cls)
    if m:
        return m.group(1).lower()
    for c in cls.lower().split():
        for p in LANG_PREFIXES:
            if c.startswith(p):
                v = c[len(p):]
                if v.endswith("-basic"):
                    v = v[: -len("-basic")]
                if v and v not in NOT_LANG and NAME.match(v):
                    return v
                break
    if own:
        classes = cls.lower().split()
        if "hljs" in classes or "sourcecode" in classes:
            for c in classes:
                if c in BARE:
                    return c
    return ""


class Page(html.parser.HTMLParser):
    """Collects a page's language-classed blocks, captions and formulas."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, attrs)
        self.langs = []
        self.pre_open = None  # index in langs of the open <pre>, or -1 when it named none
        self.captions = []
        self.caption = None
        self.formulas = 0

    def handle_starttag(self, tag, attrs):
        cls = " " + (dict(attrs).get("class") or "") + " "
        if tag == "pre":
            lang = class_language(attrs, True)
            for t, a in reversed(self.stack[-3:]):
                lang = lang or class_language(a, False)
            self.langs.append(lang)
            self.pre_open = len(self.langs) - 1
        elif tag == "code" and self.pre_open is not None and not self.langs[self.pre_open]:
            self.langs[self.pre_open] = class_language(attrs, True)
        elif tag == "figcaption":
            self.caption = []
        if " mwe-math-element " in cls or " katex " in cls or tag == "mjx-container" or \
                (tag == "script" and (dict(attrs).get("type") or "").startswith("math/tex")):
            self.formulas += 1
        if tag not in ("br", "img", "hr", "meta", "link", "input", "source", "wbr"):
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        if tag == "pre":
            self.pre_open = None
        if tag == "figcaption" and self.caption is not None:
            self.captions.append(" ".join(" ".join(self.caption).split()))
            self.caption = None
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.caption is not None:
            self.caption.append(data)


def words(s):
    return " ".join(re.findall(r"\w+", s.lower()))


def pages(data):
    """(id, url, html, ground truth text) of a dataset in eval.py's formats."""
    gt_dir = os.path.join(data, "ground-truth")
    if os.path.isdir(gt_dir):  # WCXB
        for name in sorted(os.listdir(gt_dir)):
            pid = name[:-5]
            gt = json.load(open(os.path.join(gt_dir, name), encoding="utf-8"))
            path = os.path.join(data, "html", pid + ".html.gz")
            if os.path.exists(path):
                yield pid, gt.get("url", ""), gzip.open(path).read(), gt["ground_truth"].get("main_content", "")
        return
    truth = json.load(open(os.path.join(data, "ground-truth.json"), encoding="utf-8"))
    for pid, gt in sorted(truth.items()):
        path = os.path.join(data, "html", pid + ".html.gz")
        if os.path.exists(path):
            yield pid, gt.get("url", ""), gzip.open(path).read(), gt.get("articleBody", "")


def extract(proc, url, body):
    proc.stdin.write(f"{len(body)} {url}\n".encode() + body)
    proc.stdin.flush()
    n, _ms, _status = proc.stdout.readline().decode().split()
    return proc.stdout.read(int(n)).decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="a dataset folder: data/wcxb-dev, data/scrapinghub, …")
    ap.add_argument("--cmd", required=True, help="the extractor, speaking eval.py's batch protocol")
    args = ap.parse_args()
    env = dict(os.environ, EXTRACT_BATCH="1")
    proc = subprocess.Popen(args.cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    blocks = fenced = captions = kept = formulas = written = 0
    for pid, url, body, truth in pages(args.data):
        p = Page()
        p.feed(body.decode("utf-8", "replace"))
        want = [l for l in p.langs if l]
        article_captions = [c for c in p.captions if len(c.split()) >= 2 and words(c) in words(truth)]
        if not want and not article_captions and not p.formulas:
            continue
        md = extract(proc, url, body)
        # a fence may be indented in a list item or quoted ("> ```go")
        fences = re.findall(r"^[ \t>]*(?:```+|~~~+)([^\s`]+)", md, re.M)
        for lang in set(want):
            blocks += want.count(lang)
            fenced += min(want.count(lang), fences.count(lang))
        captions += len(article_captions)
        # a caption's words as the markdown reads them: link targets and
        # image URLs would break them up ("[LinkedIn](https://…) Patrick")
        text = re.sub(r"\]\([^)]*\)", "]", md)
        kept += sum(1 for c in article_captions if words(c) in words(text))
        formulas += p.formulas
        written += len(re.findall(r"\$\$[^$]+\$\$|\$[^$\n]+\$", md))
    proc.stdin.close()
    proc.wait()
    pct = lambda a, b: f"{100 * a / b:.0f}%" if b else "-"
    print(f"code blocks naming a language: {blocks}, fenced with it: {fenced} ({pct(fenced, blocks)})")
    print(f"article figure captions: {captions}, in the markdown: {kept} ({pct(kept, captions)})")
    print(f"formulas: {formulas}, $…$ in the markdown: {written}")


if __name__ == "__main__":
    sys.exit(main())
