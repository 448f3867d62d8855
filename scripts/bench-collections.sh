#!/usr/bin/env bash
# Measures Sudoku throughput with uniqueness checked (`csp sudoku count FILE --limit 2`) on the
# large collections in ../shared/data/sudoku/ and prints a Markdown table for docs/performance.md
# (give each row there its date, commit, machine and this command).
#
# usage: scripts/bench-collections.sh [--timeout SECONDS] [--runs N] [--data DIR] [--no-build] [-- CSP_FLAGS...]
#
#   --timeout SECONDS  per-puzzle time limit (default 10); a puzzle that hits it counts as not solved
#   --runs N           run each collection N times and report the fastest run (default 1): on a
#                      shared host, other work only ever slows a run down
#   --data DIR         the collections (default: ../shared/data/sudoku next to the project)
#   --no-build         use the existing release binary
#   CSP_FLAGS          extra flags for `csp sudoku count`, e.g. `-- --alldiff hidden --var mrv-degree`
#
# One core (`--jobs 1`), default model and strategy unless CSP_FLAGS say otherwise. Columns:
# puzzles read; solved/unique (puzzles proved to have exactly one solution); puzzles/s over the
# wall-clock time of the whole (fastest) run, process start and parsing included; mean and max
# ms per puzzle as reported by the solver (`elapsed_ms`); timeouts (puzzles stopped by --timeout).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$root/../shared/data/sudoku"
timeout=10
runs=1
made_with=""
build=1
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --timeout) timeout="${2:?--timeout needs a number of seconds}"; shift 2 ;;
        --runs) runs="${2:?--runs needs a count}"; made_with+=" --runs $2"; shift 2 ;;
        --data) data="${2:?--data needs a directory}"; made_with+=" --data $2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
done

if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "--runs needs a positive count, not $runs" >&2
    exit 2
fi
if [ ! -d "$data" ]; then
    echo "no collections at $data" >&2
    exit 1
fi
if [ "$build" = 1 ]; then
    (cd "$root" && cargo build --release --quiet --bin csp)
fi
csp="${CARGO_TARGET_DIR:-$root/target}/release/csp"
[ -x "$csp" ] || { echo "no binary at $csp (build with cargo build --release)" >&2; exit 1; }

collections=(
    9x9/17-clue.txt
    9x9/magictour-top1465.txt
    9x9/forum-hardest-1106.txt
    9x9/top95.txt
    9x9/unbiased-1000.txt
    16x16/minimal-generated.txt
    16x16/janko.txt
    25x25/generated-375-clues.txt
    25x25/generated-325-clues.txt
    25x25/generated-300-clues.txt
    25x25/frisch.txt
)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "| collection | puzzles | solved/unique | puzzles/s | mean ms | max ms | timeouts |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for collection in "${collections[@]}"; do
    file="$data/$collection"
    if [ ! -f "$file" ]; then
        echo "skipping $collection: absent" >&2
        continue
    fi
    best_ns=0
    for ((run = 1; run <= runs; run++)); do
        start=$(date +%s%N)
        # Exit code 1 only says that some puzzle was not proved unique; the table shows which.
        "$csp" sudoku count "$file" --limit 2 --format json --jobs 1 --timeout "$timeout" \
            ${extra[@]+"${extra[@]}"} >"$out/run.jsonl" 2>"$out/stderr" || true
        end=$(date +%s%N)
        if [ "$best_ns" = 0 ] || [ $((end - start)) -lt "$best_ns" ]; then
            best_ns=$((end - start))
            mv "$out/run.jsonl" "$out/result.jsonl"
        fi
    done
    python3 - "$collection" "$out/result.jsonl" "$best_ns" <<'PY'
import json, sys

name, path, wall_ns = sys.argv[1], sys.argv[2], int(sys.argv[3])
records = [json.loads(line) for line in open(path) if line.strip()]
puzzles = sum(1 for r in records if r["status"] != "error")
unique = sum(1 for r in records if r["status"] == "solved" and r["solutions"] == 1)
timeouts = sum(1 for r in records if r["status"] == "limit")
times = [r["elapsed_ms"] for r in records if r["status"] != "error"]
wall = wall_ns / 1e9
rate = puzzles / wall if wall > 0 else 0.0
mean = sum(times) / len(times) if times else 0.0
worst = max(times) if times else 0.0
rate_text = f"{rate:,.0f}" if rate >= 100 else f"{rate:,.2f}"
print(f"| {name} | {puzzles:,} | {unique:,} | {rate_text} | {mean:.3f} | {worst:.1f} | {timeouts} |")
PY
    if grep -q '"status":"error"' "$out/result.jsonl"; then
        echo "warning: $collection has unreadable lines (see csp sudoku count $file)" >&2
    fi
done
echo
[ ${#extra[@]} -gt 0 ] && made_with+=" -- ${extra[*]}"
echo "Made with \`scripts/bench-collections.sh --timeout $timeout$made_with\` on $(nproc) cores, one used" \
    "($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//' || echo 'unknown CPU'))."
