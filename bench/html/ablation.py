"""The ablation table and the recall floor of the HTML extractor, from the
outputs TestAblation (plugins/html/ablation_test.go) wrote: every rule of
sift's switched off in turn, its effect on each development set, per page
type and per half; and the paragraphs go-trafilatura keeps that sift
loses. make bench runs both:

    SIFT_BENCH_DATA=$BENCH_DATA SIFT_ABLATION_OUT=/tmp/ablation \\
      go test -run '^TestAblation$' -timeout 3h ./plugins/html/
    python3 bench/html/ablation.py --bench $BENCH_DATA --out /tmp/ablation

A rule's effect is F1 with every rule on minus F1 with that rule off:
positive, the rule earns its place there. Each set is scored with its own
metric by the benchmark's eval.py (imported, so its scoring is the one
published). A page's half is fixed by its site, as wcxb_halves.py fixes it
(the parity of the first byte of the SHA-256 of the URL's host): "tune"
and "held". A rule "lowers" a set when its effect is below zero on the
set, on either half, or (WCXB) on any page type.

The recall floor: go-trafilatura's paragraphs of 8 words or more that sift
loses (fewer than half of the paragraph's word trigrams in sift's output),
split by whether the set's truth holds them (main text lost) or not
(boilerplate dropped), and, for the main text lost, the rule whose
switching off brings it back; "none" means no single rule does (sift
chose another region, or its preparation changed go-trafilatura's
choice)."""
import argparse, collections, hashlib, json, os, re, sys
from urllib.parse import urlsplit

TYPES = ['article', 'collection', 'documentation', 'forum', 'listing', 'product', 'service']
SETS = ['scrapinghub', 'wcxb-dev', 'readability']


def host(url):
    h = (urlsplit(url or '').hostname or '').lower()
    return h[4:] if h.startswith('www.') else h


def half(key):
    return 'tune' if hashlib.sha256(key.encode()).digest()[0] % 2 == 0 else 'held'


def load_preds(path, ev):
    raw = ev.load_predictions(path)
    return {k: ev.strip_markdown(v or '').replace('\u00ad', '') for k, v in raw.items()}


def truth_text(kind, page):
    return page.truth.get('articleBody', '') if kind == 'scrapinghub' else page.truth['main_content']


def clean(text):
    return ev.strip_markdown(text or '').replace('\u00ad', '')


def per_page(ev, kind, pages, preds):
    """Each page's F1 by id, and (scrapinghub) its (tp, fp, fn) to average as eval.py does."""
    if kind == 'scrapinghub':
        return {p.id: ev.sh_shingle_matching(truth_text(kind, p) or '', preds.get(p.id, '') or '') for p in pages}
    return {p.id: ev.wc_word_prf(preds.get(p.id) or '', p.truth['main_content'])[2] for p in pages}


def page_f1(ev, kind, score):
    if kind != 'scrapinghub':
        return score
    p, r = ev._prec(*score), ev._rec(*score)
    return 2 * p * r / (p + r) if p + r else 0.0


def aggregate(ev, kind, scores, ids):
    if not ids:
        return float('nan')
    if kind == 'scrapinghub':
        return ev.sh_metrics([scores[i] for i in ids])['f1']
    return sum(scores[i] for i in ids) / len(ids)


def groups(kind, pages):
    """Named groups of page ids: all, tune, held and (WCXB) each page type."""
    g = collections.OrderedDict(all=[p.id for p in pages])
    # By site; a set whose pages share one host (Readability's fakehost)
    # is split by URL.
    by_url = len({host(ev_url(p)) for p in pages}) == 1
    key = {p.id: ev_url(p) if by_url else host(ev_url(p)) for p in pages}
    g['tune'] = [p.id for p in pages if half(key[p.id]) == 'tune']
    g['held'] = [p.id for p in pages if half(key[p.id]) == 'held']
    if kind == 'wcxb':
        for t in TYPES:
            g[t] = [p.id for p in pages if p.truth['page_type'] == t]
    return g


def ev_url(page):
    return page.truth.get('url', '') if isinstance(page.truth, dict) else ''


def words(text):
    return re.findall(r'\w+', text.lower())


def trigrams(ws):
    return {tuple(ws[i:i + 3]) for i in range(len(ws) - 2)}


def held_in(par, grams):
    mine = trigrams(par)
    return mine and len(mine & grams) >= 0.5 * len(mine)


