#!/usr/bin/env python3
"""Races csp against ACE 2.6 on a folder of XCSP3 instances with known answers and prints the table
for docs/performance-xcsp.md.

    scripts/race-core.py [--set core|competition] [--data DIR] [--timeout SECONDS] [--csp PATH]
                         [--ace PATH] [--only NAME ...] [--tsv FILE] [--no-ace] [--no-build]

--set core         ../shared/data/xcsp/core/ (answers.tsv: CSP counts and COP optima; the default)
--set competition  ../shared/data/xcsp/competition/ (answers.tsv: counts, sat, unsat, unknown)
--data DIR         the folder (instances, answers.tsv), instead of the one next to the project
--timeout SECONDS  CPU limit of each run (default 60): past it the run gets SIGTERM (csp then prints
                   the answer so far); a run also stops at the wall-clock cap (--wall)
--only NAME ...    only these instances (file names, with or without the extension)
--reuse TSV        with --only: the other instances' figures are taken from this earlier --tsv file
--wall SECONDS     the wall-clock cap of each run (default 10 x the CPU limit): on a loaded machine a
                   niced run gets a fraction of a core, and the cap must not stop it before the CPU limit
--tsv FILE         also write one row per instance, the raw figures (default /tmp/race-SET.tsv)
--files FILE ...   instead of a set: these XCSP3 files, without reference answers (coverage): each is
                   first read by `csp solve FILE --timeout 1` (refused: the output says "unsupported"
                   or the run errs), then both solvers run as above and every complete answer counts

Every instance is decompressed to a temporary .xml which both solvers read. csp runs with its default
strategy: `csp count FILE --format json` on a CSP (every solution), `csp solve FILE --format json` on
a COP (the optimum, proved). ACE runs as the answers were made (core/README.md): `java -jar
ACE-2.6.jar FILE -s=all` on a CSP, `java -jar ACE-2.6.jar FILE` on a COP, plus the options of the
`ace_options` column of answers.tsv where there is one. Both run under `nice -n 10`, one at a time,
and the CPU time (user + system) of the whole process is taken from wait4(). An answer counts when it
is complete (a count to the end, unsat proved, an optimum proved) and equals the reference; for a
reference `sat`, one solution is the answer; a reference `unknown` is reported but not judged.
Exit status 1 when any answer of csp or ACE contradicts the reference.
"""
import argparse
import json
import lzma
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TICKS = os.sysconf("SC_CLK_TCK")


def default_ace():
    """The jar pycsp3 ships, found without importing pycsp3 (which prints a warning at exit)."""
    import importlib.util

    spec = importlib.util.find_spec("pycsp3")
    if spec is None or spec.origin is None:
        return None
    return os.path.join(os.path.dirname(spec.origin), "solvers", "ace", "ACE-2.6.jar")


def reused(tsv):
    """Results of an earlier run, from its --tsv file: file -> (type, csp result, ACE result)."""
    out = {}
    with open(tsv) as f:
        header = next(f).rstrip("\n").split("\t")
        for line in f:
            d = dict(zip(header, line.rstrip("\n").split("\t")))
            res = []
            for who in ("csp", "ace"):
                kind, value = d[who + "_kind"], d[who + "_value"]
                res.append(dict(cpu=float(d[who + "_cpu"]), wall=float(d[who + "_wall"]), kind=kind,
                                value=None if value == "None" else int(value), verdict=d[who + "_verdict"],
                                complete=d[who + "_verdict"] in ("right", "WRONG", "unjudged") and kind != "bound",
                                line=line))
            out[d["file"]] = (d["type"], res[0], res[1])
    return out


def shared_set(name):
    """../shared/data/xcsp/NAME next to the project, looked for in the parents of the checkout too (a
    git worktree may sit one level deeper)."""
    here = ROOT
    while True:
        folder = os.path.join(os.path.dirname(here), "shared", "data", "xcsp", name)
        if os.path.isdir(folder) or os.path.dirname(here) == here:
            return folder
        here = os.path.dirname(here)


