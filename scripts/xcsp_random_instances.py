#!/usr/bin/env python3
"""Random small XCSP3 instances with their semantics, for differential testing of `csp`.

gen(seed) -> Instance with .xml (text), .vars [(name, domain list)], .cons [(desc, scope, pred)]
where pred(assign: dict name->int) -> bool implements XCSP3 semantics independently of csp.
brute(inst) -> (count, solutions) over the variables that occur in some constraint (the others
are fixed to their smallest value, as csp and ACE count them).

Semantics used (csp's, docs/constraints.md "Arithmetic is exact"): booleans are 0/1; div truncates
toward zero, mod has the dividend's sign (Java); integers are exact (Python's own, unbounded);
div/mod by zero and pow with a negative exponent are undefined, and an undefined operand makes
its operator undefined unless the defined operands decide: a false operand of `and`, a true one
of `or`, a false premise or a true conclusion of `imp`, the branch `if` does not take; a
constraint whose expression is undefined is not satisfied; eq/iff n-ary = all equal; xor n-ary =
odd parity.
Usage: python3 xcsp_random_instances.py OUTDIR N [SEED0] [--solutions MAX] [--objective]
   (writes OUTDIR/rNNNNN.xml and OUTDIR/rNNNNN.json; with --solutions, also OUTDIR/rNNNNN.sols,
   the solutions one per line, when there are at most MAX of them; with --objective, each
   instance that suits becomes a COP, its .json carrying "goal" and the brute force's "optimum",
   null when there is no solution)

Origin: ../shared/tools/xcsp_random_instances.py, the generator and evaluator behind
../shared/reports/reliability-findings-xcsp.md (970 instances, 11 configurations), copied on
2026-11-27 and changed to the semantics above: no 64-bit check and no `pow` cut-off (the old
evaluator called an i64 overflow undefined, as csp then did), the lazy `and`/`or`/`imp`, no
empty interval in a condition (csp refuses `(in,5..2)`), and a brute force that checks each
constraint as soon as its scope is assigned (the same count, found faster). It also gained:

- an `edge` mode (seeds >= 300000): domains of a few values at the edges of 32 bits
  (2147483645..2147483647, -2147483648..-2147483646, around 2^30, 2^16, 46341 = ceil(sqrt(2^31)),
  0), constants and coefficients at the edges of 64 bits (i64::MAX, i64::MIN, i64::MIN+1, 2^62,
  2^32...), products of two or three 32-bit variables, sums of them, big coefficients times
  variables, differences past 32 bits, element start indices and allDifferent offsets at the
  edges: values that leave 64 bits but not 128, which csp must count exactly;
- a `globals` mode (seeds >= 400000): allEqual, count, minimum, maximum, nValues, ordered (with
  lengths), lex and cardinality over small domains or a few values at the edges of 32 bits, with
  conditions near the values they bound and 64-bit edges among their operands; and the globals
  with conditions, time points, bins or indices: cumulative, binPacking (its four forms),
  knapsack, sum with coefficients, element (index, value, matrix, none), noOverlap (one
  dimension and boxes), count with a variable value, nValues and allDifferent with except,
  cardinality with intervals, minimum/maximum with an index, channel, circuit, regular, mdd,
  each condition with every operator (see gen_globals for their semantics);
- interval bounds of every expression computed here: an instance counts only when every
  subexpression's bounds stay within 2^126 (csp refuses those that could leave 128 bits, so a
  constraint drawn past that is drawn again). One edge seed in 25 holds instead, on purpose, a
  constraint whose values do leave 128 bits: its .json says "expect": "refused" (csp must refuse
  it with exit 1 and a message about 128-bit integers).

The .json of an instance: {"seed", "mode", "expect": "count" | "refused", "brute" (the count;
null when refused), "space", "ace_ok"}.
"""
import json
import os
import random
import sys


class Undef(Exception):
    pass


class TooBig(Exception):
    """A power too large to compute (only met while drawing: such an expression's bounds are
    past 128 bits, so it is drawn again)."""


def tdiv(a, b):
    if b == 0:
        raise Undef()
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def tmod(a, b):
    if b == 0:
        raise Undef()
    return a - b * tdiv(a, b)


def ev_pow(a, b):
    if b < 0:
        raise Undef()
    if abs(a) > 1 and b > 1000:
        raise TooBig()
    return a ** b


I64_MAX = 2**63 - 1
I64_MIN = -2**63
I32_MAX = 2**31 - 1
I32_MIN = -2**31
# csp refuses a constraint some of whose values could leave 128 bits; an instance counts here
# when every bound stays within this (a margin of one bit for csp's own bound computation).
COUNTED_BOUND = 2**126


# ---------- expressions: trees ('v', name) | ('c', int) | (op, [args]), with a text, a value
# function (raising Undef) and interval bounds ----------

INT_OPS = {
    'add': lambda *a: sum(a),
    'sub': lambda a, b: a - b,
    'mul': lambda *a: eval_mul(a),
    'div': tdiv, 'mod': tmod,
    'abs': lambda a: abs(a), 'neg': lambda a: -a, 'sqr': lambda a: a * a,
    'pow': ev_pow,
    'min': lambda *a: min(a), 'max': lambda *a: max(a),
    'dist': lambda a, b: abs(a - b),
}


def eval_mul(a):
    p = 1
    for v in a:
        p *= v
    return p


BOOL_OPS = {
    'lt': lambda a, b: int(a < b), 'le': lambda a, b: int(a <= b),
    'gt': lambda a, b: int(a > b), 'ge': lambda a, b: int(a >= b),
    'ne': lambda a, b: int(a != b),
    'eq': lambda *a: int(all(x == a[0] for x in a)),
    'xor': lambda *a: int(sum(1 for x in a if x) % 2 == 1),
    'iff': lambda *a: int(all(bool(x) == bool(a[0]) for x in a)),
    'not': lambda a: int(not a),
}


def lazy_and_or(fns, decider):
    """`and` (decider False) / `or` (decider True): an operand equal to the decider decides,
    even when others are undefined."""
    def f(s):
        undefined = False
        for g in fns:
            try:
                v = g(s)
            except Undef:
                undefined = True
                continue
            if bool(v) == decider:
                return int(decider)
        if undefined:
            raise Undef()
        return int(not decider)
    return f


def lazy_imp(a, b):
    """A false premise or a true conclusion decides `imp`."""
    def f(s):
        try:
            pa = a(s)
        except Undef:
            pa = None
        if pa is not None and not pa:
            return 1
        try:
            cb = b(s)
        except Undef:
            cb = None
        if cb is not None and cb:
            return 1
        if pa is None or cb is None:
            raise Undef()
        return 0
    return f


class E:
    """An expression: its tree, its text and its value function."""
    __slots__ = ('t', 'txt', 'fn')

    def __init__(self, t, txt, fn):
        self.t, self.txt, self.fn = t, txt, fn

    def __getitem__(self, i):  # (text, fn), as the first version's tuples
        return (self.txt, self.fn)[i]


def call(op, args):
    txt = '%s(%s)' % (op, ','.join(a.txt for a in args))
    fns = [a.fn for a in args]
    if op in ('and', 'or'):
        fn = lazy_and_or(fns, op == 'or')
    elif op == 'imp':
        fn = lazy_imp(fns[0], fns[1])
    elif op == 'if':
        fn = (lambda s, c=fns[0], a=fns[1], b=fns[2]: a(s) if c(s) else b(s))
    else:
        f = INT_OPS.get(op) or BOOL_OPS[op]
        fn = (lambda s, f=f, fns=fns: f(*[g(s) for g in fns]))
    return E((op, [a.t for a in args]), txt, fn)


def set_test(op, e, vals):
    """in(e, set(vals)) / notin(e, set(vals))."""
    txt = '%s(%s,set(%s))' % (op, e.txt, ','.join(map(str, vals)))
    vs = frozenset(vals)
    if op == 'in':
        fn = (lambda s, e=e.fn, vs=vs: int(e(s) in vs))
    else:
        fn = (lambda s, e=e.fn, vs=vs: int(e(s) not in vs))
    return E((op, [e.t, ('set', list(vals))]), txt, fn)


def leaf_var(name):
    return E(('v', name), name, lambda s, n=name: s[n])


def leaf_const(c):
    return E(('c', c), str(c), lambda s, c=c: c)


def imul(a, b):
    p = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return (min(p), max(p))


def interval(t, bnd, peak):
    """Interval bounds of the tree `t` when each variable v lies in bnd[v] = (lo, hi), by
    interval arithmetic operation by operation (partial sums and products of n-ary `add` and
    `mul` included); peak[0] is raised to the largest magnitude met."""
    kind = t[0]
    if kind == 'v':
        r = bnd[t[1]]
    elif kind == 'c':
        r = (t[1], t[1])
    elif kind in ('in', 'notin'):
        interval(t[1][0], bnd, peak)
        for c in t[1][1][1]:
            peak[0] = max(peak[0], abs(c))
        r = (0, 1)
    else:
        p = [interval(a, bnd, peak) for a in t[1]]
        if kind == 'neg':
            r = (-p[0][1], -p[0][0])
        elif kind == 'abs':
            lo, hi = p[0]
            r = (lo, hi) if lo >= 0 else ((-hi, -lo) if hi <= 0 else (0, max(-lo, hi)))
        elif kind == 'sqr':
            r = imul(p[0], p[0])
        elif kind in ('add', 'mul'):
            r = p[0]
            for q in p[1:]:
                r = (r[0] + q[0], r[1] + q[1]) if kind == 'add' else imul(r, q)
                peak[0] = max(peak[0], abs(r[0]), abs(r[1]))
        elif kind == 'sub':
            r = (p[0][0] - p[1][1], p[0][1] - p[1][0])
        elif kind in ('div', 'mod'):
            m = max(abs(p[0][0]), abs(p[0][1]))
            r = (-m, m)
        elif kind == 'pow':
            m = max(abs(p[0][0]), abs(p[0][1]))
            emax = p[1][1]
            if emax < 0:
                r = (0, 0)
            elif m <= 1:
                r = (-1, 1)
            elif emax > 200:
                r = (-2**255, 2**255)  # far past 128 bits; not computed
            else:
                r = (-(m ** emax), m ** emax)
        elif kind == 'min':
            r = (min(q[0] for q in p), min(q[1] for q in p))
        elif kind == 'max':
            r = (max(q[0] for q in p), max(q[1] for q in p))
        elif kind == 'dist':
            lo, hi = p[0][0] - p[1][1], p[0][1] - p[1][0]
            r = (lo, hi) if lo >= 0 else ((-hi, -lo) if hi <= 0 else (0, max(-lo, hi)))
        elif kind == 'if':
            r = (min(p[1][0], p[2][0]), max(p[1][1], p[2][1]))
        else:
            r = (0, 1)
    peak[0] = max(peak[0], abs(r[0]), abs(r[1]))
    return r


def widest(t, bnd):
    """The largest magnitude of any bound of any subexpression of `t`."""
    peak = [0]
    interval(t, bnd, peak)
    return peak[0]


def gen_int(r, names, d):
    if d <= 0 or r.random() < 0.3:
        if r.random() < 0.75:
            return leaf_var(r.choice(names))
        return leaf_const(r.randint(-3, 4))
    k = r.randrange(13)
    if k == 0:
        return call('add', [gen_int(r, names, d - 1) for _ in range(r.choice([2, 2, 3]))])
    if k == 1:
        return call('sub', [gen_int(r, names, d - 1), gen_int(r, names, d - 1)])
    if k == 2:
        return call('mul', [gen_int(r, names, d - 1) for _ in range(r.choice([2, 2, 3]))])
    if k in (3, 4):
        op = 'div' if k == 3 else 'mod'
        den = gen_int(r, names, d - 1) if r.random() < 0.6 else leaf_const(r.choice([-3, -2, -1, 1, 2, 3, 0]))
        return call(op, [gen_int(r, names, d - 1), den])
    if k == 5:
        return call(r.choice(['abs', 'neg', 'sqr']), [gen_int(r, names, d - 1)])
    if k == 6:
        e = leaf_const(r.choice([0, 1, 2, 3])) if r.random() < 0.7 else leaf_var(r.choice(names))
        return call('pow', [gen_int(r, names, d - 1), e])
    if k == 7:
        return call(r.choice(['min', 'max']), [gen_int(r, names, d - 1) for _ in range(r.choice([2, 3]))])
    if k == 8:
        return call('dist', [gen_int(r, names, d - 1), gen_int(r, names, d - 1)])
    if k == 9:
        # only the branch taken must be defined
        return call('if', [gen_bool(r, names, d - 1), gen_int(r, names, d - 1), gen_int(r, names, d - 1)])
    if k == 10:
        return gen_bool(r, names, d - 1)  # boolean used as 0/1
    return leaf_var(r.choice(names))