def recall_floor(kind, pages, outs, rules):
    """Counts of go-trafilatura's paragraphs sift loses, and the rules that lose main text."""
    kept = lost_main = lost_other = 0
    by_rule = collections.Counter()
    examples = []
    for p in pages:
        sift = trigrams(words(outs['sift'].get(p.id) or ''))
        truth = trigrams(words(truth_text(kind, p) or ''))
        for line in (outs['gotrafilatura-blocks'].get(p.id) or '').splitlines():
            par = words(line)
            if len(par) < 8:
                continue
            kept += 1
            if held_in(par, sift):
                continue
            if not held_in(par, truth):
                lost_other += 1
                continue
            lost_main += 1
            back = [r for r in rules if held_in(par, trigrams(words(outs[r].get(p.id) or '')))]
            by_rule.update(back or ['none'])
            if not back and len(examples) < 5:
                examples.append((p.id, ' '.join(par[:12])))
    return kept, lost_main, lost_other, by_rule, examples


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bench', default=os.environ.get('BENCH_DATA'), help='the benchmark folder (eval.py, data/)')
    ap.add_argument('--out', required=True, help="TestAblation's output folder")
    ap.add_argument('--sets', default=','.join(SETS))
    ap.add_argument('--json', help='also write every figure as JSON here')
    ap.add_argument('--pages', help='list the pages this rule changes, with their F1 with and without it')
    args = ap.parse_args()
    if not args.bench:
        sys.exit('--bench or BENCH_DATA must name the benchmark folder')
    sys.path.insert(0, args.bench)
    global ev
    import eval as ev  # the benchmark's own scoring
    report = {}
    order = os.path.join(args.out, 'rules.json')
    if os.path.isfile(order):
        ORDER.extend(json.load(open(order, encoding='utf-8')))
    sets = [s for s in args.sets.split(',') if os.path.isdir(os.path.join(args.out, s))]
    for s in sets:
        kind, pages = ev.load_dataset(os.path.join(args.bench, 'data', s))
        names = sorted(f[:-5] for f in os.listdir(os.path.join(args.out, s)) if f.endswith('.json'))
        outs = {n: ev.load_predictions(os.path.join(args.out, s, n + '.json')) for n in names}
        # Only the pages a variant changes are stripped and scored again.
        stripped, scores = {}, {}
        for n in ('sift', 'gotrafilatura', 'gotrafilatura-blocks'):
            stripped[n] = {k: clean(v) for k, v in outs.get(n, {}).items()}
        for n in ('sift', 'gotrafilatura'):
            scores[n] = per_page(ev, kind, pages, stripped[n])
        for n in names:
            if n in scores or n == 'gotrafilatura-blocks':
                continue
            diff = [p for p in pages if (outs[n].get(p.id) or '') != (outs['sift'].get(p.id) or '')]
            stripped[n] = dict(stripped['sift'], **{p.id: clean(outs[n].get(p.id)) for p in diff})
            scores[n] = dict(scores['sift'], **per_page(ev, kind, diff, stripped[n]))
        g = groups(kind, pages)
        base = {k: aggregate(ev, kind, scores['sift'], ids) for k, ids in g.items()}
        gt = {k: aggregate(ev, kind, scores['gotrafilatura'], ids) for k, ids in g.items()}
        rules = [n for n in names if n not in ('sift', 'gotrafilatura', 'gotrafilatura-blocks')]
        rows = {}
        for r in rules:
            changed = [p.id for p in pages if (outs[r].get(p.id) or '') != (outs['sift'].get(p.id) or '')]
            eff = {k: base[k] - aggregate(ev, kind, scores[r], ids) for k, ids in g.items()}
            rows[r] = {'pages': len(changed), 'effect': eff,
                       'lowers': [k for k, v in eff.items() if v < -1e-9]}
        if args.pages in rows:
            print(f'\n{s}: pages {args.pages} changes (F1 with it, without it):')
            for p in pages:
                a, b = page_f1(ev, kind, scores['sift'][p.id]), page_f1(ev, kind, scores[args.pages][p.id])
                if (outs[args.pages].get(p.id) or '') != (outs['sift'].get(p.id) or ''):
                    print(f'  {a - b:+.4f} {p.id} {p.truth.get("page_type", "")} {a:.4f} {b:.4f}')
        floor = recall_floor(kind, pages, stripped, rules)
        report[s] = {'kind': kind, 'groups': {k: len(v) for k, v in g.items()}, 'sift': base,
                     'gotrafilatura': gt, 'rules': rows,
                     'floor': {'kept': floor[0], 'lost_main': floor[1], 'lost_other': floor[2],
                               'by_rule': dict(floor[3])}}
        print(f'\n### {s} ({len(pages)} pages)\n')
        cols = list(g)
        print('| | ' + ' | '.join(f'{c} ({len(g[c])})' for c in cols) + ' |')
        print('|---|' + '---|' * len(cols))
        print('| sift | ' + ' | '.join(f'{base[c]:.4f}' for c in cols) + ' |')
        print('| go-trafilatura | ' + ' | '.join(f'{gt[c]:.4f}' for c in cols) + ' |')
        print('\nEach rule off: its effect (F1 with it minus F1 without it), pages it changes.\n')
        print('| rule | pages | ' + ' | '.join(cols) + ' | lowers |')
        print('|---|---|' + '---|' * len(cols) + '---|')
        for r in sorted(rules, key=lambda r: (ruleorder(r))):
            row = rows[r]
            cells = ['' if row['pages'] == 0 else f"{row['effect'][c]:+.4f}" for c in cols]
            print(f"| {r} | {row['pages']} | " + ' | '.join(cells) + f" | {', '.join(row['lowers'])} |")
        kept, lm, lo, by_rule, examples = floor
        print(f'\nRecall floor: go-trafilatura keeps {kept} paragraphs of 8+ words; sift loses {lm + lo}: '
              f'{lm} the truth holds (main text), {lo} it does not (boilerplate).')
        print('Main text lost, by the rule that brings it back when switched off: ' +
              ', '.join(f'{r} {n}' for r, n in by_rule.most_common()))
        for pid, text in examples:
            print(f'  none: {pid}: {text} …')
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(report, f, indent=1)


ORDER = []  # the pipeline's order of the rules, from TestAblation's rules.json


def ruleorder(r):
    first = r.split('+')[0]
    return (ORDER.index(first) if first in ORDER else len(ORDER), r)


if __name__ == '__main__':
    main()