def read_answers(folder):
    """Rows of answers.tsv as dicts with file, answer, type (CSP/COP/None) and ace_options."""
    rows = []
    header = None
    with open(os.path.join(folder, "answers.tsv")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None and cells[0] == "file":
                header = cells
                continue
            if header is None:  # the competition file: file, answer, constraints, source
                header = ["file", "answer", "constraints", "source"]
            row = dict(zip(header, cells))
            opts = row.get("ace_options", "-")
            rows.append(dict(file=row["file"], answer=row["answer"], type=row.get("type"),
                             ace_options=[] if opts in ("", "-") else opts.split()))
    return rows


def decompress(path, tmp):
    """The instance as a plain .xml file in tmp, and whether it is a COP."""
    base = os.path.basename(path)
    name = re.sub(r"\.(xz|lzma)$", "", base)
    out = os.path.join(tmp, name)
    if base.endswith(".lzma"):
        with open(path, "rb") as f:
            data = lzma.decompress(f.read(), format=lzma.FORMAT_ALONE)
    elif base.endswith(".xz"):
        with lzma.open(path) as f:
            data = f.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    with open(out, "wb") as g:
        g.write(data)
    head = data[:2000].decode("utf-8", "replace")
    return out, re.search(r"""type\s*=\s*["']COP["']""", head) is not None


def cpu_of(pid):
    """CPU seconds (user + system, all threads) of a running process, from /proc."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


WALL = [600.0]


def measure(cmd, limit):
    """Runs cmd under nice 10 with a CPU limit; returns (stdout+stderr, cpu seconds, wall seconds,
    exit status, whether the limit stopped it)."""
    with tempfile.TemporaryFile() as out:
        t0 = time.time()
        proc = subprocess.Popen(["nice", "-n", "10"] + cmd, stdout=out, stderr=subprocess.STDOUT)
        stopped = False
        status = rusage = None
        while True:
            pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if not stopped and (cpu_of(proc.pid) > limit or time.time() - t0 > WALL[0]):
                stopped = True
                proc.send_signal(signal.SIGTERM)
                t_term = time.time()
            if stopped and time.time() - t_term > 10:
                proc.kill()
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.time() - t0
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return text, rusage.ru_utime + rusage.ru_stime, wall, proc.returncode, stopped


def last_json(text):
    """The last JSON object line of csp's output (the instance's summary)."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return None


def run_csp(csp, xml, cop, limit, first=False):
    """csp's answer: a dict with kind (count/optimum/unsat/sat/none/error), value, complete, note.
    With first, a CSP is solved (one solution) rather than counted."""
    cmd = [csp, "solve" if cop or first else "count", xml, "--format", "json"]
    text, cpu, wall, rc, stopped = measure(cmd, limit)
    d = last_json(text)
    res = dict(cpu=cpu, wall=wall, rc=rc, stopped=stopped, cmd=cmd)
    if d is None or d.get("status") == "error":
        msg = d.get("error") if d else text.strip().splitlines()[-1:] or ["no output"]
        return dict(res, kind="error", value=None, complete=False, note=str(msg)[:200])
    status = d.get("status")
    if status == "unsatisfiable":
        return dict(res, kind="unsat", value=0, complete=True, note="")
    if cop:
        obj = d.get("objective")
        if d.get("optimal") and obj is not None:
            return dict(res, kind="optimum", value=obj, complete=True, note="")
        return dict(res, kind="bound" if obj is not None else "none", value=obj, complete=False, note=status or "")
    if first:
        found = status == "solved"
        return dict(res, kind="sat" if found else "none", value=1 if found else None, complete=found, note=status or "")
    sols = d.get("solutions")
    complete = status == "solved" and bool(d.get("complete", True))
    return dict(res, kind="count", value=sols, complete=complete, note=status or "")


