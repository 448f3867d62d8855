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
Usage: python3 xcsp_random_instances.py OUTDIR N [SEED0] [--solutions MAX]
   (writes OUTDIR/rNNNNN.xml and OUTDIR/rNNNNN.json; with --solutions, also OUTDIR/rNNNNN.sols,
   the solutions one per line, when there are at most MAX of them)

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
  conditions near the values they bound and 64-bit edges among their operands;
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

def gen_globals(seed):
    """The `globals` mode: XCSP3-core global constraints (allEqual, count, minimum, maximum,
    nValues, ordered with and without lengths, lex, cardinality) over small domains or a few
    values at the edges of 32 bits, with conditions and lengths at the edges of 64 bits."""
    r = random.Random(seed)
    I = Inst()
    I.mode = 'globals'
    I.ace_ok = False
    edge = r.random() < 0.4
    names = I.declare(r.randint(3, 6), lambda i: gen_edge_domain(r) if edge and r.random() < 0.8 else gen_domain(r), r)

    def sample():
        return I.sample(r)

    def near(values):
        """An integer near one of `values`, or at the edges of 64 bits."""
        if values and r.random() < 0.85:
            return r.choice(values) + r.choice([-1, 0, 0, 1])
        return r.choice([I64_MAX, I64_MIN, 0, 2**31, I32_MIN])

    def condition(f, rhs_names):
        """A `<condition>` on f(assignment), with its predicate: an operand near values f takes."""
        seen = [f(sample()) for _ in range(4)]
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
            return txt, (lambda s: inside(f(s)) == (op == 'in')), []
        if rhs_names and r.random() < 0.3:
            w = r.choice(rhs_names)
            return '(%s,%s)' % (op, w), (lambda s, w=w: CMP[op](f(s), s[w])), [w]
        k = near(seen)
        return '(%s,%d)' % (op, k), (lambda s, k=k: CMP[op](f(s), k)), []

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

    kinds = [c_all_equal, c_count, c_min_max, c_n_values, c_ordered, c_lex, c_cardinality]
    for _ in range(r.choice([1, 1, 2, 2, 3])):
        xml, sem = r.choice(kinds)()
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


def brute(I, limit_sols=100000):
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
    for i in range(s0, s0 + N):
        I = gen(i)
        c, sols = None, []
        if I.expect == 'count':
            c, sols = brute(I, (max_sols + 1) if max_sols is not None else 0)
        with open(os.path.join(out, 'r%05d.xml' % i), 'w') as f:
            f.write(I.text)
        with open(os.path.join(out, 'r%05d.json' % i), 'w') as f:
            json.dump({'seed': i, 'mode': I.mode, 'expect': I.expect, 'brute': c,
                       'ace_ok': I.ace_ok, 'space': space(I)}, f)
        if max_sols is not None and c is not None and c <= max_sols:
            with open(os.path.join(out, 'r%05d.sols' % i), 'w') as f:
                f.write(''.join(solution_line(I, s) + '\n' for s in sols))


if __name__ == '__main__':
    main(sys.argv[1:])
