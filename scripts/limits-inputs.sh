#!/usr/bin/env bash
# Hostile and huge inputs against the limits of `csp` on files: wall time and peak RSS of
# each run (the rows of "Limits and memory" in docs/performance.md).
#
#   scripts/limits-inputs.sh [CSP_BINARY]
#
# Builds the inputs in a temporary directory (about 150 MB of disk, a minute of xz), runs
# each command once and prints `command | answer | seconds | peak KB`. Needs xz, python3 and
# GNU time.
set -euo pipefail

csp=${1:-target/release/csp}
[ -x "$csp" ] || { echo "no binary at $csp (cargo build --release)" >&2; exit 2; }
csp=$(realpath "$csp")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

# 4 GiB of spaces inside an XCSP3 file, 600 KB compressed: the default input cap stops it.
{
    printf '<instance format="XCSP3" type="CSP"><variables><var id="x"> 0..1 '
    head -c 4G /dev/zero | tr '\0' ' '
    printf '</var></variables><constraints/></instance>\n'
} | xz -1 -T1 > bomb4g.xml.xz

# A table of 5,000,000 triples (63 MB).
python3 - <<'PY'
import random
random.seed(7)
with open("table.xml", "w") as f:
    f.write('<instance format="XCSP3" type="CSP"><variables>'
            '<array id="x" size="[3]"> 0..999 </array></variables><constraints>'
            '<extension><list> x[] </list><supports>')
    for _ in range(5_000_000):
        f.write("(%d,%d,%d)" % (random.randrange(1000), random.randrange(1000), random.randrange(1000)))
    f.write('</supports></extension></constraints></instance>\n')
PY

# Ten million isolated vertices, and a sparse random graph.
printf 'p edge 10000000 0\n' > isolated.col
python3 - <<'PY'
import random
random.seed(1)
n, m = 300_000, 600_000
edges = set()
while len(edges) < m:
    u, v = random.randint(1, n), random.randint(1, n)
    if u != v and (v, u) not in edges:
        edges.add((u, v))
with open("sparse.col", "w") as f:
    f.write(f"p edge {n} {m}\n")
    f.writelines(f"e {u} {v}\n" for u, v in edges)
PY

run() {
    local answer
    answer=$(/usr/bin/time -o time.txt -f '%e s | %M KB' "$csp" "$@" 2>/dev/null | head -c 60 | tr '\n' ' ' || true)
    echo "csp $* | $answer | $(tail -1 time.txt)"
}

run count bomb4g.xml.xz --timeout 1
run count bomb4g.xml.xz
run solve table.xml --timeout 1
run solve table.xml
run count isolated.col --colors 1
run solve sparse.col --colors 4 --timeout 10