def run_ace(ace, xml, cop, limit, extra, first=False):
    """ACE's answer, read as core/README.md says (colour codes and thousands separators removed).
    With first, a CSP is solved (one solution) rather than counted."""
    cmd = ["java", "-jar", ace, xml] + ([] if cop or first else ["-s=all"]) + extra
    text, cpu, wall, rc, stopped = measure(cmd, limit)
    out = ANSI.sub("", text)
    res = dict(cpu=cpu, wall=wall, rc=rc, stopped=stopped, cmd=cmd)
    status = None
    for st in ("OPTIMUM FOUND", "UNSATISFIABLE", "SATISFIABLE", "UNKNOWN", "UNSUPPORTED"):
        if re.search(r"^s " + st + r"\s*$", out, re.M):
            status = st
            break
    complete = re.search(r"^d COMPLETE EXPLORATION", out, re.M) is not None and not re.search(
        r"^d INCOMPLETE EXPLORATION", out, re.M)
    m = re.search(r"^d FOUND SOLUTIONS\s+([\d,]+)", out, re.M)
    sols = int(m.group(1).replace(",", "")) if m else None
    bounds = re.findall(r"^o\s+(-?[\d,]+)", out, re.M)
    best = int(bounds[-1].replace(",", "")) if bounds else None
    if re.search(r"^! ERROR|Exception in thread", out, re.M):
        return dict(res, kind="error", value=None, complete=False, note="ACE error")
    if status == "UNSATISFIABLE" and complete:
        return dict(res, kind="unsat", value=0, complete=True, note="")
    if cop:
        if status == "OPTIMUM FOUND":
            return dict(res, kind="optimum", value=best, complete=True, note="")
        return dict(res, kind="bound" if best is not None else "none", value=best, complete=False, note="")
    if status == "SATISFIABLE" and first:
        return dict(res, kind="sat", value=1, complete=True, note="")
    if status == "SATISFIABLE":
        return dict(res, kind="count", value=sols, complete=complete, note="")
    return dict(res, kind="none", value=None, complete=False, note=status or "no answer")


def judge(ref, r):
    """'right', 'WRONG' or 'none' (no complete answer) for a solver's result r against reference ref."""
    if r["kind"] == "error":
        return "none"
    found = r["kind"] in ("count", "optimum", "bound") and r["value"] not in (None, 0)
    if ref == "unknown":
        return "unjudged" if r["complete"] else "none"
    if ref == "sat":
        if r["kind"] == "unsat":
            return "WRONG"
        return "right" if found or (r["kind"] == "count" and (r["value"] or 0) > 0) else "none"
    expected = 0 if ref == "unsat" else int(ref)
    if r["kind"] == "unsat":
        return "right" if expected == 0 else "WRONG"
    if r["kind"] == "optimum":
        return "right" if r["value"] == expected else "WRONG"
    if r["kind"] == "count":
        if r["complete"]:
            return "right" if r["value"] == expected else "WRONG"
        return "WRONG" if (r["value"] or 0) > expected else "none"
    return "none"


