#!/usr/bin/env bash
# Generates random CSPs of every kind `csp random` makes and checks that ACE reads each
# file and gives the same answer as csp (satisfiable or not).
#
#   scripts/ace-check-random.sh [--ace PATH/ACE-2.6.jar] [--csp PATH/csp] [--count C]
#
# ACE comes with PyCSP3 (`pip install pycsp3`: site-packages/pycsp3/solvers/ace/).
# Prints one line per file and a last line `N files: N read by ACE, N answers agree`;
# exits 1 on any file ACE refuses or any disagreement.
set -euo pipefail
csp=target/release/csp
ace=""
count=5
while [ $# -gt 0 ]; do
    case "$1" in
        --ace) ace="$2"; shift 2 ;;
        --csp) csp="$2"; shift 2 ;;
        --count) count="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "$ace" ]; then
    # Found without importing pycsp3, which prints a warning when it ends.
    ace="$(python3 -c 'import importlib.util as u, os; print(os.path.join(os.path.dirname(u.find_spec("pycsp3").origin), "solvers/ace/ACE-2.6.jar"))')"
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
gen() { "$csp" random "$@" --count "$count" --out "$dir"; }
{
    gen model-b --n 20 --d 10 --p1 0.5 --p2 0.30 --seed 0
    gen model-b --n 20 --d 10 --p1 0.5 --p2 0.38 --seed 0
    gen model-b --n 20 --d 10 --p1 0.5 --p2 0.50 --seed 0
    gen model-b --n 40 --d 3 --p1 0.1 --p2 0.2 --seed 0
    gen model-b --n 10 --d 5 --p1 1 --p2 0 --seed 0
    gen rb --k 2 --n 30 --alpha 0.8 --r 2.7808 --p 0.25 --forced --seed 0
    gen rb --k 2 --n 30 --alpha 0.8 --r 2.7808 --p 0.25 --seed 0
    gen rb --k 3 --n 15 --alpha 0.8 --r 1 --p 0.3 --seed 0
    gen rb --k 3 --n 15 --alpha 0.8 --r 1 --p 0.3 --forced --seed 0
} > "$dir/list"
files=0; read_ok=0; agree=0
while read -r f; do
    files=$((files + 1))
    ace_out="$(timeout 120 java -jar "$ace" "$f" < /dev/null 2>&1 | sed 's/\x1b\[[0-9;]*m//g' || true)"
    ace_s="$(grep -E '^s ' <<< "$ace_out" | head -1 || true)"
    csp_s="$("$csp" solve "$f" --format xcsp < /dev/null | grep -E '^s ' | head -1 || true)"
    [ -n "$ace_s" ] && read_ok=$((read_ok + 1))
    [ -n "$ace_s" ] && [ "$ace_s" = "$csp_s" ] && agree=$((agree + 1))
    echo "$(basename "$f"): ACE ${ace_s:-refused}; csp ${csp_s}"
done < "$dir/list"
echo "$files files: $read_ok read by ACE, $agree answers agree"
[ "$read_ok" = "$files" ] && [ "$agree" = "$files" ]