def gen_bool(r, names, d):
    k = r.randrange(12) if d > 0 else r.randrange(3)
    if k in (0, 1, 2):
        op = r.choice(['lt', 'le', 'gt', 'ge', 'ne', 'eq'])
        return call(op, [gen_int(r, names, d - 1), gen_int(r, names, d - 1)])
    if k == 3:
        return call('eq', [gen_int(r, names, d - 1) for _ in range(3)])
    if k == 4:
        op = r.choice(['in', 'notin'])
        vals = sorted(set(r.randint(-3, 6) for _ in range(r.randint(1, 4))))
        return set_test(op, gen_int(r, names, d - 1), vals)
    if k in (5, 6):
        return call(r.choice(['and', 'or', 'xor']), [gen_bool(r, names, d - 1) for _ in range(r.choice([2, 2, 3]))])
    if k == 7:
        return call('iff', [gen_bool(r, names, d - 1) for _ in range(r.choice([2, 2, 3]))])
    if k == 8:
        return call('imp', [gen_bool(r, names, d - 1), gen_bool(r, names, d - 1)])
    if k == 9:
        return call('not', [gen_bool(r, names, d - 1)])
    return call(r.choice(['lt', 'le', 'gt', 'ge', 'ne', 'eq']), [gen_int(r, names, d - 1), gen_int(r, names, d - 1)])


def safe(pred):
    def p(s):
        try:
            return bool(pred(s))
        except Undef:
            return False
    return p


# ---------- domains ----------

WIDE = [False]


def gen_domain(r):
    if WIDE[0]:
        lo = r.randint(-8, 3)
        d = list(range(lo, lo + r.randint(9, 13)))
        if r.random() < 0.5:
            d = sorted(r.sample(d, len(d) - 2)) + [lo + 40]
        return d
    k = r.randrange(4)
    if k == 0:
        lo = r.randint(-4, 5)
        return list(range(lo, lo + r.randint(1, 6)))
    if k == 1:
        return sorted(r.sample(range(-4, 10), r.randint(1, 6)))
    if k == 2:  # like `1..3 9`
        lo = r.randint(-3, 3)
        return list(range(lo, lo + r.randint(2, 4))) + [lo + r.randint(6, 9)]
    return sorted(r.sample([-3, 0, 2, 7, 1, -1, 4], r.randint(2, 5)))


def dom_txt(vals, r=None):
    vals = sorted(vals)
    out, i = [], 0
    while i < len(vals):
        j = i
        while j + 1 < len(vals) and vals[j + 1] == vals[j] + 1:
            j += 1
        if j - i >= 1 and (r is None or r.random() < 0.8):
            out.append('%d..%d' % (vals[i], vals[j]))
        else:
            out.extend(str(v) for v in vals[i:j + 1])
        i = j + 1
    return ' '.join(out)


# ---------- instance ----------

class Inst:
    def __init__(self):
        self.vars = []        # (name, domain)
        self.dom = {}
        self.decl = []        # xml lines
        self.cons = []        # (xml)
        self.sem = []         # (scope, pred, desc)
        self.ace_ok = True    # False when a form ACE 2.6 is known not to read is used
        self.arrays = {}      # name -> dict index tuple -> var name (existing cells only), dims
        self.mode = 'small'
        self.expect = 'count'  # 'refused': some constraint's values leave 128 bits

    def declare(self, n, draw, r):
        """Declares the variables v0 .. v(n-1), each over draw(i); their names."""
        for i in range(n):
            d = draw(i)
            self.decl.append('<var id="v%d"> %s </var>' % (i, dom_txt(d, r)))
            self.vars.append(('v%d' % i, d))
        self.dom = dict(self.vars)
        return [v for v, _ in self.vars]

    def sample(self, r):
        """A random assignment of every variable."""
        return {v: r.choice(d) for v, d in self.vars}

    def xml(self):
        return ('<instance format="XCSP3" type="CSP">\n<variables>\n' + '\n'.join(self.decl) +
                '\n</variables>\n<constraints>\n' + '\n'.join(self.cons) + '\n</constraints>\n</instance>\n')


def bounds_of(I, sub=None):
    """Variable name (or %i placeholder, through `sub`) -> (min, max) of its domain."""
    b = {v: (min(d), max(d)) for v, d in I.vars}
    if sub:
        for ph, vs in sub.items():
            b[ph] = (min(b[v][0] for v in vs), max(b[v][1] for v in vs))
    return b


def fits(I, e, sub=None):
    """Whether every subexpression of `e` stays within COUNTED_BOUND over the domains."""
    return widest(e.t, bounds_of(I, sub)) <= COUNTED_BOUND


def gen(seed):
    """Seeds >= 400000 give the `globals` mode (see gen_globals), seeds >= 300000 the `edge`
    mode (see gen_edge); seeds >= 200000 the `matrix` mode
    (m[2][2] always declared, <matrix> favoured); seeds in 100000..199999 give the `wide` mode:
    domains of 9 to 13 values, intensions over 4 or 5 variables (past csp's 100,000-combination
    table threshold: its checker paths)."""
    if seed >= 400000:
        return gen_globals(seed)
    if seed >= 300000:
        return gen_edge(seed)
    WIDE[0] = 100000 <= seed < 200000
    r = random.Random(seed)
    I = Inst()
    I.mode = 'matrix' if seed >= 200000 else ('wide' if WIDE[0] else 'small')
    # array x of size k, maybe per-cell domains, maybe a missing cell
    k = r.randint(2, 4)
    n_single = r.randint(0, 2)
    if WIDE[0]:
        k, n_single = r.randint(3, 4), 1
    use_m = r.random() < 0.3 and k + n_single + 4 <= 7
    if seed >= 200000:  # `matrix` mode: always the 2x2 array m, allDifferent on it favoured
        k, n_single, use_m = 2, r.randint(0, 1), True
    if k + n_single < 3:
        n_single = 3 - k
    xcells = {}
    if r.random() < 0.35:
        doms = [gen_domain(r) for _ in range(k)]
        missing = r.randrange(k) if (k >= 3 and r.random() < 0.3) else None
        parts = []
        groups = {}
        for i in range(k):
            if i == missing:
                continue
            groups.setdefault(tuple(doms[i]), []).append(i)
        items = list(groups.items())
        for gi, (d, idx) in enumerate(items):
            if gi == len(items) - 1 and missing is None and r.random() < 0.5:
                parts.append('  <domain for="others"> %s </domain>' % dom_txt(d, r))
            else:
                parts.append('  <domain for="%s"> %s </domain>' % (' '.join('x[%d]' % i for i in idx), dom_txt(d, r)))
            for i in idx:
                xcells[i] = list(d)
        I.decl.append('<array id="x" size="[%d]">\n%s\n</array>' % (k, '\n'.join(parts)))
    else:
        d = gen_domain(r)
        I.decl.append('<array id="x" size="[%d]"> %s </array>' % (k, dom_txt(d, r)))
        for i in range(k):
            xcells[i] = list(d)
    for i in sorted(xcells):
        I.vars.append(('x[%d]' % i, xcells[i]))
    I.arrays['x'] = [i for i in sorted(xcells)]
    singles = ['a', 'b', 'c'][:n_single]
    for s in singles:
        d = gen_domain(r)
        I.decl.append('<var id="%s"> %s </var>' % (s, dom_txt(d, r)))
        I.vars.append((s, d))
    if use_m:
        d = gen_domain(r)
        I.decl.append('<array id="m" size="[2][2]"> %s </array>' % dom_txt(d, r))
        for i in range(2):
            for j in range(2):
                I.vars.append(('m[%d][%d]' % (i, j), d))
    I.dom = dict(I.vars)
    names = [v for v, _ in I.vars]
    xs = ['x[%d]' % i for i in I.arrays['x']]

    def pick(n, distinct=True):
        if distinct:
            return r.sample(names, min(n, len(names)))
        return [r.choice(names) for _ in range(n)]

    def list_txt(vs):
        # compact forms where they match exactly
        if vs == xs and r.random() < 0.6:
            return 'x[]'
        if len(vs) >= 2 and all(v in xs for v in vs):
            idx = [int(v[2:-1]) for v in vs]
            if idx == list(range(idx[0], idx[-1] + 1)) and all(i in I.arrays['x'] for i in idx) and r.random() < 0.5:
                return 'x[%d..%d]' % (idx[0], idx[-1])
        if use_m and r.random() < 0.5:
            for j in range(2):
                if vs == ['m[0][%d]' % j, 'm[1][%d]' % j]:
                    return 'm[][%d]' % j
                if vs == ['m[%d][0]' % j, 'm[%d][1]' % j]:
                    return 'm[%d][]' % j
            if vs == ['m[0][0]', 'm[0][1]', 'm[1][0]', 'm[1][1]']:
                return 'm[][]'
        return ' '.join(vs)

    def add(xml, sem):
        I.cons.append(xml)
        I.sem.extend(sem)

    def bounded_bool(sc, depth, sub=None):
        # an expression drawn past csp's 128-bit bounds is drawn again
        while True:
            e = gen_bool(r, sc, depth)
            if fits(I, e, sub):
                return e

    def c_intension():
        sc = pick(r.randint(4, 5) if WIDE[0] else r.randint(1, 4))
        e = bounded_bool(sc, r.randint(1, 3))
        return '<intension> %s </intension>' % e[0], [(tuple(sorted(set(extract(e[0], names)))), safe(e[1]), e[0])]

    def c_extension(vs=None, name_list=None, doms=None):
        if vs is None:
            ar = r.choice([1, 1, 2, 2, 2, 3, 3])
            vs = pick(ar, distinct=r.random() < 0.85)
        ar = len(vs)
        supports = r.random() < 0.6
        doms = doms or [I.dom[v] for v in vs]
        pool = [sorted(set(doms[i] + [r.randint(-4, 9)])) for i in range(ar)]
        nt = r.randint(0, 8)
        if ar == 1:
            vals = sorted(set(r.choice(pool[0]) for _ in range(max(nt, 0))))
            body = dom_txt(vals, r)
            tset = set((v,) for v in vals)
        else:
            tuples = set()
            star = r.random() < 0.4
            for _ in range(nt):
                t = tuple('*' if (star and r.random() < 0.2) else r.choice(pool[i]) for i in range(ar))
                tuples.add(t)
            tuples = sorted(tuples, key=lambda t: tuple(-99 if c == '*' else c for c in t))
            body = ''.join('(%s)' % ','.join(map(str, t)) for t in tuples)
            tset = tuples
        tag = 'supports' if supports else 'conflicts'
        lt = name_list if name_list is not None else list_txt(vs)
        xml = '<extension><list> %s </list><%s> %s </%s></extension>' % (lt, tag, body, tag)

        def pred(s, vs=vs, tset=tset, supports=supports):
            a = tuple(s[v] for v in vs)
            m = any(all(c == '*' or c == a[i] for i, c in enumerate(t)) for t in tset)
            return m == supports
        return xml, [(tuple(sorted(set(vs))), pred, 'ext')]

    def c_alldiff():
        k = r.randrange(6)
        if seed >= 200000 and r.random() < 0.5:
            k = 4
        if k == 4 and use_m:
            M = [['m[%d][%d]' % (i, j) for j in range(2)] for i in range(2)]
            xml = '<allDifferent><matrix> %s </matrix></allDifferent>' % (
                'm[][]' if r.random() < 0.5 else ''.join('(%s)' % ','.join(row) for row in M))
            sem = []
            for i in range(2):
                sem.append(ad_sem(M[i], None))
                sem.append(ad_sem([M[0][i], M[1][i]], None))
            return xml, sem
        if k == 3 and len(names) >= 4:
            vs = pick(4)
            xml = '<allDifferent><list> %s %s </list><list> %s %s </list></allDifferent>' % tuple(vs)
            return xml, [(tuple(sorted(vs)), lambda s, v=vs: (s[v[0]], s[v[1]]) != (s[v[2]], s[v[3]]), 'adlists')]
        if k == 5:
            vs = pick(r.randint(2, 4))
            exprs, fns = [], []
            for v in vs:
                c = r.randint(-2, 2)
                if c == 0:
                    exprs.append(v)
                    fns.append(lambda s, v=v: s[v])
                else:
                    exprs.append('add(%s,%d)' % (v, c))
                    fns.append(lambda s, v=v, c=c: s[v] + c)
            xml = '<allDifferent> %s </allDifferent>' % ' '.join(exprs)
            return xml, [(tuple(sorted(vs)), lambda s, f=fns: len(set(g(s) for g in f)) == len(f), 'adexpr')]
        vs = xs if (r.random() < 0.3 and len(xs) >= 2) else pick(r.randint(2, 5))
        exc = None
        if r.random() < 0.35:
            exc = sorted(set(r.randint(-2, 3) for _ in range(r.randint(1, 2))))
        if exc is None and r.random() < 0.5:
            xml = '<allDifferent> %s </allDifferent>' % list_txt(vs)
        else:
            xml = '<allDifferent><list> %s </list>%s</allDifferent>' % (
                list_txt(vs), '' if exc is None else '<except> %s </except>' % ' '.join(map(str, exc)))
        return xml, [ad_sem(vs, exc)]

    def cond(rhs_vars):
        op = r.choice(['lt', 'le', 'gt', 'ge', 'eq', 'ne', 'eq', 'in', 'notin'])
        if op in ('in', 'notin'):
            if r.random() < 0.5:
                lo = r.randint(-4, 6)
                hi = lo + r.randint(0, 5)  # never empty: csp refuses `(in,5..2)`
                txt = '(%s,%d..%d)' % (op, lo, hi)
                vals = frozenset(range(lo, hi + 1))
            else:
                vals = frozenset(r.randint(-4, 8) for _ in range(r.randint(1, 4)))
                txt = '(%s,{%s})' % (op, ','.join(map(str, sorted(vals))))
            f = (lambda v, vals=vals: v in vals) if op == 'in' else (lambda v, vals=vals: v not in vals)
            return txt, (lambda s, v: f(v)), []
        cmpf = CMP[op]
        if rhs_vars and r.random() < 0.4:
            w = r.choice(rhs_vars)
            return '(%s,%s)' % (op, w), (lambda s, v, w=w: cmpf(v, s[w])), [w]
        k = r.randint(-3, 8)
        return '(%s,%d)' % (op, k), (lambda s, v, k=k: cmpf(v, k)), []

    def c_sum():
        vs = pick(r.randint(1, 5), distinct=r.random() < 0.85)
        co = [r.choice([1, 1, 2, -1, -2, 0, 3]) for _ in vs] if r.random() < 0.7 else None
        ctxt, cf, extra = cond(names)
        xml = '<sum><list> %s </list>%s<condition> %s </condition></sum>' % (
            list_txt(vs), '' if co is None else '<coeffs> %s </coeffs>' % ' '.join(map(str, co)), ctxt)
        cc = co or [1] * len(vs)
        return xml, [sum_sem(vs, cc, cf, extra)]

    def c_element():
        L = xs if (len(xs) >= 2 and r.random() < 0.6) else pick(r.randint(2, 4))
        items = list(L)
        consts = False
        if r.random() < 0.2:
            items = items + [str(r.randint(-2, 4))]
            consts = True
        others = [v for v in names if v not in L]
        start = 0
        if r.random() < 0.15:
            start = 1
            I.ace_ok = False
        lt = (list_txt(L) if not consts else ' '.join(items))
        if others and r.random() < 0.8:
            iv = r.choice(others)
            # ACE refuses index values outside the list
            if any(not (start <= v < start + len(items)) for v in I.dom[iv]):
                I.ace_ok = False
            rhs_pool = [v for v in names if v != iv]
            use_value = r.random() < 0.15
            if use_value:
                I.ace_ok = False
                if r.random() < 0.5:
                    w = r.choice(rhs_pool)
                    ctxt, cf, extra = '<value> %s </value>' % w, (lambda s, v, w=w: v == s[w]), [w]
                else:
                    k = r.randint(-1, 4)
                    ctxt, cf, extra = '<value> %d </value>' % k, (lambda s, v, k=k: v == k), []
            else:
                c, cf, extra = cond(rhs_pool)
                ctxt = '<condition> %s </condition>' % c
            return element_xml_sem(I, items, lt, start, iv, ctxt, cf, extra)
        c, cf, extra = cond(names)
        return element_xml_sem(I, items, lt, start, None, '<condition> %s </condition>' % c, cf, extra)

    def c_inst():
        vs = pick(r.randint(1, 2))
        vals = [r.choice(I.dom[v]) for v in vs]
        xml = '<instantiation><list> %s </list><values> %s </values></instantiation>' % (list_txt(vs), ' '.join(map(str, vals)))
        return xml, [(tuple(sorted(vs)), lambda s, vs=vs, vals=vals: all(s[v] == k for v, k in zip(vs, vals)), 'inst')]

    def c_group():
        k = r.randrange(4)
        nargs = r.randint(1, 3)
        if k == 0:
            arglists = [pick(2, distinct=r.random() < 0.9) for _ in range(nargs)]
            sub = {'%0': [al[0] for al in arglists], '%1': [al[1] for al in arglists]}
            e = bounded_bool(['%0', '%1'], r.randint(1, 2), sub)
            while len(extract(e[0], ['%0', '%1'])) < 2:
                e = bounded_bool(['%0', '%1'], r.randint(1, 2), sub)
            sem = []
            for al in arglists:
                mp = {'%0': al[0], '%1': al[1]}
                sem.append((tuple(sorted(set(al))), safe(lambda s, mp=mp, f=e[1]: f({q: s[w] for q, w in mp.items()})), 'grp'))
            xml = '<group><intension> %s </intension>%s</group>' % (e[0], ''.join('<args> %s </args>' % ' '.join(al) for al in arglists))
            return xml, sem
        if k == 1:
            arglists = [pick(2) for _ in range(nargs)]
            dd = [sorted(set(v for al in arglists for v in I.dom[al[i]])) for i in range(2)]
            xml0, sem0 = c_extension(['%0', '%1'], '%0 %1', dd)
            pred0 = sem0[0][1]
            sem = [(tuple(sorted(set(al))), lambda s, al=al, p0=pred0: p0({'%0': s[al[0]], '%1': s[al[1]]}), 'grpext') for al in arglists]
            return '<group>%s%s</group>' % (xml0, ''.join('<args> %s </args>' % ' '.join(al) for al in arglists)), sem
        if k == 2:
            arglists = [pick(r.randint(2, 3)) for _ in range(nargs)]
            sem = [ad_sem(al, None) for al in arglists]
            return '<group><allDifferent> %... </allDifferent>' + ''.join('<args> %s </args>' % ' '.join(al) for al in arglists) + '</group>', sem
        # group of sums with %... and a constant argument in the condition
        arglists = [pick(r.randint(2, 3)) for _ in range(nargs)]
        k2 = r.randint(0, 6)
        xml = '<group><sum><list> %... </list><condition> (le,' + str(k2) + ') </condition></sum>' + \
            ''.join('<args> %s </args>' % ' '.join(al) for al in arglists) + '</group>'
        sem = [(tuple(sorted(set(al))), lambda s, al=al, k2=k2: sum(s[v] for v in al) <= k2, 'grpsum') for al in arglists]
        return xml, sem

    def c_slide():
        if len(xs) < 2:
            return c_intension()
        circ = r.random() < 0.3
        off = r.choice([1, 1, 2]) if not circ else 1
        ar = 2 if len(xs) < 3 else r.choice([2, 2, 3])
        ph = ['%%%d' % i for i in range(ar)]
        sub = {p: xs for p in ph}
        e = bounded_bool(ph, r.randint(1, 2), sub)
        while len(extract(e[0], ph)) < ar:
            e = bounded_bool(ph, r.randint(1, 2), sub)
        n = len(xs)
        windows = []
        i = 0
        while True:
            if circ:
                if i >= n:
                    break
                windows.append([xs[(i + j) % n] for j in range(ar)])
            else:
                if i + ar > n:
                    break
                windows.append([xs[i + j] for j in range(ar)])
            i += off
        sem = []
        for w in windows:
            mp = dict(zip(ph, w))
            sem.append((tuple(sorted(set(w))), safe(lambda s, mp=mp, f=e[1]: f({q: s[v] for q, v in mp.items()})), 'slide'))
        xml = '<slide%s><list%s> %s </list><intension> %s </intension></slide>' % (
            ' circular="true"' if circ else '', ' offset="%d"' % off if off != 1 else '', 'x[]', e[0])
        return xml, sem

    kinds = [c_intension, c_extension, c_alldiff, c_sum, c_element, c_inst, c_group, c_slide]
    weights = [4, 3, 2, 3, 2, 1, 2, 1]
    nc = r.choice([1, 1, 2, 2, 3, 4, 5])
    block = []
    for _ in range(nc):
        f = r.choices(kinds, weights)[0]
        xml, sem = f()
        if r.random() < 0.1:
            block.append((xml, sem))
            continue
        add(xml, sem)
    if block:
        add('<block class="random">\n  %s\n</block>' % '\n  '.join(b[0] for b in block), [s for b in block for s in b[1]])
    I.text = I.xml()
    return I