def show(r):
    """A result as it appears in the table: CPU time, value, state."""
    v = "-" if r["value"] is None else str(r["value"])
    if r["kind"] == "error":
        return "%.2f s, error" % r["cpu"]
    if r["kind"] == "unsat":
        return "%.2f s, unsat" % r["cpu"]
    if r["kind"] == "sat":
        return "%.2f s, sat" % r["cpu"]
    if r["complete"]:
        return "%.2f s, %s" % (r["cpu"], v) + (" (optimum)" if r["kind"] == "optimum" else "")
    return "%.2f s, %s+ (limit)" % (r["cpu"], v) if r["kind"] == "count" else "%.2f s, %s (limit)" % (r["cpu"], v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="core", choices=["core", "competition"])
    ap.add_argument("--data")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--csp", default=os.path.join(ROOT, "target", "release", "csp"))
    ap.add_argument("--ace", default=default_ace())
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--files", nargs="*")
    ap.add_argument("--reuse")
    ap.add_argument("--wall", type=float)
    ap.add_argument("--tsv")
    ap.add_argument("--no-ace", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args()
    WALL[0] = a.wall or 10 * a.timeout
    folder = a.data or shared_set(a.set)
    if a.files is None and not os.path.isfile(os.path.join(folder, "answers.tsv")):
        sys.exit("no answers.tsv in %s (give --data)" % folder)
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    if not a.no_ace and (a.ace is None or not os.path.isfile(a.ace)):
        sys.exit("ACE-2.6.jar not found (pip install pycsp3, or give --ace)")
    tsv = a.tsv or "/tmp/race-%s.tsv" % ("files" if a.files is not None else a.set)
    if a.files is not None:
        coverage(a, tsv)
        return
    rows = read_answers(folder)
    old = {}
    if a.only:
        keep = {re.sub(r"\.xml(\.xz|\.lzma)?$", "", n) for n in a.only}
        if a.reuse:
            old = reused(a.reuse)
        rows = [r for r in rows if re.sub(r"\.xml(\.xz|\.lzma)?$", "", r["file"]) in keep or r["file"] in old]
    sub = os.path.join(folder, "instances")
    results = []
    with tempfile.TemporaryDirectory() as tmp, open(tsv, "w") as t:
        t.write("file\ttype\treference\tcsp_cpu\tcsp_wall\tcsp_kind\tcsp_value\tcsp_verdict\tace_cpu\tace_wall"
                "\tace_kind\tace_value\tace_verdict\tace_options\n")
        for row in rows:
            if row["file"] in old and re.sub(r"\.xml(\.xz|\.lzma)?$", "", row["file"]) not in keep:
                kind, c, e = old[row["file"]]
                results.append((row, kind, c, e))
                t.write(c["line"])
                continue
            path = os.path.join(sub if os.path.isdir(sub) else folder, row["file"])
            xml, cop = decompress(path, tmp)
            c = run_csp(a.csp, xml, cop, a.timeout)
            c["verdict"] = judge(row["answer"], c)
            if a.no_ace:
                e = dict(cpu=0.0, wall=0.0, kind="none", value=None, complete=False, verdict="none", note="")
            else:
                e = run_ace(a.ace, xml, cop, a.timeout, row["ace_options"])
                e["verdict"] = judge(row["answer"], e)
            os.remove(xml)
            kind = "COP" if cop else "CSP"
            results.append((row, kind, c, e))
            t.write("\t".join(str(x) for x in [
                row["file"], kind, row["answer"], "%.3f" % c["cpu"], "%.2f" % c["wall"], c["kind"], c["value"],
                c["verdict"], "%.3f" % e["cpu"], "%.2f" % e["wall"], e["kind"], e["value"], e["verdict"],
                " ".join(row["ace_options"]) or "-"]) + "\n")
            t.flush()
            print("%-40s %s ref=%-8s csp %-28s %-8s ace %-28s %s" % (
                row["file"], kind, row["answer"], show(c), c["verdict"], show(e), e["verdict"]),
                file=sys.stderr, flush=True)
    report(results, a, tsv)
    wrong = [r for r in results if "WRONG" in (r[2]["verdict"], r[3]["verdict"])]
    sys.exit(1 if wrong else 0)


def reads(csp, xml):
    """Whether csp reads the file: `csp solve FILE --timeout 1` neither refuses it nor errs. Returns
    (True, "") or (False, the message)."""
    res = subprocess.run(["nice", "-n", "10", csp, "solve", xml, "--timeout", "1", "--format", "xcsp"],
                         capture_output=True, text=True, timeout=120)
    text = res.stdout + res.stderr
    if re.search(r"unsupported", text, re.I) or res.returncode not in (0, 1):
        return False, " ".join(text.strip().splitlines()[-3:])[:300]
    if res.returncode == 1 and not re.search(r"^s (UNKNOWN|SATISFIABLE|UNSATISFIABLE|OPTIMUM FOUND)", text, re.M):
        return False, " ".join(text.strip().splitlines()[-3:])[:300]
    return True, ""


def sense(xml):
    """'min' or 'max': the direction of the file's objective (read from its <objectives>)."""
    with open(xml, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return "max" if re.search(r"<objectives[^>]*>\s*<maximize", text) else "min"


def better(bound, optimum, direction):
    """Whether an unproved bound is consistent with a proved optimum: never better than it."""
    return bound >= optimum if direction == "min" else bound <= optimum


def coverage(a, tsv):
    """Runs both solvers on files without reference answers and prints one row per file."""
    with tempfile.TemporaryDirectory() as tmp, open(tsv, "w") as t:
        t.write("file\ttype\tcsp_reads\tcsp_cpu\tcsp_kind\tcsp_value\tcsp_complete\tace_cpu\tace_kind"
                "\tace_value\tace_complete\tagree\tnote\n")
        print("| file | type | csp reads | csp (CPU, answer) | ACE (CPU, answer) | agree |")
        print("| --- | --- | --- | --- | --- | --- |")
        for path in a.files:
            xml, cop = decompress(path, tmp)
            xml_sense = sense(xml)
            ok, msg = reads(a.csp, xml)
            c = run_csp(a.csp, xml, cop, a.timeout, first=True) if ok else dict(
                cpu=0.0, kind="error", value=None, complete=False, note=msg)
            e = dict(cpu=0.0, kind="none", value=None, complete=False, note="") if a.no_ace else run_ace(
                a.ace, xml, cop, a.timeout, [], first=True)
            os.remove(xml)
            agree = "-"
            if c["complete"] and e["complete"]:
                agree = "yes" if (c["kind"], c["value"]) == (e["kind"], e["value"]) else "NO"
            elif c["kind"] == "unsat" and e["kind"] in ("sat", "count", "optimum", "bound") and e["value"] is not None:
                agree = "NO"
            elif e["kind"] == "unsat" and c["kind"] in ("sat", "count", "optimum", "bound") and c["value"] is not None:
                agree = "NO"
            elif cop and None not in (c["value"], e["value"]) and (
                    (c["complete"] and not e["complete"] and not better(e["value"], c["value"], xml_sense)) or
                    (e["complete"] and not c["complete"] and not better(c["value"], e["value"], xml_sense))):
                agree = "NO"
            kind = "COP" if cop else "CSP"
            t.write("\t".join(str(x) for x in [
                os.path.basename(path), kind, "yes" if ok else "no", "%.3f" % c["cpu"], c["kind"], c["value"],
                c["complete"], "%.3f" % e["cpu"], e["kind"], e["value"], e["complete"], agree,
                (msg or c.get("note", "")).replace("\t", " ")]) + "\n")
            t.flush()
            print("| %s | %s | %s | %s | %s | %s |" % (
                os.path.basename(path), kind, "yes" if ok else "**no**: " + msg, show(c), show(e), agree),
                flush=True)


def report(results, a, tsv):
    """Prints the summary and the per-instance Markdown table."""
    n = len(results)
    csp_right = [r for r in results if r[2]["verdict"] in ("right", "unjudged")]
    csp_wrong = [r[0]["file"] for r in results if r[2]["verdict"] == "WRONG"]
    ace_wrong = [r[0]["file"] for r in results if r[3]["verdict"] == "WRONG"]
    csp_none = [r[0]["file"] for r in results if r[2]["verdict"] == "none"]
    ace_ok = [r for r in results if r[3]["verdict"] in ("right", "unjudged")]
    faster = [r for r in ace_ok if r[2]["verdict"] in ("right", "unjudged") and r[2]["cpu"] <= r[3]["cpu"]]
    csp_total = sum(r[2]["cpu"] for r in ace_ok)
    ace_total = sum(r[3]["cpu"] for r in ace_ok)
    print("## Summary (CPU limit %g s per run; raw figures in %s)\n" % (a.timeout, tsv))
    print("- instances: %d; answered by csp (right answer within the limit): %d; wrong answers: %d %s"
          % (n, len(csp_right), len(csp_wrong), csp_wrong))
    print("- not answered by csp: %d %s" % (len(csp_none), csp_none))
    if not a.no_ace:
        print("- answered by ACE within the limit: %d; wrong answers by ACE: %d %s" % (len(ace_ok), len(ace_wrong),
                                                                                     ace_wrong))
        if ace_ok:
            share = 100.0 * len(faster) / len(ace_ok)
            ratio = 100.0 * csp_total / ace_total if ace_total else 0.0
            print("- csp right and at least as fast on %d of them (%.1f%%); total CPU on those: csp %.2f s, "
                  "ACE %.2f s (%.1f%% of ACE's)" % (len(faster), share, csp_total, ace_total, ratio))
            ok = share >= 90.0 and ratio <= 50.0
            print("- criterion (>= 90%% at least as fast, <= 50%% of ACE's total CPU): %s"
                  % ("met" if ok else "NOT met"))
        slower = [r[0]["file"] for r in ace_ok if r not in faster]
        print("- where csp is not at least as fast: %s" % (slower or "none"))
    print("\n| instance | type | answer | csp (CPU, answer) | ACE (CPU, answer) | ACE answered |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row, kind, c, e in results:
        mark = lambda r: "" if r["verdict"] in ("right", "unjudged", "none") else " **%s**" % r["verdict"]
        print("| %s | %s | %s | %s%s | %s%s | %s |" % (
            row["file"], kind, row["answer"], show(c), mark(c), show(e), mark(e),
            "yes" if e["verdict"] in ("right", "unjudged") else "no"))


if __name__ == "__main__":
    main()
