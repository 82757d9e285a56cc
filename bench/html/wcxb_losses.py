"""Where does sift lose content on WCXB? (bench/html/BENCHMARKS.md, "Where
the losses are").

Run eval.py with --per-page first:

    python3 $BENCH_DATA/eval.py --dataset wcxb-dev --batch \
        --cmd 'bin/sift extract --batch' --per-page /tmp/wcxb-pp.json
    python3 bench/html/wcxb_losses.py /tmp/wcxb-pp.json

For the first 25 low-recall pages of each weak page type it finds the text
runs of the HTML that the ground truth has and sift's output lacks, and
counts, per page, the tags and class/id/itemprop/role words of their
ancestors; for low-precision pages, the runs sift kept that the ground truth
lacks. A word seen in most pages names the structure being lost or kept."""
import ast, collections, csv, gzip, json, os, re, subprocess, sys
from html.parser import HTMLParser

DATA = os.path.join(os.environ['BENCH_DATA'], 'data', 'wcxb-dev')
SIFT = 'bin/sift'
rows = list(csv.DictReader(open(sys.argv[1] if len(sys.argv) > 1 else '/tmp/wcxb-pp.json'), delimiter='\t'))
WORD = re.compile(r'\w+')

class Locator(HTMLParser):
    """Records, for each text run, the chain of (tag, class id) above it."""
    VOID = {'br','img','meta','link','input','hr','source','wbr','area','col','embed','param','track'}
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.runs = [], []
    def handle_starttag(self, tag, attrs):
        if tag in self.VOID: return
        a = dict(attrs)
        self.stack.append((tag, ' '.join(filter(None, [a.get('class') or '', a.get('id') or '', a.get('itemprop') or '', a.get('role') or '']))))
    def handle_endtag(self, tag):
        for i in range(len(self.stack)-1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]; break
    def handle_data(self, data):
        if data.strip():
            self.runs.append((data, list(self.stack)))

def words(s): return [w.lower() for w in WORD.findall(s)]

def chain_words(chain):
    out = set()
    for tag, attrs in chain:
        out.add('<' + tag + '>')
        for w in re.split(r'[\s_\-]+', attrs.lower()):
            w = re.sub(r'\d+', '', w)
            if 3 <= len(w) <= 20: out.add(w)
    return out

def sift(html):
    p = subprocess.run([SIFT, 'extract', '--type', 'text/html'], input=html, capture_output=True, timeout=60)
    return p.stdout.decode('utf-8', 'replace')

def study(kind, types, limit=25):
    counts, pages = collections.Counter(), 0
    for r in rows:
        if r['page_type'] not in types: continue
        P, R = float(r['precision']), float(r['recall'])
        if kind == 'lost' and not (R < 0.5 and P >= 0.3): continue
        if kind == 'kept' and not (P < 0.5 and R >= 0.5): continue
        gt = json.load(open(f"{DATA}/ground-truth/{r['id']}.json"))
        g = gt['ground_truth']
        if isinstance(g, str):
            g = ast.literal_eval(g)
        ref = g.get('main_content') or ''
        html = gzip.open(f"{DATA}/html/{r['id']}.html.gz").read()
        out = sift(html)
        loc = Locator(); loc.feed(html.decode('utf-8', 'replace'))
        ours, refw = set(words(out)), set(words(ref))
        seen = collections.Counter()
        for text, chain in loc.runs:
            ws = words(text)
            if len(ws) < 3: continue
            if kind == 'lost' and sum(w in refw for w in ws) >= 0.8*len(ws) and sum(w in ours for w in ws) < 0.3*len(ws):
                seen.update(chain_words(chain))
            if kind == 'kept' and sum(w in ours for w in ws) >= 0.8*len(ws) and sum(w in refw for w in ws) < 0.3*len(ws):
                seen.update(chain_words(chain))
        counts.update(set(w for w, n in seen.items()))  # pages in which the word appears
        pages += 1
        if pages >= limit: break
    return pages, counts

for kind, types in [('lost', {'forum'}), ('kept', {'forum'}), ('lost', {'product'}), ('kept', {'product'}),
                    ('lost', {'collection', 'listing'}), ('kept', {'collection', 'listing'}), ('lost', {'service'})]:
    n, c = study(kind, types)
    common = [(w, k) for w, k in c.most_common(40) if not w.startswith('<') or w in ('<li>','<table>','<dl>','<aside>','<footer>','<nav>','<header>','<form>','<section>','<article>','<blockquote>')][:18]
    print(f"{kind} {sorted(types)}: {n} pages; ancestors by pages: {common}")
