"""WCXB-dev in two halves by site: F1 per page type for several extractors
on the half rules are tuned on, on the half they are only measured on, and
on both, from one run (bench/html/BENCHMARKS.md).

    go build -o /tmp/gotrafilatura ./bench/html/gotrafilatura
    python3 bench/html/wcxb_halves.py --bench $BENCH_DATA \
        --cmd 'sift=bin/sift extract --batch' --cmd go-trafilatura=/tmp/gotrafilatura

A page's half is fixed by its site: the first byte of the SHA-256 of its
URL's host (lower case, without "www.") is even for the tuning half, odd
for the held-out half, so every page of a site lands in the same half and
a rule fitted to one site cannot score on the other. Each --cmd runs
eval.py --batch over WCXB-dev (in the order given; its summary line, with
the time per page, is printed first); --tsv NAME=FILE reads scores an
earlier run wrote with --save DIR (DIR/NAME.tsv) instead of running again.

--worst N lists the N pages of the tuning half where the first extractor
trails the second most, the pages to study; the held-out half is never
listed, so what is learnt there stays unseen."""
import argparse, csv, hashlib, json, os, subprocess, sys, tempfile
from urllib.parse import urlsplit

TYPES = ['article', 'collection', 'documentation', 'forum', 'listing', 'product', 'service']


def host(url):
    h = (urlsplit(url).hostname or '').lower()
    return h[4:] if h.startswith('www.') else h


def half(url):
    """'tune' or 'held', by the parity of the host's SHA-256."""
    return 'tune' if hashlib.sha256(host(url).encode()).digest()[0] % 2 == 0 else 'held'


def page_halves(data):
    """Each page's id -> (half, host), from the ground truth's URLs."""
    out = {}
    gt = os.path.join(data, 'ground-truth')
    for name in sorted(os.listdir(gt)):
        if name.endswith('.json'):
            url = json.load(open(os.path.join(gt, name), encoding='utf-8')).get('url') or ''
            out[name[:-5]] = (half(url), host(url))
    return out


def run(bench, name, cmd, tsv):
    """Runs eval.py over WCXB-dev; prints and returns its summary line."""
    p = subprocess.run([sys.executable, os.path.join(bench, 'eval.py'), '--dataset', 'wcxb-dev', '--batch',
                        '--quiet', '--bootstrap', '0', '--name', name, '--cmd', cmd, '--per-page', tsv],
                       capture_output=True, text=True, cwd=os.getcwd())
    if p.returncode != 0:
        sys.exit(f'eval.py for {name} failed: {p.stderr.strip()}')
    line = p.stdout.strip().splitlines()[-1]
    print(line)
    return line


def read_tsv(path):
    return {r['id']: r for r in csv.DictReader(open(path, encoding='utf-8'), delimiter='\t')}


def mean(xs):
    return sum(xs) / len(xs) if xs else float('nan')


def table(scores, halves):
    names = list(scores)
    cols = ['tune', 'held', 'all']
    head = ['type', 'pages (tune/held)'] + [f'{n} {c}' for n in names for c in cols]
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for t in TYPES + ['all']:
        ids = [i for i, r in scores[names[0]].items() if t == 'all' or r['page_type'] == t]
        by = {c: [i for i in ids if c == 'all' or halves[i][0] == c] for c in cols}
        row = [t, f"{len(by['tune'])}/{len(by['held'])}"]
        for n in names:
            for c in cols:
                row.append(f"{mean([float(scores[n][i]['f1']) for i in by[c] if i in scores[n]]):.4f}")
        print('| ' + ' | '.join(row) + ' |')


def worst(scores, halves, n):
    a, b = list(scores)[:2]
    rows = []
    for i, r in scores[a].items():
        if halves[i][0] == 'tune' and i in scores[b]:
            rows.append((float(r['f1']) - float(scores[b][i]['f1']), i, r['page_type'], halves[i][1],
                         float(r['precision']), float(r['recall'])))
    rows.sort()
    print(f'\ntuning-half pages where {a} trails {b} most (F1 difference, id, type, host, {a} P/R):')
    for d, i, t, h, p, r in rows[:n]:
        if d >= 0:
            break
        print(f'  {d:+.3f} {i} {t:<13} {h:<32} P {p:.2f} R {r:.2f}')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bench', default=os.environ.get('BENCH_DATA'), help='the benchmark folder (eval.py, data/)')
    ap.add_argument('--cmd', action='append', default=[], help='NAME=COMMAND speaking the batch protocol')
    ap.add_argument('--tsv', action='append', default=[], help='NAME=FILE of per-page scores from an earlier run')
    ap.add_argument('--save', help='folder to keep each run\'s per-page scores in, as NAME.tsv')
    ap.add_argument('--worst', type=int, default=0, help='list this many tuning-half pages')
    args = ap.parse_args()
    if not args.bench:
        sys.exit('--bench or BENCH_DATA must name the benchmark folder')
    halves = page_halves(os.path.join(args.bench, 'data', 'wcxb-dev'))
    save = args.save or tempfile.mkdtemp(prefix='wcxb-halves-')
    os.makedirs(save, exist_ok=True)
    scores = {}
    for spec in args.cmd + args.tsv:
        name, _, val = spec.partition('=')
        if not val:
            sys.exit(f'{spec!r}: want NAME=VALUE')
        if spec in args.cmd:
            path = os.path.join(save, name + '.tsv')
            run(args.bench, name, val, path)
        else:
            path = val
        scores[name] = read_tsv(path)
    if not scores:
        sys.exit('nothing to score: give --cmd or --tsv')
    sites = {h for _, h in halves.values()}
    tune_sites = {h for c, h in halves.values() if c == 'tune'}
    print(f'\n{len(halves)} pages of {len(sites)} sites; tuning half {len(tune_sites)} sites, '
          f'held-out half {len(sites) - len(tune_sites)}\n')
    table(scores, halves)
    if args.worst and len(scores) >= 2:
        worst(scores, halves, args.worst)


if __name__ == '__main__':
    main()
