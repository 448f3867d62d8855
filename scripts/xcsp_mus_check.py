#!/usr/bin/env python3
"""Checks `csp explain` against brute force on random XCSP3 instances.

Usage: python3 xcsp_mus_check.py CSP OUTDIR N [SEED0] [--all-upto K] [--method M] [--want U]
       [--composed 1]

For each seed of SEED0 .. SEED0+N-1 (stopping early once U unsatisfiable instances were
checked, with --want), the instance of `xcsp_random_instances.gen(seed)` (every mode: small,
wide, matrix, edge, globals; see that script) is written with an `id` on each child of
`<constraints>` (`c0`, `c1`, ...), and `CSP explain FILE --format json` is run on it:

- with `--groups blocks`, so that its constraints are the children of `<constraints>`, or
  with `--groups none` on the instances whose children are all plain constraint elements
  (then the same units, named by the same ids), on alternate seeds;
- a satisfiable instance must be answered "satisfiable"; an unsatisfiable one must get a
  subset, proved minimal, that brute force finds unsatisfiable and each of whose one-smaller
  subsets brute force finds satisfiable;
- with --all-upto K, on the unsatisfiable instances of at most K constraints, also
  `--all`: its MUSes must be exactly those that brute force finds by trying every subset.

With `--composed 1`, the instances are drawn by `composed` below instead: more constraints,
each loose on its own, so that MUSes have several members.

The brute force is the generator's own evaluator of XCSP3 semantics (independent of csp),
stopped at the first solution. Prints one line per wrong answer, then a summary; exits 1 if
anything was wrong.
"""
import itertools
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xcsp_random_instances as gen_mod  # noqa: E402


class Spans(list):
    """I.cons, recording where in I.sem each constraint's semantics starts (the generator
    appends the XML, then extends I.sem with its predicates)."""

    def __init__(self, inst):
        super().__init__()
        self.inst = inst
        self.starts = []

    def append(self, xml):
        self.starts.append(len(self.inst.sem))
        super().append(xml)


def generate(seed):
    """The instance of `seed`, with ids, and each child's predicates: (text, [sems])."""
    orig_init = gen_mod.Inst.__init__

    def init(self):
        orig_init(self)
        self.cons = Spans(self)
    gen_mod.Inst.__init__ = init
    try:
        inst = gen_mod.gen(seed)
    finally:
        gen_mod.Inst.__init__ = orig_init
    if inst.expect != 'count':
        return None
    starts = inst.cons.starts + [len(inst.sem)]
    sems = [inst.sem[starts[k]:starts[k + 1]] for k in range(len(inst.cons))]
    cons = []
    for k, xml in enumerate(inst.cons):
        m = re.match(r'\s*<([A-Za-z]+)', xml)
        assert m and ' id=' not in xml.split('>')[0], xml
        cons.append(xml[:m.end()] + ' id="c%d"' % k + xml[m.end():])
    inst.cons = cons
    return inst, inst.xml(), sems


class Composed:
    """An instance of `composed`: variables and their domains, as the generator's."""

    def __init__(self, doms):
        self.vars = [('v%d' % i, d) for i, d in enumerate(doms)]
        self.dom = dict(self.vars)
        self.cons = []


