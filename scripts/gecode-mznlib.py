#!/usr/bin/env python3
"""A MiniZinc library for fzn-gecode 6.2.0 that MiniZinc 2.6.4 accepts.

Debian's `flatzinc` package (Gecode 6.2.0) ships Gecode 6.2.0's mznlib, written
before MiniZinc's `fzn_` naming: with MiniZinc 2.6.4 every model that includes
globals.mzn fails to compile (`inverse`, `nvalue`, ... clash with the standard
library). Gecode 6.3.0's mznlib has the `fzn_` names, but some of the
constraints it writes are unknown to fzn-gecode 6.2.0. This script takes the
6.3.0 library and the 6.2.0 registry (gecode/flatzinc/registry.cpp) and writes
a library whose native constraints are all in the 6.2.0 registry:

- a native `fzn_X` that 6.2.0 knows as `X` becomes `fzn_X(..) = X(..)`;
- `gecode_cumulatives` is 6.2.0's `cumulatives`, `fzn_count_eq(_reif|_imp)` its
  `count(_reif|_imp)` (same arguments);
- fzn_cumulatives.mzn (there `gecode_cumulatives` is the multi-resource
  constraint of 6.3.0, with other arguments) is left out;
- a file with any other unknown native constraint is left out (MiniZinc's
  standard decomposition is used).

Usage: gecode-mznlib.py MZNLIB_6_3_0_DIR REGISTRY_6_2_0_CPP OUT_DIR
Prints what it rewrote and what it left out. Python 3 standard library only.
"""

import os
import re
import sys

RENAME = {
    "gecode_cumulatives": "cumulatives",
    "fzn_count_eq": "count",
    "fzn_count_eq_reif": "count_reif",
    "fzn_count_eq_imp": "count_imp",
}


def split_args(args):
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def arg_name(arg):
    return re.findall(r"[A-Za-z_][A-Za-z_0-9]*", arg.split(":")[-1])[-1]


def main():
    src, registry, out = sys.argv[1:4]
    with open(registry) as f:
        known = set(re.findall(r'add\("([A-Za-z_0-9]+)"', f.read()))
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith(".mzn"):
            continue
        if name == "fzn_cumulatives.mzn":
            print("%s: left out (multi-resource gecode_cumulatives)" % name)
            continue
        with open(os.path.join(src, name)) as f:
            text = f.read()
        code = re.sub(r"%[^\n]*", "", text)
        ok = True
        new = code
        for m in re.finditer(r"predicate\s+([A-Za-z_0-9]+)\s*\(", code):
            pred = m.group(1)
            # the argument list, then what follows it
            depth, i = 1, m.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(code[i], 0)
                i += 1
            args = code[m.end():i - 1]
            rest = code[i:].lstrip()
            if not rest.startswith(";"):
                continue  # has a body (or annotations and a body)
            if pred in known:
                continue
            target = RENAME.get(pred)
            if target is None and pred.startswith("fzn_") and pred[4:] in known:
                target = pred[4:]
            if target is None or target not in known:
                ok = False
                break
            decl = code[m.start():i]
            names = ", ".join(arg_name(a) for a in split_args(args))
            repl = "%s = %s(%s);\npredicate %s(%s)" % (decl, target, names, target, args)
            new = new.replace(decl + rest[:0], repl, 1)
            print("%s: %s -> %s" % (name, pred, target))
        if not ok:
            print("%s: left out (%s unknown to 6.2.0)" % (name, pred))
            continue
        with open(os.path.join(out, name), "w") as f:
            f.write(new)


if __name__ == "__main__":
    main()