CMP = {'lt': lambda a, b: a < b, 'le': lambda a, b: a <= b, 'gt': lambda a, b: a > b,
       'ge': lambda a, b: a >= b, 'eq': lambda a, b: a == b, 'ne': lambda a, b: a != b}


def ad_sem(vs, exc):
    ex = frozenset(exc or [])

    def p(s, vs=vs):
        vals = [s[v] for v in vs if s[v] not in ex]
        return len(vals) == len(set(vals))
    return (tuple(sorted(set(vs))), p, 'alldiff')


def sum_sem(vs, cc, cf, extra):
    def p(s, vs=vs, cc=cc, cf=cf):
        return cf(s, sum(c * s[v] for c, v in zip(cc, vs)))
    return (tuple(sorted(set(vs) | set(extra))), p, 'sum')


def element_xml_sem(I, items, lt, start, iv, ctxt, cf, extra):
    """`<element>` over `items` (variable names or integer texts), written `lt`, with the
    index variable `iv` (None: some item satisfies the condition)."""
    sem_items = [(lambda s, t=t: s[t]) if t in I.dom else (lambda s, c=int(t): c) for t in items]
    L = [t for t in items if t in I.dom]
    attr = ' startIndex="%d"' % start if start else ''
    if iv is not None:
        xml = '<element><list%s> %s </list><index> %s </index>%s</element>' % (attr, lt, iv, ctxt)

        def p(s, iv=iv, it=sem_items, cf=cf, start=start):
            i = s[iv] - start
            if not (0 <= i < len(it)):
                return False
            return cf(s, it[i](s))
        sc = set(L) | {iv} | set(extra)
        return xml, [(tuple(sorted(sc)), p, 'element')]
    xml = '<element><list%s> %s </list>%s</element>' % (attr, lt, ctxt)
    return xml, [(tuple(sorted(set(L) | set(extra))), lambda s, it=sem_items, cf=cf: any(cf(s, g(s)) for g in it), 'element-noindex')]


# ---------- the edge mode ----------

# Clusters of 32-bit values a domain is drawn from: a few values each, so that products of two
# or three of them pass 64 bits while a domain spans far less than csp's 2^26 limit.
EDGE_CLUSTERS = [
    (I32_MAX - 3, I32_MAX), (I32_MIN, I32_MIN + 3), (-I32_MAX, -I32_MAX + 2),
    (2**30 - 2, 2**30 + 1), (-2**30 - 1, -2**30 + 1), (46339, 46342), (65535, 65537),
    (-65537, -65535), (-2, 2), (0, 3),
]
# 64-bit constants and coefficients.
EDGE_CONSTS = [I64_MAX, I64_MIN, I64_MIN + 1, 2**62, -2**62, 2**62 - 1, 2**32, -2**32, 2**31,
               I32_MIN, I32_MAX, 3037000499, 3037000500, 4294967295, 1, -1, 2, 0]


def gen_edge_domain(r):
    lo, hi = r.choice(EDGE_CLUSTERS)
    vals = list(range(lo, hi + 1))
    return sorted(r.sample(vals, r.randint(1, min(4, len(vals)))))