def composed(seed):
    """Instances with larger MUSes than the generator's (whose constraints are often
    unsatisfiable alone): 4 to 6 variables over 2 or 3 values and 5 to 12 constraints, each
    loose on its own (binary conflicts or supports, ne/lt/le intensions, small sums, and
    allDifferent), so that only several together conflict. The same seed gives the same file."""
    r = gen_mod.random.Random(seed * 31 + 7)
    n = r.randint(4, 6)
    doms = [list(range(r.randint(2, 3))) for _ in range(n)]
    inst = Composed(doms)
    sems = []
    for k in range(r.randint(5, 12)):
        kind = r.choice(['conflicts', 'conflicts', 'supports', 'intension', 'sum', 'alldiff'])
        x, y = r.sample(range(n), 2)
        vx, vy = 'v%d' % x, 'v%d' % y
        pairs = [(a, b) for a in doms[x] for b in doms[y]]
        if kind in ('conflicts', 'supports'):
            some = sorted(r.sample(pairs, max(1, len(pairs) // 3)))
            if kind == 'supports':
                some = sorted(set(pairs) - set(some))
            text = ''.join('(%d,%d)' % t for t in some)
            xml = '<extension><list> %s %s </list><%s> %s </%s></extension>' % (vx, vy, kind, text, kind)
            allowed = set(some) if kind == 'supports' else set(pairs) - set(some)
            pred = (lambda s, vx=vx, vy=vy, ok=allowed: (s[vx], s[vy]) in ok)
            sems.append([((vx, vy), pred, kind)])
        elif kind == 'intension':
            op = r.choice(['ne', 'lt', 'le'])
            xml = '<intension> %s(%s,%s) </intension>' % (op, vx, vy)
            f = {'ne': lambda a, b: a != b, 'lt': lambda a, b: a < b, 'le': lambda a, b: a <= b}[op]
            sems.append([((vx, vy), (lambda s, vx=vx, vy=vy, f=f: f(s[vx], s[vy])), op)])
        elif kind == 'sum':
            vs = ['v%d' % i for i in r.sample(range(n), r.randint(2, 3))]
            op, k2 = r.choice([('ge', 2), ('le', 2), ('ge', 3), ('eq', 2)])
            f = {'ge': lambda t, k2=k2: t >= k2, 'le': lambda t, k2=k2: t <= k2, 'eq': lambda t, k2=k2: t == k2}[op]
            xml = '<sum><list> %s </list><condition> (%s,%d) </condition></sum>' % (' '.join(vs), op, k2)
            sems.append([(tuple(vs), (lambda s, vs=vs, f=f: f(sum(s[v] for v in vs))), 'sum')])
        else:
            vs = ['v%d' % i for i in r.sample(range(n), r.randint(2, 3))]
            xml = '<allDifferent> %s </allDifferent>' % ' '.join(vs)
            sems.append([(tuple(vs), (lambda s, vs=vs: len({s[v] for v in vs}) == len(vs)), 'alldiff')])
        m = re.match(r'<([A-Za-z]+)', xml)
        inst.cons.append(xml[:m.end()] + ' id="c%d"' % k + xml[m.end():])
    text = ('<instance format="XCSP3" type="CSP">\n<variables>\n' +
            '\n'.join('<var id="%s"> %s </var>' % (v, ' '.join(map(str, d))) for v, d in inst.vars) +
            '\n</variables>\n<constraints>\n' + '\n'.join(inst.cons) + '\n</constraints>\n</instance>\n')
    return inst, text, sems


def satisfiable(inst, sems, chosen):
    """Whether the constraints `chosen` (indices) have a common solution: a depth-first
    search over the variables they use, each predicate checked once its scope is set."""
    preds = [s for k in chosen for s in sems[k]]
    used = []
    for sc, _, _ in preds:
        for v in sc:
            if v not in used:
                used.append(v)
    at = {v: i for i, v in enumerate(used)}
    checks = [[] for _ in used]
    first = []
    for sc, p, _ in preds:
        (checks[max(at[v] for v in sc)] if sc else first).append(p)
    s = {v: min(d) for v, d in inst.vars}
    if not all(p(s) for p in first):
        return False
    doms = [inst.dom[v] for v in used]

    def walk(i):
        if i == len(used):
            return True
        for a in doms[i]:
            s[used[i]] = a
            if all(p(s) for p in checks[i]) and walk(i + 1):
                return True
        return False
    return walk(0)


def is_mus(inst, sems, subset):
    return not satisfiable(inst, sems, subset) and all(
        satisfiable(inst, sems, subset[:i] + subset[i + 1:]) for i in range(len(subset)))


def brute_muses(inst, sems):
    n = len(sems)
    unsat = {}
    for size in range(n + 1):
        for c in itertools.combinations(range(n), size):
            # a superset of an unsatisfiable subset is unsatisfiable
            if any(unsat.get(c[:i] + c[i + 1:], False) for i in range(len(c))):
                unsat[c] = True
            else:
                unsat[c] = not satisfiable(inst, sems, list(c))
    return sorted(list(c) for c, u in unsat.items()
                  if u and all(not unsat[c[:i] + c[i + 1:]] for i in range(len(c))))


def ids(constraints):
    out = []
    for c in constraints:
        name = c.get('id') or c.get('name')
        m = re.fullmatch(r'c(\d+)', name or '')
        if not m:
            raise ValueError('a constraint not named by a child id: %r' % c)
        out.append(int(m.group(1)))
    return sorted(out)


def main(argv):
    opts = {}
    args = []
    i = 0
    while i < len(argv):
        if argv[i].startswith('--'):
            opts[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 3:
        sys.exit(__doc__)
    csp, out, n = args[0], args[1], int(args[2])
    seed0 = int(args[3]) if len(args) > 3 else 0
    all_upto = int(opts.get('all-upto', -1))
    method = opts.get('method', 'quickxplain')
    want = int(opts.get('want', 10 ** 9))
    os.makedirs(out, exist_ok=True)
    stats = {'instances': 0, 'sat': 0, 'unsat': 0, 'all': 0, 'muses': 0, 'wrong': 0, 'calls': 0}
    sizes = []

    def wrong(seed, what):
        stats['wrong'] += 1
        print('seed %d: %s (python3 scripts/xcsp_mus_check.py CSP OUT 1 %d)' % (seed, what, seed))

    for seed in range(seed0, seed0 + n):
        if stats['unsat'] >= want:
            break
        made = composed(seed) if 'composed' in opts else generate(seed)
        if made is None:
            continue
        inst, text, sems = made
        path = os.path.join(out, 'm%06d.xml' % seed)
        with open(path, 'w') as f:
            f.write(text)
        plain = not any(re.match(r'\s*<(group|block|slide)\b', c) for c in inst.cons)
        groups = 'none' if plain and seed % 2 == 0 else 'blocks'
        base = [csp, 'explain', path, '--format', 'json', '--groups', groups, '--method', method]
        stats['instances'] += 1
        sat = satisfiable(inst, sems, list(range(len(sems))))
        run = subprocess.run(base, capture_output=True, text=True)
        try:
            answer = json.loads(run.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            wrong(seed, 'no JSON answer (exit %d): %s' % (run.returncode, run.stderr.strip()[:300]))
            continue
        if sat:
            stats['sat'] += 1
            if answer.get('status') != 'satisfiable' or run.returncode != 0:
                wrong(seed, 'satisfiable, but csp says %s (exit %d)' % (answer.get('status'), run.returncode))
            continue
        stats['unsat'] += 1
        if answer.get('status') != 'unsatisfiable' or not answer.get('minimal') or run.returncode != 0:
            wrong(seed, 'unsatisfiable, but csp says %s, minimal %s (exit %d): %s' % (
                answer.get('status'), answer.get('minimal'), run.returncode, run.stderr.strip()[:300]))
            continue
        try:
            subset = ids(answer['constraints'])
        except ValueError as e:
            wrong(seed, str(e))
            continue
        stats['calls'] += answer.get('calls', 0)
        sizes.append(len(subset))
        if not is_mus(inst, sems, subset):
            wrong(seed, 'the subset %s is no MUS' % subset)
        if len(sems) <= all_upto:
            stats['all'] += 1
            run = subprocess.run(base + ['--all'], capture_output=True, text=True)
            lines = [json.loads(l) for l in run.stdout.splitlines() if l.strip()]
            found = sorted(ids(l['mus']) for l in lines if 'mus' in l)
            expected = brute_muses(inst, sems)
            stats['muses'] += len(expected)
            last = lines[-1] if lines else {}
            if found != expected or not last.get('complete') or run.returncode != 0:
                wrong(seed, '--all found %s, brute force %s (complete %s, exit %d)' % (
                    found, expected, last.get('complete'), run.returncode))
    mean = sum(sizes) / len(sizes) if sizes else 0
    print('checked %(instances)d instances: %(sat)d satisfiable, %(unsat)d unsatisfiable '
          '(%(calls)d solver calls), %(all)d enumerated (%(muses)d MUSes); %(wrong)d wrong' % stats
          + '; mean MUS size %.2f' % mean)
    sys.exit(1 if stats['wrong'] else 0)


if __name__ == '__main__':
    main(sys.argv[1:])
