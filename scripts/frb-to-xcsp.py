#!/usr/bin/env python3
"""Converts the frb benchmark (forced satisfiable model RB instances of the 2004 SAT
competition, as published at name-is-what/RB-bench.github.io, docs/assets/bench/
frbN-D-csp.tar.gz) to XCSP3, each constraint as the binary `extension` of its conflicts.

Each line of a `.csp` file is one constraint: `X Y: (a b) (a b) ...`, the two variables
(from 0) and its forbidden pairs of values (from 0). The number of variables and values
comes from the file name (`frb30-15-1.csp`: 30 variables of 15 values), or else from the
largest ones the file uses.

Usage: scripts/frb-to-xcsp.py OUT_DIR FILE.csp...    (writes OUT_DIR/NAME.xml)
"""

import os
import re
import sys

LINE = re.compile(r"^\s*(\d+)\s+(\d+)\s*:(.*)$")
PAIR = re.compile(r"\(\s*(\d+)\s+(\d+)\s*\)")
NAME = re.compile(r"frb(\d+)-(\d+)")


def convert(path):
    """The XCSP3 text of one `.csp` file."""
    constraints = []
    top_var, top_value = -1, -1
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            m = LINE.match(line)
            if not m:
                raise ValueError(f"{path}:{number}: expected `X Y: (a b) ...`")
            x, y = int(m.group(1)), int(m.group(2))
            pairs = [(int(a), int(b)) for a, b in PAIR.findall(m.group(3))]
            top_var = max(top_var, x, y)
            top_value = max([top_value] + [max(a, b) for a, b in pairs])
            constraints.append((x, y, pairs))
    named = NAME.search(os.path.basename(path))
    n, d = (int(named.group(1)), int(named.group(2))) if named else (top_var + 1, top_value + 1)
    if top_var >= n or top_value >= d:
        raise ValueError(f"{path}: variable {top_var} or value {top_value} beyond {n} x {d}")
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<!-- {os.path.basename(path)} (RB-bench, forced model RB): {n} variables of {d} values,"
        f" {len(constraints)} constraints -->",
        '<instance format="XCSP3" type="CSP">',
        "  <variables>",
        f'    <array id="x" size="[{n}]"> 0..{d - 1} </array>',
        "  </variables>",
        "  <constraints>",
    ]
    for x, y, pairs in constraints:
        out.append("    <extension>")
        out.append(f"      <list> x[{x}] x[{y}] </list>")
        out.append("      <conflicts> " + "".join(f"({a},{b})" for a, b in pairs) + " </conflicts>")
        out.append("    </extension>")
    out += ["  </constraints>", "</instance>", ""]
    return "\n".join(out)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out_dir = argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for path in argv[2:]:
        name = os.path.splitext(os.path.basename(path))[0] + ".xml"
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(convert(path))


if __name__ == "__main__":
    main(sys.argv)