def gen_big_edge_domain(r):
    """65 to 200 values (more than one 64-bit word, more than 128 distinct table values)
    against an edge of 32 bits, some missing."""
    k = r.randint(65, 200)
    lo = r.choice([I32_MAX - k + 1, I32_MIN, -I32_MAX, 2**30 - k // 2, -k // 2])
    vals = list(range(lo, lo + k))
    return sorted(r.sample(vals, k - r.randint(0, k // 5)))


def wrap(v, bits):
    """v as a two's-complement integer of `bits` bits would wrap it: constants that a
    computation wrapping at 32 or 64 bits would wrongly match."""
    m = 1 << bits
    return (v + m // 2) % m - m // 2


def split_const(p):
    """An expression of the integer p: a constant when p fits 64 bits, else
    add(mul(q, 2^62), r) (|p| < 2^125)."""
    if I64_MIN <= p <= I64_MAX:
        return leaf_const(p)
    q, rem = divmod(p, 2**62)
    return call('add', [call('mul', [leaf_const(q), leaf_const(2**62)]), leaf_const(rem)])


def gen_edge(seed):
    """The `edge` mode: a few variables over a few 32-bit values at the edges, constraints
    whose values leave 64 bits but stay within 128 (or, one seed in 25, leave 128 bits)."""
    r = random.Random(seed)
    I = Inst()
    I.mode = 'edge'
    I.ace_ok = False  # ACE refuses integers past 2^31
    n = r.randint(3, 6)
    same = r.random() < 0.3
    big = r.random() < 0.15  # one domain of 65 to 200 values (then at most 4 variables)
    d0 = gen_edge_domain(r)
    if same:
        I.decl.append('<array id="x" size="[%d]"> %s </array>' % (n, dom_txt(d0, r)))
        for i in range(n):
            I.vars.append(('x[%d]' % i, list(d0)))
    else:
        if big:
            n = min(n, 4)
        I.declare(n, lambda i: gen_big_edge_domain(r) if big and i == 0 else gen_edge_domain(r), r)
    I.dom = dict(I.vars)
    names = [v for v, _ in I.vars]

    def sample():
        return I.sample(r)

    def const():
        if r.random() < 0.6:
            return r.choice(EDGE_CONSTS)
        return r.choice(EDGE_CONSTS) + r.randint(-2, 2) if r.random() < 0.5 else r.randint(-3, 3)

    def fit64(c):
        return max(I64_MIN, min(I64_MAX, c))

    def term(d):
        """An integer expression over the variables with 64-bit constants."""
        if d <= 0 or r.random() < 0.2:
            return leaf_var(r.choice(names)) if r.random() < 0.8 else leaf_const(fit64(const()))
        k = r.randrange(14)
        if k in (0, 1):  # a product of two or three variables
            return call('mul', [leaf_var(v) for v in [r.choice(names) for _ in range(r.choice([2, 2, 3]))]])
        if k == 2:  # a big coefficient times a variable
            args = [leaf_const(fit64(const())), leaf_var(r.choice(names))]
            r.shuffle(args)
            return call('mul', args)
        if k == 3:  # sums of products
            return call('add', [term(d - 1) for _ in range(r.choice([2, 3, 3, 4]))])
        if k == 4:
            return call('sub', [term(d - 1), term(d - 1)])
        if k == 5:
            return call(r.choice(['neg', 'abs', 'sqr']), [term(d - 1)])
        if k == 6:
            return call('pow', [term(d - 1) if r.random() < 0.3 else leaf_var(r.choice(names)),
                                leaf_const(r.choice([0, 1, 2, 3, I64_MAX])) if r.random() < 0.8 else leaf_var(r.choice(names))])
        if k == 7:
            den = term(d - 1) if r.random() < 0.6 else leaf_const(r.choice([I64_MIN, I64_MAX, -1, 2**32, 0, 3]))
            return call(r.choice(['div', 'mod']), [term(d - 1), den])
        if k == 8:
            return call(r.choice(['min', 'max']), [term(d - 1) for _ in range(r.choice([2, 3]))])
        if k == 9:
            return call('dist', [term(d - 1), term(d - 1)])
        if k == 10:
            return call('if', [pred(d - 1), term(d - 1), term(d - 1)])
        if k == 11:
            return call('mul', [leaf_var(r.choice(names)), leaf_const(fit64(const())), leaf_var(r.choice(names))])
        return leaf_var(r.choice(names))

    def pivot(e):
        """A constant near a value e takes (found on a random assignment), or another term."""
        for _ in range(4):
            try:
                p = e.fn(sample())
            except (Undef, TooBig):
                continue
            if abs(p) > I64_MAX and r.random() < 0.3:
                return leaf_const(wrap(p, 64))  # what a wrapping 64-bit sum would match
            p += r.choice([-1, 0, 0, 1])
            if abs(p) < 2**124:
                return split_const(p)
        return term(1)

    def pred(d):
        k = r.randrange(8) if d > 0 else 0
        if k in (0, 1, 2, 3):
            e = term(d)
            return call(r.choice(['lt', 'le', 'gt', 'ge', 'eq', 'ne']), [e, pivot(e)] if r.random() < 0.8 else [e, term(d)])
        if k == 4:
            e = term(d)
            vals = []
            for _ in range(r.randint(1, 3)):
                p = pivot(e)
                if p.t[0] == 'c':
                    vals.append(p.t[1])
            if not vals:
                vals = [fit64(const())]
            return set_test(r.choice(['in', 'notin']), e, sorted(set(vals)))
        if k == 5:
            return call(r.choice(['and', 'or', 'imp']), [pred(d - 1), pred(d - 1)])
        if k == 6:
            return call('not', [pred(d - 1)])
        return call(r.choice(['xor', 'iff']), [pred(d - 1), pred(d - 1)])

    def c_intension():
        while True:
            e = pred(r.randint(1, 3))
            if fits(I, e):
                break
        sc = tuple(sorted(set(extract(e.txt, names))))
        return '<intension> %s </intension>' % e.txt, [(sc, safe(e.fn), e.txt)]

    def c_binary():
        # x - y past 32 bits, views with 64-bit offsets: csp's binary relations
        x, y = r.sample(names, 2)
        diff = r.choice(I.dom[x]) - r.choice(I.dom[y]) + r.choice([-1, 0, 0, 1])
        c = r.choice([diff, diff, wrap(diff, 32), fit64(const())])
        k = r.randrange(7)
        if k == 0:
            e = call('eq', [leaf_var(x), call('add', [leaf_var(y), leaf_const(c)])])
        elif k == 1:
            e = call('ne', [leaf_var(x), call('add', [leaf_var(y), leaf_const(c)])])
        elif k == 2:
            e = call(r.choice(['lt', 'le', 'gt', 'ge']), [leaf_var(x), call('add', [leaf_var(y), leaf_const(c)])])
        elif k == 3:
            e = call('ne', [call('dist', [leaf_var(x), leaf_var(y)]), leaf_const(abs(c) if abs(c) <= I64_MAX else 0)])
        elif k == 4:
            e = call(r.choice(['eq', 'ne', 'lt', 'ge']), [call('sub', [leaf_var(x), leaf_var(y)]), leaf_const(c)])
        elif k == 5:
            e = set_test(r.choice(['in', 'notin']), call('sub', [leaf_var(x), leaf_var(y)]),
                         sorted(set([c, fit64(diff + 1), fit64(const())])))
        else:
            e = call('ne', [call('abs', [call('sub', [leaf_var(x), leaf_var(y)])]), leaf_const(abs(c) if abs(c) <= I64_MAX else 1)])
        return '<intension> %s </intension>' % e.txt, [(tuple(sorted({x, y})), safe(e.fn), e.txt)]

    def c_sum():
        m = r.randint(1, 6)
        # four distinct variables or more: the linear propagator rather than a table
        vs = r.sample(names, min(m, len(names))) if r.random() < 0.6 else [r.choice(names) for _ in range(m)]
        m = len(vs)
        if r.random() < 0.3 and m >= 2:  # coefficients that cancel: big partial sums, small total
            c = fit64(const())
            cc = [c, -c] + [fit64(const()) for _ in range(m - 2)]
            cc = [fit64(v) for v in cc]
        else:
            cc = [fit64(const()) for _ in range(m)]
        # variables as coefficients: sums of products of two 32-bit values
        cvars = [r.choice(names) for _ in range(m)] if r.random() < 0.15 else None

        def total(s):
            if cvars:
                return sum(s[c] * s[v] for c, v in zip(cvars, vs))
            return sum(c * s[v] for c, v in zip(cc, vs))
        near = [p + r.choice([-1, 0, 1]) for p in (total(sample()) for _ in range(4))]
        near = [wrap(p, 64) if r.random() < 0.3 else p for p in near]
        near = [p for p in near if I64_MIN <= p <= I64_MAX]
        op = r.choice(['lt', 'le', 'gt', 'ge', 'eq', 'ne', 'eq', 'in', 'notin'])
        extra = []
        if op in ('in', 'notin'):
            pool = near + [fit64(const())]
            if r.random() < 0.5:
                lo, hi = sorted(r.sample(pool, 2)) if len(pool) >= 2 else (pool[0], pool[0])
                txt = '(%s,%d..%d)' % (op, lo, hi)
                f = (lambda v, lo=lo, hi=hi: lo <= v <= hi) if op == 'in' else (lambda v, lo=lo, hi=hi: not (lo <= v <= hi))
            else:
                vals = sorted(set(r.sample(pool, min(len(pool), r.randint(1, 3)))))
                txt = '(%s,{%s})' % (op, ','.join(map(str, vals)))
                vals = frozenset(vals)
                f = (lambda v, vals=vals: v in vals) if op == 'in' else (lambda v, vals=vals: v not in vals)
            cf = (lambda s, v, f=f: f(v))
        elif r.random() < 0.2:
            w = r.choice(names)
            txt = '(%s,%s)' % (op, w)
            cf = (lambda s, v, w=w, g=CMP[op]: g(v, s[w]))
            extra = [w]
        else:
            k = r.choice(near) if near else fit64(const())
            txt = '(%s,%d)' % (op, k)
            cf = (lambda s, v, k=k, g=CMP[op]: g(v, k))
        xml = '<sum><list> %s </list><coeffs> %s </coeffs><condition> %s </condition></sum>' % (
            ' '.join(vs), ' '.join(cvars or map(str, cc)), txt)
        if cvars:
            return xml, [(tuple(sorted(set(vs) | set(cvars) | set(extra))), lambda s, cf=cf: cf(s, total(s)), 'sum')]
        return xml, [sum_sem(vs, cc, cf, extra)]

    def c_element():
        L = r.sample(names, r.randint(1, len(names) - 1))
        items = list(L)
        for _ in range(r.randint(0, 2)):
            items.insert(r.randrange(len(items) + 1), str(fit64(const())))
        iv = r.choice([v for v in names if v not in L])
        lo = min(I.dom[iv])
        # mostly a start that maps some index values into the list, sometimes one at the edges
        start = fit64(lo - r.randint(-1, len(items) - 1) if r.random() < 0.8 else const())
        values = [r.choice(I.dom[t]) if t in I.dom else int(t) for t in items]
        at = [a - start for a in I.dom[iv] if 0 <= a - start < len(items)]
        rhs = values[r.choice(at)] if at and r.random() < 0.8 else r.choice(values)
        rhs += r.choice([0, 0, 0, 1])
        k = r.randrange(3)
        if k == 0 and -2**63 <= rhs <= I64_MAX:
            ctxt, cf, extra = '<value> %d </value>' % rhs, (lambda s, v, k=rhs: v == k), []
        elif k == 1 and any(set(I.dom[w]) & set(values) for w in names if w != iv):
            # a value variable that some item can equal
            w = r.choice([w for w in names if w != iv and set(I.dom[w]) & set(values)])
            ctxt, cf, extra = '<value> %s </value>' % w, (lambda s, v, w=w: v == s[w]), [w]
        else:
            op = r.choice(['lt', 'le', 'gt', 'ge', 'ne', 'eq'])
            k2 = fit64(rhs)
            ctxt, cf, extra = '<condition> (%s,%d) </condition>' % (op, k2), (lambda s, v, k=k2, g=CMP[op]: g(v, k)), []
        return element_xml_sem(I, items, ' '.join(items), start, iv if r.random() < 0.85 else None, ctxt, cf, extra)

    def c_table():
        ar = r.choice([1, 2, 2, 3])
        vs = r.sample(names, ar)
        pool = [sorted(set(I.dom[v] + [r.choice([I32_MIN, I32_MAX, min(I.dom[v]) - 1, max(I.dom[v]) + 1])]))
                for v in vs]
        pool = [[a for a in p if I32_MIN <= a <= I32_MAX] for p in pool]
        supports = r.random() < 0.6
        star = ar > 1 and r.random() < 0.3
        tuples = set()
        many = any(len(I.dom[v]) > 64 for v in vs)  # then past 128 distinct values in a column
        for _ in range(r.randint(0, 200 if many else 6)):
            tuples.add(tuple('*' if (star and r.random() < 0.25) else r.choice(pool[i]) for i in range(ar)))
        tuples = sorted(tuples, key=lambda t: tuple(-2**40 if c == '*' else c for c in t))
        if ar == 1:
            body = dom_txt([t[0] for t in tuples], r)
        else:
            body = ''.join('(%s)' % ','.join(map(str, t)) for t in tuples)
        tag = 'supports' if supports else 'conflicts'
        xml = '<extension><list> %s </list><%s> %s </%s></extension>' % (' '.join(vs), tag, body, tag)

        exact = frozenset(t for t in tuples if '*' not in t)
        starred = [t for t in tuples if '*' in t]

        def p(s, vs=vs, exact=exact, starred=starred, supports=supports):
            a = tuple(s[v] for v in vs)
            m = a in exact or any(all(c == '*' or c == a[i] for i, c in enumerate(t)) for t in starred)
            return m == supports
        return xml, [(tuple(sorted(vs)), p, 'ext')]

    def c_alldiff():
        vs = r.sample(names, r.randint(2, len(names)))
        exprs, offs = [], []
        for v in vs:
            k = r.randrange(4)
            if k == 0:
                c = 0
            elif k == 1:  # onto another variable's values: offsets past 32 bits
                w = r.choice(names)
                c = r.choice(I.dom[w]) - r.choice(I.dom[v])
            elif k == 2:
                c = r.randint(-2, 2)
            else:
                c = fit64(const() - r.choice(I.dom[v]))
            exprs.append(v if c == 0 else ('add(%s,%d)' % (v, c) if r.random() < 0.7 or c == I64_MIN else 'sub(%s,%d)' % (v, -c)))
            offs.append(c)
        exc = sorted(set(r.choice(I.dom[v]) + o for v, o in zip(vs, offs))) if r.random() < 0.2 else []
        exc = [fit64(e) for e in exc[:2]]
        if exc:
            xml = '<allDifferent><list> %s </list><except> %s </except></allDifferent>' % (' '.join(exprs), ' '.join(map(str, exc)))
        else:
            xml = '<allDifferent> %s </allDifferent>' % ' '.join(exprs)
        ex = frozenset(exc)

        def p(s, vs=vs, offs=offs):
            vals = [s[v] + o for v, o in zip(vs, offs)]
            vals = [a for a in vals if a not in ex]
            return len(vals) == len(set(vals))
        return xml, [(tuple(sorted(set(vs))), p, 'adexpr')]

    def c_group():
        # one template over several argument lists: `cmp(mul(%0,%1), K)` and the like
        nargs = r.randint(1, 3)
        arglists = [r.sample(names, 2) for _ in range(nargs)]
        sub = {'%0': [a[0] for a in arglists], '%1': [a[1] for a in arglists]}
        while True:
            lhs = call(r.choice(['mul', 'add', 'sub', 'dist']), [leaf_var('%0'), leaf_var('%1')])
            al = r.choice(arglists)
            a0, a1 = r.choice(I.dom[al[0]]), r.choice(I.dom[al[1]])
            near = lhs.fn({'%0': a0, '%1': a1}) + r.choice([-1, 0, 1])
            if r.random() < 0.5 and a0 != 0:
                # k * %0 near the left side
                rhs = call('mul', [leaf_const(fit64(near // a0 if r.random() < 0.8 else const())), leaf_var('%0')])
            else:
                rhs = leaf_const(fit64(near if r.random() < 0.8 else const()))
            e = call(r.choice(['lt', 'le', 'gt', 'ge', 'ne', 'eq']), [lhs, rhs])
            if fits(I, e, sub):
                break
        sem = []
        for al in arglists:
            mp = {'%0': al[0], '%1': al[1]}
            sem.append((tuple(sorted(set(al))), safe(lambda s, mp=mp, f=e.fn: f({q: s[w] for q, w in mp.items()})), 'grp'))
        xml = '<group><intension> %s </intension>%s</group>' % (e.txt, ''.join('<args> %s </args>' % ' '.join(al) for al in arglists))
        return xml, sem

    def c_inst():
        v = r.choice(names)
        a = r.choice(I.dom[v])
        return ('<instantiation><list> %s </list><values> %d </values></instantiation>' % (v, a),
                [((v,), lambda s, v=v, a=a: s[v] == a, 'inst')])

    def compare(lhs):
        """`cmp(lhs, K)` or `in(lhs, set(...))` with K near the values lhs takes."""
        if r.random() < 0.25:
            vals = []
            for _ in range(r.randint(1, 3)):
                p = pivot(lhs)
                if p.t[0] == 'c':
                    vals.append(p.t[1])
            if vals:
                return set_test(r.choice(['in', 'notin']), lhs, sorted(set(vals)))
        return call(r.choice(['lt', 'le', 'gt', 'ge', 'eq', 'ne']), [lhs, pivot(lhs)])

    def c_linear():
        # a linear intension over three to six distinct variables, 64-bit coefficients
        vs = r.sample(names, r.randint(min(3, len(names)), len(names)))
        parts = []
        for v in vs:
            k = r.randrange(4)
            if k == 0:
                parts.append(leaf_var(v))
            elif k == 1:
                parts.append(call('neg', [leaf_var(v)]))
            else:
                c = [leaf_const(fit64(const())), leaf_var(v)]
                r.shuffle(c)
                parts.append(call('mul', c))
        if r.random() < 0.3:
            parts.append(leaf_const(fit64(const())))
        e = compare(call('add', parts))
        return '<intension> %s </intension>' % e.txt, [(tuple(sorted(set(vs))), safe(e.fn), e.txt)]

    def c_separable():
        # a comparison of a sum of functions of one variable each
        vs = r.sample(names, r.randint(min(3, len(names)), len(names)))
        parts = []
        for v in vs:
            x = leaf_var(v)
            a = r.choice(I.dom[v])
            k = r.randrange(10)
            if k == 0:
                parts.append(call('sqr', [x]))
            elif k == 1:
                parts.append(call('abs', [x]))
            elif k == 2:
                parts.append(call('mul', [leaf_const(fit64(const())), x]))
            elif k == 3:
                parts.append(call(r.choice(['ge', 'le', 'eq', 'ne']), [x, leaf_const(a)]))
            elif k == 4:
                parts.append(call('pow', [x, leaf_const(r.choice([2, 3]))]))
            elif k == 5:
                parts.append(call('dist', [x, leaf_const(fit64(const()))]))
            elif k == 6:
                parts.append(call('mul', [x, x]))
            elif k == 7:
                parts.append(call('if', [call('ge', [x, leaf_const(a)]), leaf_const(fit64(const())), leaf_const(fit64(const()))]))
            elif k == 8:
                parts.append(call(r.choice(['div', 'mod']), [x, leaf_const(r.choice([a, 3, -2, 2**32, I64_MIN]))]))
            else:
                parts.append(x)
        while True:
            e = compare(call('add', parts))
            if fits(I, e):
                break
        return '<intension> %s </intension>' % e.txt, [(tuple(sorted(set(vs))), safe(e.fn), e.txt)]

    kinds = [c_intension, c_binary, c_sum, c_element, c_table, c_alldiff, c_group, c_inst, c_linear, c_separable]
    weights = [6, 3, 4, 2, 2, 2, 1, 1, 3, 3]
    for _ in range(r.choice([1, 1, 2, 2, 3])):
        xml, sem = r.choices(kinds, weights)[0]()
        I.cons.append(xml)
        I.sem.extend(sem)
    if seed % 25 == 24:
        I.expect = 'refused'
        I.cons.append(past_128_bits(r, I, names))
    I.text = I.xml()
    return I


# ---------- the globals mode ----------

# The kinds of constraint of the globals mode, drawn with these weights; those in OWN_VARIABLES
# declare variables of their own (origins, lengths, bins, successors...), within GLOBALS_SPACE.
GLOBAL_KINDS = ['all_equal', 'count', 'min_max', 'n_values', 'ordered', 'lex', 'cardinality',
                'cumulative', 'bin_packing', 'knapsack', 'sum', 'element', 'no_overlap',
                'count_var', 'n_values_except', 'all_different_except', 'cardinality_occurs',
                'extremum_index', 'channel', 'circuit', 'regular', 'mdd']
GLOBAL_WEIGHTS = [2, 2, 2, 2, 2, 2, 2,
                  6, 6, 2, 2, 3, 3,
                  1, 1, 1, 2,
                  2, 2, 2, 2, 1]
OWN_VARIABLES = {'cumulative', 'bin_packing', 'knapsack', 'no_overlap', 'channel', 'circuit',
                 'regular', 'mdd'}
# The most assignments a kind that declares variables may bring an instance to, counting the
# variables no others determine (ends and loads, checked as soon as they are assigned, aside):
# the brute force stays small, typically far below it.
GLOBALS_SPACE = 20000


def gen_globals(seed):
    """The `globals` mode: XCSP3-core global constraints over small domains or a few values at
    the edges of 32 bits, with conditions and lengths at the edges of 64 bits: allEqual, count
    (values integers or a variable), minimum and maximum (with an index and its rank), nValues
    (with except), ordered with and without lengths, lex, cardinality (occurrences integers,
    variables or intervals; values integers or variables), allDifferent with except, sum with
    coefficients (integers or variables), element (an index, a value, no index, a matrix),
    cumulative, binPacking (<condition>, <loads>, <limits>, <conditions>), knapsack, noOverlap
    (one dimension and boxes, zeroIgnored), channel (its three forms), circuit, regular, mdd.
    Every condition takes each operator of XCSP3 (lt le ge gt eq ne, a variable operand, in and
    notin with a set or a range).

    The semantics, from the XCSP3-core specification:
    - cumulative(O, L, H, cond): at every integer time t, the sum of the heights of the tasks
      with o_i <= t < o_i + l_i satisfies cond; evaluated by sweeping t over every time from
      one before the first origin to the last end (a time without any task included, where
      the load is 0: ge, gt, eq and the like then fail unless 0 passes); <ends>: e_i = o_i + l_i;
    - binPacking(X, S, cond): for every value b of the union of the items' domains (a value no
      domain holds is no bin), the sizes of the items placed in b add up to a load satisfying
      cond; with <loads>, <limits> or <conditions>, the bins are the list's startIndex (0 by
      default) and the next ones, one per load, limit or condition, and an item outside them
      is a violation; bin j's load equals loads[j], is at most limits[j], satisfies
      conditions[j];
    - knapsack: sum(weights * items) satisfies the first condition, sum(profits * items) the
      second;
    - noOverlap: every two tasks (boxes) are apart, o_i + l_i <= o_j or o_j + l_j <= o_i (in some
      dimension); zeroIgnored (the default): a task (box) with a length 0 (in some dimension) is
      apart from every other;
    - channel: one list, x_i = j + start <=> x_j = i + start (values within the indices); two lists
      of one length, x_i = j + start_y <=> y_j = i + start_x; a 0/1 list and a value v, x_i = 1
      <=> v = i + start (v within the indices);
    - circuit: a successor out of the indices is a violation; x_i = i + start leaves i off the
      circuit; the other vertices form exactly one cycle, of two vertices or more; <size>: the
      number of vertices on it;
    - regular: some run of the automaton (deterministic or not) over the values ends in a final
      state; mdd: the values label a path from the root to the terminal;
    - element: list[index - start] satisfies the condition (an index out of the list: a
      violation), without an index some item does; minimum/maximum with an index: the item at
      the index is the extremum (rank first: no earlier item is, last: no later one), and the
      extremum satisfies the condition."""
    r = random.Random(seed)
    I = Inst()
    I.mode = 'globals'
    I.ace_ok = False
    edge = r.random() < 0.4
    picks = r.choices(GLOBAL_KINDS, GLOBAL_WEIGHTS, k=r.choice([1, 1, 2, 2, 3]))
    # fewer shared variables when some kind declares its own
    own = any(k in OWN_VARIABLES for k in picks)
    names = I.declare(r.randint(2, 3) if own else r.randint(3, 6),
                      lambda i: gen_edge_domain(r) if edge and r.random() < 0.8 else gen_domain(r), r)
    determined = set()  # variables others determine (ends, loads): the budget leaves them out

    def sample():
        return I.sample(r)

    def near(values):
        """An integer near one of `values` (within 64 bits), or at the edges of 64 bits."""
        if values and r.random() < 0.85:
            return max(I64_MIN, min(I64_MAX, r.choice(values) + r.choice([-1, 0, 0, 1])))
        return r.choice([I64_MAX, I64_MIN, 0, 2**31, I32_MIN])

    def cond_test(seen, rhs_names):
        """A condition `(op,operand)` on values near `seen`: its text, its test(value,
        assignment) and the variables of its operand."""
        op = r.choice(['lt', 'le', 'gt', 'ge', 'eq', 'ne', 'eq', 'in', 'notin'])
        if op in ('in', 'notin'):
            if r.random() < 0.5:
                lo, hi = sorted([near(seen), near(seen)])
                txt = '(%s,%d..%d)' % (op, lo, hi)
                inside = (lambda v, lo=lo, hi=hi: lo <= v <= hi)
            else:
                vals = frozenset(near(seen) for _ in range(r.randint(1, 3)))
                txt = '(%s,{%s})' % (op, ','.join(map(str, sorted(vals))))
                inside = (lambda v, vals=vals: v in vals)
            return txt, (lambda v, s: inside(v) == (op == 'in')), []
        if rhs_names and r.random() < 0.3:
            w = r.choice(rhs_names)
            return '(%s,%s)' % (op, w), (lambda v, s, w=w: CMP[op](v, s[w])), [w]
        k = near(seen)
        return '(%s,%d)' % (op, k), (lambda v, s, k=k: CMP[op](v, k)), []

    def condition(f, rhs_names):
        """A `<condition>` on f(assignment), with its predicate: an operand near values f takes."""
        seen = [f(sample()) for _ in range(4)]
        txt, test, extra = cond_test(seen, rhs_names)
        return txt, (lambda s: test(f(s), s)), extra

    def some(k=2):
        return r.sample(names, r.randint(k, len(names)))

    def values_of(vs, k):
        # 32-bit values: csp refuses larger ones where they are compared with values
        pool = sorted(set(a for v in vs for a in I.dom[v]))
        return sorted(set(min(I32_MAX, r.choice(pool) + r.choice([0, 0, 0, 1])) for _ in range(r.randint(1, k))))

    def c_all_equal():
        vs = some()
        return ('<allEqual><list> %s </list></allEqual>' % ' '.join(vs),
                [(tuple(sorted(vs)), lambda s, vs=vs: len(set(s[v] for v in vs)) == 1)])

    def c_count():
        vs = some()
        vals = values_of(vs, 2)
        f = (lambda s, vs=vs, vals=frozenset(vals): sum(1 for v in vs if s[v] in vals))
        txt, p, extra = condition(f, [w for w in names if w not in vs])
        return ('<count><list> %s </list><values> %s </values><condition> %s </condition></count>'
                % (' '.join(vs), ' '.join(map(str, vals)), txt), [(tuple(sorted(set(vs) | set(extra))), p)])

    def c_min_max():
        vs = some(1)
        tag = r.choice(['minimum', 'maximum'])
        f = (lambda s, vs=vs: min(s[v] for v in vs)) if tag == 'minimum' else (lambda s, vs=vs: max(s[v] for v in vs))
        txt, p, extra = condition(f, names)
        return ('<%s><list> %s </list><condition> %s </condition></%s>' % (tag, ' '.join(vs), txt, tag),
                [(tuple(sorted(set(vs) | set(extra))), p)])

    def c_n_values():
        vs = some()
        f = (lambda s, vs=vs: len(set(s[v] for v in vs)))
        txt, p, extra = condition(f, [w for w in names if w not in vs])
        return ('<nValues><list> %s </list><condition> %s </condition></nValues>' % (' '.join(vs), txt),
                [(tuple(sorted(set(vs) | set(extra))), p)])

    def c_ordered():
        vs = some()
        op = r.choice(['lt', 'le', 'gt', 'ge'])
        if r.random() < 0.5:
            # lengths that bring the next value near, within 32 bits (csp refuses larger ones,
            # docs/constraints.md), at its edges when the values are far apart
            lengths = [r.choice(I.dom[b]) - r.choice(I.dom[a]) + r.choice([-1, 0, 1]) if r.random() < 0.8
                       else r.choice([I32_MAX, I32_MIN, 0, 1]) for a, b in zip(vs, vs[1:])]
            lengths = [max(I32_MIN, min(I32_MAX, x)) for x in lengths]
            xml = '<ordered><list> %s </list><lengths> %s </lengths><operator> %s </operator></ordered>' % (
                ' '.join(vs), ' '.join(map(str, lengths)), op)
        else:
            lengths = [0] * (len(vs) - 1)
            xml = '<ordered><list> %s </list><operator> %s </operator></ordered>' % (' '.join(vs), op)

        def p(s, vs=vs, lengths=lengths, g=CMP[op]):
            return all(g(s[a] + k, s[b]) for a, b, k in zip(vs, vs[1:], lengths))
        return xml, [(tuple(sorted(vs)), p)]

    def c_lex():
        k = r.randint(1, max(1, len(names) // 2))
        a, b = r.sample(names, k), r.sample(names, k)
        op = r.choice(['lt', 'le', 'gt', 'ge'])

        def p(s, a=a, b=b, g=CMP[op]):
            return g(tuple(s[v] for v in a), tuple(s[v] for v in b))
        return ('<lex><list> %s </list><list> %s </list><operator> %s </operator></lex>' % (' '.join(a), ' '.join(b), op),
                [(tuple(sorted(set(a) | set(b))), p)])

    def c_cardinality():
        vs = some()
        vals = values_of(vs, 3)
        occ = []
        for _ in vals:
            if r.random() < 0.3:
                occ.append(r.choice(names))
            else:
                occ.append(r.randint(0, min(2, len(vs))))
        closed = r.random() < 0.3

        def p(s, vs=vs, vals=vals, occ=occ, closed=closed):
            if closed and any(s[v] not in vals for v in vs):
                return False
            return all(sum(1 for v in vs if s[v] == a) == (s[o] if isinstance(o, str) else o) for a, o in zip(vals, occ))
        xml = '<cardinality><list> %s </list><values%s> %s </values><occurs> %s </occurs></cardinality>' % (
            ' '.join(vs), ' closed="true"' if closed else '', ' '.join(map(str, vals)), ' '.join(map(str, occ)))
        return xml, [(tuple(sorted(set(vs) | {o for o in occ if isinstance(o, str)})), p)]

    # ----- the kinds that declare variables of their own, and their helpers -----

    def free_space():
        """The assignments of the variables no others determine."""
        n = 1
        for v, d in I.vars:
            if v not in determined:
                n *= len(d)
        return n

    def per_variable(m):
        """The most values each of m new variables may have within GLOBALS_SPACE."""
        return max(1, int((GLOBALS_SPACE / free_space()) ** (1.0 / max(1, m))))

    def fresh(values, det=False):
        """A new variable over `values` (det: one that others determine)."""
        name = 'v%d' % len(I.vars)
        values = sorted(set(values))
        I.decl.append('<var id="%s"> %s </var>' % (name, dom_txt(values, r)))
        I.vars.append((name, values))
        I.dom[name] = values
        if det:
            determined.add(name)
        return name

    def some_of(pool, k):
        """Between min(2, k) and k values of `pool` (one at least)."""
        pool = sorted(set(pool))
        k = max(1, min(k, len(pool)))
        return sorted(r.sample(pool, r.randint(min(2, k), k)))

    def window(width):
        """`width` consecutive times from a small origin, some negative; one time in 12 at an
        edge of 32 bits (ends then pass it)."""
        if r.random() < 0.08:
            base = r.choice([I32_MAX - width + 1, I32_MIN, -2**30 - 1])
        else:
            base = r.randint(-4, 2)
        return list(range(base, base + width))

    def val(x, s):
        """An item: a variable's value or an integer."""
        return s[x] if isinstance(x, str) else x

    def var_items(*lists):
        return {x for lst in lists for x in lst if isinstance(x, str)}

    def text(items):
        return ' '.join(map(str, items))

    def c_cumulative():
        n = r.randint(2, 5)
        var_len, var_h = r.random() < 0.5, r.random() < 0.5
        per = per_variable(n * (1 + var_len + var_h))
        times = window(r.randint(3, 6))
        origins = []
        for _ in range(n):
            if origins and r.random() < 0.08:
                origins.append(r.choice(origins))  # two tasks on one origin variable
            else:
                origins.append(fresh(some_of(times, per)))

        def amounts(var):
            # lengths and heights: 0 included; variables or integers
            if var:
                return [fresh(some_of(range(0, r.choice([2, 3, 4])), per)) for _ in range(n)]
            return [r.choice([0, 1, 1, 2, 2, 3]) for _ in range(n)]
        lengths = amounts(var_len)
        heights = amounts(var_h)

        def profile(s, origins=origins, lengths=lengths, heights=heights):
            """The load at every time from one before the first origin to the last end."""
            o = [s[x] for x in origins]
            ln = [val(x, s) for x in lengths]
            h = [val(x, s) for x in heights]
            last = max(a + b for a, b in zip(o, ln))
            return [sum(c for a, b, c in zip(o, ln, h) if a <= t < a + b) for t in range(min(o) - 1, last + 1)]
        def load_at_end(s, origins=origins, lengths=lengths, heights=heights):
            """The load when some task ends: no task need start then."""
            o = [s[x] for x in origins]
            ln = [val(x, s) for x in lengths]
            t = r.choice([a + b for a, b in zip(o, ln)])
            return sum(val(c, s) for a, b, c in zip(o, ln, heights) if a <= t < a + b)
        seen = ([r.choice(profile(sample())) for _ in range(3)] + [max(profile(sample()))] +
                [load_at_end(sample()) for _ in range(3)])
        # mostly loads where tasks run: 0 (no task) fails ne, notin, ge... and the constraint
        seen = [a for a in seen if a] + ([0] if r.random() < 0.2 else [])
        txt, test, extra = cond_test(seen, names)
        sem = [(tuple(sorted(set(origins) | var_items(lengths, heights) | set(extra))),
                lambda s, profile=profile, test=test: all(test(load, s) for load in profile(s)))]
        ends_xml = ''
        if r.random() < 0.3:
            ends = []
            for o, ln in zip(origins, lengths):
                can = sorted(set(a + b for a in I.dom[o] for b in (I.dom[ln] if isinstance(ln, str) else [ln])))
                if len(can) > 1 and r.random() < 0.3:
                    can = some_of(can, len(can) - 1)  # ends that forbid some tasks
                if r.random() < 0.2:
                    can.append(can[-1] + 1)
                can = [e for e in can if I32_MIN <= e <= I32_MAX] or [I32_MAX]
                e = fresh(can, det=True)
                ends.append(e)
                sem.append((tuple(sorted({o, e} | var_items([ln]))),
                            lambda s, o=o, ln=ln, e=e: s[o] + val(ln, s) == s[e]))
            ends_xml = '<ends> %s </ends>' % text(ends)
        xml = '<cumulative><origins> %s </origins><lengths> %s </lengths>%s<heights> %s </heights><condition> %s </condition></cumulative>' % (
            text(origins), text(lengths), ends_xml, text(heights), txt)
        return xml, sem

    def c_bin_packing():
        form = r.choice(['condition', 'condition', 'loads', 'limits', 'conditions'])
        n = r.randint(2, 5)
        sizes = [r.choice([0, 1, 1, 2, 2, 3, 4]) for _ in range(n)]
        if form == 'condition':
            # the bins are the values of the items' domains, with holes between them (few
            # bins: so that conditions that fail on an empty bin can hold)
            pool = r.sample(range(-2, 7), r.randint(2, 4))
            per = per_variable(n)
            items = [fresh(some_of(pool, per)) for _ in range(n)]
            shifts = [0] * n
            shown = list(items)
            if r.random() < 0.05:  # an item given as an expression: its values are its bins
                i = r.randrange(n)
                shifts[i] = r.choice([1, -1, 2])
                shown[i] = 'add(%s,%d)' % (items[i], shifts[i])
            bins = sorted(set(a + c for x, c in zip(items, shifts) for a in I.dom[x]))

            def loads(s, items=items, shifts=shifts, bins=bins):
                out = dict.fromkeys(bins, 0)
                for x, c, size in zip(items, shifts, sizes):
                    out[s[x] + c] += size
                return list(out.values())
            seen = [r.choice(loads(sample())) for _ in range(4)]
            # mostly loads of bins used: conditions an empty bin fails (it holds 0) then count
            seen = [a for a in seen if a] + ([0] if r.random() < 0.3 else [])
            txt, test, extra = cond_test(seen, names)
            xml = '<binPacking><list> %s </list><sizes> %s </sizes><condition> %s </condition></binPacking>' % (
                text(shown), text(sizes), txt)
            return xml, [(tuple(sorted(set(items) | set(extra))),
                          lambda s, loads=loads, test=test: all(test(a, s) for a in loads(s)))]
        # the bins listed: start, start + 1, ..., one per load, limit or condition
        m = r.randint(2, 3)
        start = r.choice([0, 0, 0, 1, -1, 2])
        pool = list(range(start, start + m))
        if r.random() < 0.3:
            pool += [start - 1, start + m]  # an item may go outside the bins
        var_bounds = form in ('loads', 'limits') and r.random() < 0.5
        per = per_variable(n + (m if var_bounds and form == 'limits' else 0))
        items = [fresh(some_of(pool, per)) for _ in range(n)]
        total = sum(sizes)

        def load(j, s, items=items):
            return sum(size for x, size in zip(items, sizes) if s[x] == start + j)
        some_loads = [[load(j, s) for j in range(m)] for s in (sample() for _ in range(3))]
        sem = [((x,), lambda s, x=x: start <= s[x] < start + m) for x in items]
        if form == 'conditions':
            conds = [cond_test([a[j] for a in some_loads], names) for j in range(m)]
            body = ' '.join(c[0] for c in conds)
            for j, (_, test, extra) in enumerate(conds):
                sem.append((tuple(sorted(set(items) | set(extra))),
                            lambda s, j=j, test=test, load=load: test(load(j, s), s)))
        else:
            if var_bounds:
                bounds = []
                for j in range(m):
                    near_j = [a[j] + r.choice([-1, 0, 0, 1]) for a in some_loads]
                    can = sorted(set(max(0, x) for x in near_j + [r.randint(0, total + 1)]))
                    bounds.append(fresh(can if form == 'loads' else some_of(can, min(per, 3)), det=form == 'loads'))
            else:
                a = r.choice(some_loads)
                bounds = [max(0, a[j] + r.choice([0, 0, 0, 1, -1])) for j in range(m)]
            body = text(bounds)
            for j, b in enumerate(bounds):
                if form == 'loads':
                    sem.append((tuple(sorted(set(items) | var_items([b]))),
                                lambda s, j=j, b=b, load=load: load(j, s) == val(b, s)))
                else:
                    sem.append((tuple(sorted(set(items) | var_items([b]))),
                                lambda s, j=j, b=b, load=load: load(j, s) <= val(b, s)))
        attr = ' startIndex="%d"' % start if (start != 0 or r.random() < 0.2) else ''
        xml = '<binPacking><list%s> %s </list><sizes> %s </sizes><%s> %s </%s></binPacking>' % (
            attr, text(items), text(sizes), form, body, form)
        return xml, sem

    def c_knapsack():
        n = r.randint(2, 4)
        per = per_variable(n)
        items = [fresh(some_of(range(0, r.choice([2, 3, 4])), per)) for _ in range(n)]
        weights = [r.randint(0, 4) for _ in range(n)]
        profits = [r.randint(0, 5) for _ in range(n)]

        def total(coeffs):
            return lambda s, coeffs=coeffs, items=items: sum(c * s[x] for c, x in zip(coeffs, items))
        fw, fp = total(weights), total(profits)
        wtxt, wtest, wextra = cond_test([fw(sample()) for _ in range(4)], names)
        ptxt, ptest, pextra = cond_test([fp(sample()) for _ in range(4)], names)
        xml = ('<knapsack><list> %s </list><weights> %s </weights><condition> %s </condition>'
               '<profits> %s </profits><condition> %s </condition></knapsack>') % (
            text(items), text(weights), wtxt, text(profits), ptxt)
        return xml, [(tuple(sorted(set(items) | set(wextra))), lambda s, f=fw, t=wtest: t(f(s), s)),
                     (tuple(sorted(set(items) | set(pextra))), lambda s, f=fp, t=ptest: t(f(s), s))]

    def c_sum():
        vs = some(1)
        if r.random() < 0.15:
            vs.append(r.choice(vs))  # a repeated variable
        if r.random() < 0.2:
            co = [r.choice(names) for _ in vs]  # variables as coefficients
            f = (lambda s, vs=vs, co=co: sum(s[c] * s[v] for c, v in zip(co, vs)))
        else:
            co = [r.choice([1, 1, 2, -1, -3, 0, 5]) for _ in vs]
            f = (lambda s, vs=vs, co=co: sum(c * s[v] for c, v in zip(co, vs)))
        txt, p, extra = condition(f, names)
        xml = '<sum><list> %s </list><coeffs> %s </coeffs><condition> %s </condition></sum>' % (text(vs), text(co), txt)
        return xml, [(tuple(sorted(set(vs) | var_items(co) | set(extra))), p)]

    def c_element():
        form = r.choice(['index', 'index', 'index', 'member', 'any', 'matrix'])

        def item():
            if r.random() < 0.75:
                return r.choice(names)
            return r.choice(I.dom[r.choice(names)]) + r.choice([0, 0, 1])

        def operand(seen):
            """A <value> (a variable or an integer) or a <condition>: its text and test."""
            if r.random() < 0.3:
                if r.random() < 0.5:
                    w = r.choice(names)
                    return '<value> %s </value>' % w, (lambda v, s, w=w: v == s[w]), [w]
                k = near(seen)
                return '<value> %d </value>' % k, (lambda v, s, k=k: v == k), []
            txt, test, extra = cond_test(seen, names)
            return '<condition> %s </condition>' % txt, test, extra

        def index_var(start, n):
            # mostly within the list, sometimes one index out of it
            pool = list(range(start, start + n))
            if r.random() < 0.3:
                pool += [start - 1, start + n]
            return fresh(some_of(pool, per_variable(1)))
        if form == 'matrix':
            rows, cols = r.randint(1, 3), r.randint(2, 3)
            M = [[item() for _ in range(cols)] for _ in range(rows)]
            sr, sc = r.choice([0, 0, 1, -1]), r.choice([0, 0, 2])
            ri, ci = index_var(sr, rows), index_var(sc, cols)
            seen = [val(r.choice(r.choice(M)), sample()) for _ in range(4)]
            otxt, test, extra = operand(seen)
            attr = (' startRowIndex="%d"' % sr if sr else '') + (' startColIndex="%d"' % sc if sc else '')
            xml = '<element><matrix%s> %s </matrix><index> %s %s </index>%s</element>' % (
                attr, ''.join('(%s)' % ','.join(map(str, row)) for row in M), ri, ci, otxt)

            def p(s, M=M, ri=ri, ci=ci, sr=sr, sc=sc, test=test):
                i, j = s[ri] - sr, s[ci] - sc
                return 0 <= i < len(M) and 0 <= j < len(M[0]) and test(val(M[i][j], s), s)
            return xml, [(tuple(sorted(var_items(*M) | {ri, ci} | set(extra))), p)]
        L = [item() for _ in range(r.randint(2, 4))]
        if form != 'index' and not var_items(L):
            L[r.randrange(len(L))] = r.choice(names)
        seen = [val(r.choice(L), sample()) for _ in range(4)]
        if form == 'index':
            start = r.choice([0, 0, 0, 1, -1, 3])
            iv = index_var(start, len(L))
            otxt, test, extra = operand(seen)
            attr = ' startIndex="%d"' % start if start else ''
            xml = '<element><list%s> %s </list><index%s> %s </index>%s</element>' % (
                attr, text(L), ' rank="any"' if r.random() < 0.1 else '', iv, otxt)

            def p(s, L=L, iv=iv, start=start, test=test):
                i = s[iv] - start
                return 0 <= i < len(L) and test(val(L[i], s), s)
            return xml, [(tuple(sorted(var_items(L) | {iv} | set(extra))), p)]
        if form == 'member':  # some item equals the value
            if r.random() < 0.5:
                w = r.choice(names)
                otxt, test, extra = '<value> %s </value>' % w, (lambda v, s, w=w: v == s[w]), [w]
            else:
                k = near(seen)
                otxt, test, extra = '<value> %d </value>' % k, (lambda v, s, k=k: v == k), []
        else:
            txt, test, extra = cond_test(seen, names)
            otxt = '<condition> %s </condition>' % txt
        xml = '<element><list> %s </list>%s</element>' % (text(L), otxt)
        return xml, [(tuple(sorted(var_items(L) | set(extra))),
                      lambda s, L=L, test=test: any(test(val(x, s), s) for x in L))]

    def c_no_overlap():
        zi = r.choice([None, None, 'true', 'false', 'false'])
        zero_ignored = zi != 'false'
        attr = '' if zi is None else ' zeroIgnored="%s"' % zi
        var_len = r.random() < 0.4
        if r.random() < 0.65:  # one dimension
            n = r.randint(2, 5)
            per = per_variable(n * (1 + var_len))
            times = window(r.randint(3, 7))
            origins = []
            for _ in range(n):
                if origins and r.random() < 0.08:
                    origins.append(r.choice(origins))
                else:
                    origins.append(fresh(some_of(times, per)))
            lengths = [fresh(some_of(range(0, r.choice([2, 3, 4])), per)) if var_len else r.choice([0, 1, 1, 2, 2, 3])
                       for _ in range(n)]
            xml = '<noOverlap%s><origins> %s </origins><lengths> %s </lengths></noOverlap>' % (
                attr, text(origins), text(lengths))
            boxes = [([o], [ln]) for o, ln in zip(origins, lengths)]
        else:
            n, k = r.randint(2, 3), r.choice([2, 2, 3])
            per = per_variable(n * k * (1 + var_len))
            spans = [window(r.randint(2, 4)) for _ in range(k)]
            boxes = [([fresh(some_of(spans[d], per)) for d in range(k)],
                      [fresh(some_of(range(0, 3), per)) if var_len else r.choice([0, 1, 1, 2, 2, 3]) for d in range(k)])
                     for _ in range(n)]
            xml = '<noOverlap%s><origins> %s </origins><lengths> %s </lengths></noOverlap>' % (
                attr, ''.join('(%s)' % ','.join(o) for o, _ in boxes),
                ''.join('(%s)' % ','.join(map(str, ln)) for _, ln in boxes))
        sem = []
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                (oi, li), (oj, lj) = boxes[i], boxes[j]

                def p(s, oi=oi, li=li, oj=oj, lj=lj):
                    a, la = [s[x] for x in oi], [val(x, s) for x in li]
                    b, lb = [s[x] for x in oj], [val(x, s) for x in lj]
                    if zero_ignored and (0 in la or 0 in lb):
                        return True
                    return any(a[d] + la[d] <= b[d] or b[d] + lb[d] <= a[d] for d in range(len(a)))
                sem.append((tuple(sorted(set(oi) | set(oj) | var_items(li, lj))), p))
        return xml, sem

    def c_count_var():
        vs = some()
        w = r.choice(names)
        f = (lambda s, vs=vs, w=w: sum(1 for v in vs if s[v] == s[w]))
        txt, p, extra = condition(f, [x for x in names if x not in vs])
        return ('<count><list> %s </list><values> %s </values><condition> %s </condition></count>' % (text(vs), w, txt),
                [(tuple(sorted(set(vs) | {w} | set(extra))), p)])

    def c_n_values_except():
        vs = some()
        exc = values_of(vs, 2)
        f = (lambda s, vs=vs, exc=frozenset(exc): len(set(s[v] for v in vs) - exc))
        txt, p, extra = condition(f, [w for w in names if w not in vs])
        return ('<nValues><list> %s </list><except> %s </except><condition> %s </condition></nValues>' % (
            text(vs), text(exc), txt), [(tuple(sorted(set(vs) | set(extra))), p)])

    def c_all_different_except():
        vs = some()
        exc = values_of(vs, 2)
        return ('<allDifferent><list> %s </list><except> %s </except></allDifferent>' % (text(vs), text(exc)),
                [ad_sem(vs, exc)[:2]])

    def c_cardinality_occurs():
        vs = some()
        if r.random() < 0.4:
            vals = r.sample(names, r.randint(1, min(3, len(names))))  # values given by variables
        else:
            vals = values_of(vs, 3)
        kind = r.choice(['int', 'var', 'interval', 'interval'])
        occ = []
        for _ in vals:
            if kind == 'var':
                occ.append(r.choice(names))
            elif kind == 'int':
                occ.append(r.randint(0, min(2, len(vs))))
            else:
                lo = r.randint(0, min(2, len(vs)))
                occ.append((lo, lo + r.randint(0, 2)))
        closed = r.random() < 0.3

        def p(s, vs=vs, vals=vals, occ=occ, closed=closed):
            vv = [val(a, s) for a in vals]
            if closed and any(s[v] not in vv for v in vs):
                return False
            for a, o in zip(vv, occ):
                k = sum(1 for v in vs if s[v] == a)
                if isinstance(o, tuple):
                    if not o[0] <= k <= o[1]:
                        return False
                elif k != val(o, s):
                    return False
            return True
        xml = '<cardinality><list> %s </list><values%s> %s </values><occurs> %s </occurs></cardinality>' % (
            text(vs), ' closed="true"' if closed else '', text(vals),
            ' '.join('%d..%d' % o if isinstance(o, tuple) else str(o) for o in occ))
        return xml, [(tuple(sorted(set(vs) | var_items(vals, occ))), p)]

    def c_extremum_index():
        vs = some(1)
        tag = r.choice(['minimum', 'maximum'])
        start = r.choice([0, 0, 1, -2])
        rank = r.choice([None, 'any', 'first', 'last'])
        pool = list(range(start, start + len(vs)))
        if r.random() < 0.3:
            pool += [start - 1, start + len(vs)]
        iv = fresh(some_of(pool, per_variable(1)))
        ext = min if tag == 'minimum' else max
        f = (lambda s, vs=vs, ext=ext: ext(s[v] for v in vs))
        txt, cp, extra = condition(f, names) if r.random() < 0.8 else (None, None, [])

        def p(s, vs=vs, iv=iv, start=start, rank=rank, f=f, cp=cp):
            i = s[iv] - start
            if not 0 <= i < len(vs):
                return False
            m = f(s)
            if s[vs[i]] != m:
                return False
            if rank == 'first' and any(s[v] == m for v in vs[:i]):
                return False
            if rank == 'last' and any(s[v] == m for v in vs[i + 1:]):
                return False
            return cp is None or cp(s)
        xml = '<%s><list%s> %s </list><index%s> %s </index>%s</%s>' % (
            tag, ' startIndex="%d"' % start if start else '', text(vs),
            ' rank="%s"' % rank if rank else '', iv,
            '' if txt is None else '<condition> %s </condition>' % txt, tag)
        return xml, [(tuple(sorted(set(vs) | {iv} | set(extra))), p)]

    def c_channel():
        form = r.choice(['one', 'two', 'value'])
        n = r.randint(2, 4)
        s1, s2 = r.choice([0, 0, 1, -1]), r.choice([0, 0, 2])

        def attr(st):
            return ' startIndex="%d"' % st if st or r.random() < 0.2 else ''
        if form == 'one':
            per = per_variable(n)
            xs = [fresh(some_of(range(s1, s1 + n), per)) for _ in range(n)]
            if s1 == 0 and r.random() < 0.3:
                xml = '<channel> %s </channel>' % text(xs)
            else:
                xml = '<channel><list%s> %s </list></channel>' % (attr(s1), text(xs))

            def p(s, xs=xs, st=s1):
                v = [s[x] - st for x in xs]
                return all(0 <= v[i] < len(v) and v[v[i]] == i for i in range(len(v)))
            return xml, [(tuple(sorted(set(xs))), p)]
        if form == 'two':
            per = per_variable(2 * n)
            xs = [fresh(some_of(range(s2, s2 + n), per)) for _ in range(n)]
            ys = [fresh(some_of(range(s1, s1 + n), per)) for _ in range(n)]
            xml = '<channel><list%s> %s </list><list%s> %s </list></channel>' % (attr(s1), text(xs), attr(s2), text(ys))

            def p(s, xs=xs, ys=ys, s1=s1, s2=s2):
                for i, x in enumerate(xs):
                    j = s[x] - s2
                    if not (0 <= j < len(ys) and s[ys[j]] - s1 == i):
                        return False
                return True
            return xml, [(tuple(sorted(set(xs) | set(ys))), p)]
        per = per_variable(n + 1)
        bs = [fresh(r.choice([[0, 1], [0, 1], [0, 1], [0], [1]])) for _ in range(n)]
        v = fresh(some_of(range(s1, s1 + n), per))
        xml = '<channel><list%s> %s </list><value> %s </value></channel>' % (attr(s1), text(bs), v)

        def p(s, bs=bs, v=v, st=s1):
            return all((s[b] == 1) == (s[v] == i + st) for i, b in enumerate(bs))
        return xml, [(tuple(sorted(set(bs) | {v})), p)]

    def c_circuit():
        n = r.randint(2, 5)
        start = r.choice([0, 0, 0, 1, 2])
        pool = list(range(start, start + n))
        if r.random() < 0.1:
            pool.append(r.choice([start - 1, start + n]))  # a successor out of the vertices
        per = per_variable(n)
        xs = [fresh(some_of(pool, per)) for _ in range(n)]
        k = r.random()
        if k < 0.5:
            size = None
        elif k < 0.8:
            size = r.randint(0, n)
        else:
            size = r.choice(names) if r.random() < 0.5 else fresh(some_of(range(0, n + 2), 3))

        def p(s, xs=xs, start=start, size=size):
            v = [s[x] - start for x in xs]
            if any(not 0 <= a < len(v) for a in v):
                return False
            on = [i for i, a in enumerate(v) if a != i]
            if len(on) < 2:
                return False
            seen, cur = set(), on[0]
            while cur not in seen:
                seen.add(cur)
                cur = v[cur]
            if cur != on[0] or seen != set(on):
                return False
            return size is None or len(on) == val(size, s)
        if start == 0 and size is None and r.random() < 0.3:
            xml = '<circuit> %s </circuit>' % text(xs)
        else:
            xml = '<circuit><list%s> %s </list>%s</circuit>' % (
                ' startIndex="%d"' % start if start else '', text(xs), '' if size is None else '<size> %s </size>' % size)
        return xml, [(tuple(sorted(set(xs) | var_items([size]))), p)]

    def c_regular():
        n = r.randint(2, 4)
        alphabet = sorted(r.sample(range(-1, 4), r.randint(2, 3)))
        per = per_variable(n)
        xs = [fresh(some_of(alphabet + ([7] if r.random() < 0.15 else []), per)) for _ in range(n)]
        states = ['q%d' % i for i in range(r.randint(2, 4))]
        sink = r.random() < 0.5  # the last state, final, has no outgoing transition
        trans = []
        for qi, q in enumerate(states):
            if sink and qi == len(states) - 1:
                continue
            for a in alphabet:
                if r.random() < 0.65:
                    trans.append((q, a, r.choice(states)))
                    if r.random() < 0.1:  # not deterministic
                        trans.append((q, a, r.choice(states)))
        if not any(t[0] == states[0] for t in trans):
            trans.append((states[0], r.choice(alphabet), r.choice(states)))
        finals = sorted(set(r.sample(states, r.randint(1, 2)) + ([states[-1]] if sink else [])))
        for q in finals:  # every state the file names is named by a transition
            if not any(q in (t[0], t[2]) for t in trans):
                trans.append((r.choice([t[0] for t in trans]), r.choice(alphabet), q))
        trans = sorted(set(trans), key=lambda t: (states.index(t[0]), t[1], states.index(t[2])))
        xml = '<regular><list> %s </list><transitions> %s </transitions><start> %s </start><final> %s </final></regular>' % (
            text(xs), ''.join('(%s,%d,%s)' % t for t in trans), states[0], ' '.join(finals))

        def p(s, xs=xs, trans=trans, start=states[0], finals=frozenset(finals)):
            cur = {start}
            for x in xs:
                a = s[x]
                cur = {t[2] for t in trans if t[0] in cur and t[1] == a}
            return bool(cur & finals)
        return xml, [(tuple(sorted(set(xs))), p)]

    def c_mdd():
        n = r.randint(2, 3)
        per = per_variable(n)
        xs = [fresh(some_of(range(-1, 4), per)) for _ in range(n)]
        layers = [['r']] + [['n%d%s' % (i, 'ab'[j]) for j in range(r.randint(1, 2))] for i in range(1, n)] + [['t']]
        edges = []
        for i in range(n):
            labels = sorted(set(I.dom[xs[i]]) | {r.randint(-1, 4)})
            used = {u: set() for u in layers[i]}
            kept = []
            for w in layers[i + 1]:  # every node of the next layer entered
                parents = [u for u in layers[i] if len(used[u]) < len(labels)]
                if not parents:
                    break
                u = r.choice(parents)
                a = r.choice([b for b in labels if b not in used[u]])
                used[u].add(a)
                edges.append((u, a, w))
                kept.append(w)
            layers[i + 1] = kept
            for u in layers[i]:  # every node of this layer left, and more edges
                free = [b for b in labels if b not in used[u]]
                if free and (not used[u] or r.random() < 0.6):
                    for a in r.sample(free, r.randint(0 if used[u] else 1, len(free))):
                        used[u].add(a)
                        edges.append((u, a, r.choice(layers[i + 1])))
        r.shuffle(edges)
        xml = '<mdd><list> %s </list><transitions> %s </transitions></mdd>' % (
            text(xs), ''.join('(%s,%d,%s)' % e for e in edges))
        step = {}
        for u, a, w in edges:
            step[(u, a)] = w

        def p(s, xs=xs, step=step):
            node = 'r'
            for x in xs:
                node = step.get((node, s[x]))
                if node is None:
                    return False
            return node == 't'
        return xml, [(tuple(sorted(set(xs))), p)]

    kinds = {f.__name__[2:]: f for f in [
        c_all_equal, c_count, c_min_max, c_n_values, c_ordered, c_lex, c_cardinality,
        c_cumulative, c_bin_packing, c_knapsack, c_sum, c_element, c_no_overlap, c_count_var,
        c_n_values_except, c_all_different_except, c_cardinality_occurs, c_extremum_index,
        c_channel, c_circuit, c_regular, c_mdd]}
    for k in picks:
        xml, sem = kinds[k]()
        I.cons.append(xml)
        I.sem.extend((sc, pr, 'global') for sc, pr in sem)
    I.text = I.xml()
    return I


def past_128_bits(r, I, names):
    """An intension some of whose values leave the 128-bit integers (checked here on the
    assignment that makes it largest): csp must refuse the instance."""
    big = [v for v in names if min(abs(a) for a in I.dom[v]) >= 2**16]
    k = r.randrange(4)
    if k == 0 or not big:
        # the subexpression mul(i64::MIN, i64::MIN, 4) is 2^128 whatever the variable
        e = call('mul', [call('mul', [leaf_const(I64_MIN), leaf_const(I64_MIN), leaf_const(4)]), leaf_var(r.choice(names))])
        worst = I64_MIN * I64_MIN * 4
    elif k == 1:
        v = r.choice(big)
        e = call('pow', [leaf_var(v), leaf_const(r.choice([8, 9, 12]))])
        worst = max(abs(a) for a in I.dom[v]) ** 8
    elif k == 2:
        vs = [r.choice(big) for _ in range(8)]
        e = call('mul', [leaf_var(v) for v in vs])
        worst = 2**128
    else:
        v = r.choice(big)
        e = call('mul', [leaf_const(I64_MAX), leaf_const(I64_MAX), leaf_var(v), leaf_var(v)])
        worst = (I64_MAX ** 2) * 2**32
    assert worst >= 2**128, 'past_128_bits: not past'
    return '<intension> %s(%s,0) </intension>' % (r.choice(['gt', 'ne', 'lt']), e.txt)


def extract(txt, names):
    import re
    toks = set(t.strip() for t in re.split(r'[(),\s]', txt) if t.strip())
    return [n for n in names if n in toks]


def brute(I, limit_sols=100000, on_solution=None):
    """The number of assignments of the variables that occur in some constraint (the others
    fixed to their smallest value) satisfying every constraint, and the first limit_sols of
    them. Every assignment is enumerated; a constraint is checked as soon as its scope is
    assigned, which prunes the enumeration but changes no count."""
    involved = set()
    for sc, _, _ in I.sem:
        involved |= set(sc)
    inv = [v for v, _ in I.vars if v in involved]
    fixed = {v: min(d) for v, d in I.vars if v not in involved}
    at = {v: i for i, v in enumerate(inv)}
    # checks[i]: the constraints whose scope is complete once inv[i] is assigned; a constraint
    # over none of them (constants only) is checked before anything
    checks = [[] for _ in inv]
    first = []
    for sc, p, _ in I.sem:
        if sc:
            checks[max(at[v] for v in sc)].append(p)
        else:
            first.append(p)
    s = dict(fixed)
    if not all(p(s) for p in first):
        return 0, []
    sols = []
    n = len(inv)
    doms = [I.dom[v] for v in inv]

    def walk(i):
        if i == n:
            if len(sols) < limit_sols:
                sols.append(dict(s))
            if on_solution is not None:
                on_solution(s)
            return 1
        total = 0
        v, cs = inv[i], checks[i]
        for a in doms[i]:
            s[v] = a
            if all(p(s) for p in cs):
                total += walk(i + 1)
        return total
    count = walk(0)
    return count, sols


def add_objective(I, seed):
    """Makes the instance a COP (`--objective`): an objective over variables of its constraints,
    drawn among a variable, a sum with coefficients, a maximum, a minimum and an expression,
    minimised or maximised. Returns (goal, value(s)) or None when the instance does not suit
    (no constraint variable, or values past 1000, which would make objectives csp refuses)."""
    involved = sorted({v for sc, _, _ in I.sem for v in sc}, key=lambda v: int(v[1:]) if v[1:].isdigit() else 0)
    involved = [v for v in involved if v in I.dom and max(abs(a) for a in I.dom[v]) <= 1000]
    if not involved or not I.text.startswith('<instance format="XCSP3" type="CSP">'):
        return None
    r = random.Random(seed * 7919 + 13)
    goal = r.choice(['minimize', 'maximize'])
    vs = r.sample(involved, min(len(involved), r.randint(1, 4)))
    kind = r.choice(['var', 'sum', 'maximum', 'minimum', 'expression'])
    if kind == 'var':
        body, value = ' %s ' % vs[0], (lambda s, v=vs[0]: s[v])
    elif kind == 'sum':
        cs = [r.choice([-3, -2, -1, 1, 2, 3]) for _ in vs]
        body = ' <list> %s </list> <coeffs> %s </coeffs> ' % (' '.join(vs), ' '.join(map(str, cs)))
        return finish_objective(I, goal, ' type="sum"', body,
                                lambda s, vs=vs, cs=cs: sum(c * s[v] for v, c in zip(vs, cs)))
    elif kind in ('maximum', 'minimum'):
        f = max if kind == 'maximum' else min
        return finish_objective(I, goal, ' type="%s"' % kind, ' %s ' % ' '.join(vs),
                                lambda s, vs=vs, f=f: f(s[v] for v in vs))
    else:
        x, y = vs[0], vs[-1]
        c = r.choice([2, 3, -2])
        body = ' add(%s,mul(%s,%d)) ' % (x, y, c)
        value = lambda s, x=x, y=y, c=c: s[x] + c * s[y]
    return finish_objective(I, goal, '', body, value)


def finish_objective(I, goal, attrs, body, value):
    objective = '<objectives>\n<%s%s>%s</%s>\n</objectives>\n' % (goal, attrs, body, goal)
    I.text = I.text.replace('type="CSP"', 'type="COP"', 1).replace('</instance>', objective + '</instance>')
    return goal, value


def check(I, s):
    """True when the assignment (dict) satisfies every constraint."""
    return all(p(s) for _, p, _ in I.sem)


def space(I):
    n = 1
    for _, d in I.vars:
        n *= len(d)
    return n


def solution_line(I, s):
    """A solution as `csp solve --format line` writes it: name=value, in declaration order."""
    return ' '.join('%s=%d' % (v, s[v]) for v, _ in I.vars)


def main(argv):
    args = [a for a in argv if not a.startswith('--')]
    max_sols = None
    if '--solutions' in argv:
        i = argv.index('--solutions')
        max_sols = int(argv[i + 1])
        args = [a for a in argv[:i] + argv[i + 2:] if not a.startswith('--')]
    if len(args) < 2:
        sys.exit('usage: xcsp_random_instances.py OUTDIR N [SEED0] [--solutions MAX]')
    out, N = args[0], int(args[1])
    s0 = int(args[2]) if len(args) > 2 else 0
    os.makedirs(out, exist_ok=True)
    objectives = '--objective' in argv
    for i in range(s0, s0 + N):
        I = gen(i)
        c, sols = None, []
        meta = {'seed': i, 'mode': I.mode, 'expect': I.expect, 'ace_ok': I.ace_ok, 'space': space(I)}
        made = add_objective(I, i) if objectives and I.expect == 'count' else None
        best = []
        if made is not None:
            goal, value = made
            pick = max if goal == 'maximize' else min

            def keep(s, value=value, pick=pick):
                v = value(s)
                best[:] = [v if not best else pick(best[0], v)]
            meta.update(goal=goal)
        else:
            keep = None
        if I.expect == 'count':
            c, sols = brute(I, (max_sols + 1) if max_sols is not None else 0, keep)
        if made is not None:
            meta.update(optimum=best[0] if best else None)
        meta['brute'] = c
        with open(os.path.join(out, 'r%05d.xml' % i), 'w') as f:
            f.write(I.text)
        with open(os.path.join(out, 'r%05d.json' % i), 'w') as f:
            json.dump(meta, f)
        if max_sols is not None and c is not None and c <= max_sols:
            with open(os.path.join(out, 'r%05d.sols' % i), 'w') as f:
                f.write(''.join(solution_line(I, s) + '\n' for s in sols))


if __name__ == '__main__':
    main(sys.argv[1:])
