#!/usr/bin/env python3
"""csp against Gecode on instances of the MiniZinc benchmarks (issue 41).

Each instance of the list is compiled twice with `minizinc -c`: for csp (its
library, through a copy of csp.msc with absolute paths) and for Gecode. Each
FlatZinc file is run with a limit of LIMIT ms (`-t`) and killed at LIMIT + 5 s;
wall and CPU time of the solver process are measured (compile time is measured
and reported apart, not counted in the times compared). The last csp solution
is checked by re-solving the model with Gecode, its output values fixed by a
.dzn file. Results go to a TSV; a Markdown table and summary are printed.

Python 3 standard library only. Run one instance at a time (one core).
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIELDS = [
    "problem", "model", "data", "kind",
    "csp_status", "csp_obj", "csp_wall", "csp_cpu", "csp_compile",
    "gecode_status", "gecode_obj", "gecode_wall", "gecode_cpu", "gecode_compile",
    "check", "flag", "note",
]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", required=True, help="root of minizinc-benchmarks")
    ap.add_argument("--list", default=os.path.join(ROOT, "scripts", "minizinc-bench.list"))
    ap.add_argument("--fzn-csp", default=os.path.join(ROOT, "target", "release", "fzn-csp"))
    ap.add_argument("--gecode-mznlib", required=True,
                    help="Gecode's library for MiniZinc 2.6.4 (scripts/gecode-mznlib.py)")
    ap.add_argument("--limit", type=int, default=30000, help="solver limit in ms")
    ap.add_argument("--work", default="/tmp/minizinc-bench")
    ap.add_argument("--out", default="minizinc-bench.tsv")
    ap.add_argument("--only", default="", help="comma-separated problems to run")
    ap.add_argument("--table", action="store_true", help="only print the table of --out")
    return ap.parse_args()


def read_list(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            problem, model = parts[0], parts[1]
            data = parts[2] if len(parts) > 2 else ""
            out.append((problem, model, data))
    return out


def gecode_msc(work, mznlib):
    """Gecode's solver configuration with the library of gecode-mznlib.py."""
    with open("/usr/share/minizinc/solvers/gecode.msc") as f:
        text = re.sub(r",\s*\]", "]", f.read())  # a trailing comma
    msc = json.loads(text)
    msc.update(id="org.gecode.gecode62", name="Gecode62", mznlib=os.path.abspath(mznlib))
    path = os.path.join(work, "solvers", "gecode62.msc")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(msc, f, indent=2)
    return path


def solver_dir(work, fzn_csp):
    """A copy of csp.msc with absolute paths, in its own directory."""
    src = os.path.join(ROOT, "csp-fzn", "share", "minizinc", "solvers", "csp.msc")
    with open(src) as f:
        msc = json.load(f)
    msc["executable"] = os.path.abspath(fzn_csp)
    msc["mznlib"] = os.path.join(ROOT, "csp-fzn", "share", "minizinc", "csp")
    d = os.path.join(work, "solvers")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "csp.msc"), "w") as f:
        json.dump(msc, f, indent=2)
    return os.path.join(d, "csp.msc")


def run(cmd, limit_s, stdin=None, env=None, cwd=None):
    """Runs cmd, kills it at limit_s; returns (rc, wall, cpu, out, err, killed)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, cwd=cwd,
                         start_new_session=True)
    killed = False
    # Read the pipes in threads so the child never blocks on a full pipe.
    bufs = {"out": [], "err": []}

    def pump(stream, key):
        for chunk in iter(lambda: stream.read(65536), b""):
            bufs[key].append(chunk)

    ts = [threading.Thread(target=pump, args=(p.stdout, "out")),
          threading.Thread(target=pump, args=(p.stderr, "err"))]
    for t in ts:
        t.start()
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - t0 > limit_s:
            killed = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            pid, status, ru = os.wait4(p.pid, 0)
            break
        time.sleep(0.01)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in ts:
        t.join()
    cpu = ru.ru_utime + ru.ru_stime
    out = b"".join(bufs["out"]).decode("utf-8", "replace")
    err = b"".join(bufs["err"]).decode("utf-8", "replace")
    return p.returncode, wall, cpu, out, err, killed


def solve_kind(fzn):
    with open(fzn) as f:
        text = f.read()
    m = re.search(r"^solve\b.*?\b(satisfy|minimize|maximize)\b", text, re.M | re.S)
    return m.group(1) if m else "?"


def status_of(out, rc, err, killed, kind, who):
    if "panicked" in err or (rc is not None and rc < 0 and not killed):
        return "CRASH"
    lines = out.splitlines()
    if "=====UNSATISFIABLE=====" in lines:
        return "UNSAT"
    has_sol = "----------" in lines
    if has_sol and "==========" in lines:
        return "OPTIMAL" if kind != "satisfy" else "SAT"
    if has_sol:
        return "SAT"
    if rc not in (0, None) and not killed:
        return "REFUSED" if who == "csp" and rc == 1 else "ERROR"
    return "UNKNOWN"


def last_solution(raw, ozn, env):
    """The last solution of raw FlatZinc output, in dzn form, via solns2out."""
    r = subprocess.run(["minizinc", "--ozn-file", ozn], input=raw.encode(),
                       capture_output=True, env=env, timeout=600)
    text = r.stdout.decode("utf-8", "replace")
    blocks = text.split("----------")
    if len(blocks) < 2:
        return None
    return blocks[-2].strip()


def objective_of(dzn):
    if dzn is None:
        return ""
    m = re.search(r"^_objective\s*=\s*(-?\d+)\s*;", dzn, re.M)
    return m.group(1) if m else ""


def answered(status, kind):
    return status in ("OPTIMAL", "UNSAT") or (status == "SAT" and kind == "satisfy")


def check_solution(bench, model, data, dzn, work, name, obj, kind, gecode):
    """Re-solves the model with Gecode, the solution's values fixed."""
    body = "\n".join(l for l in dzn.splitlines() if not l.startswith("_objective"))
    sol = os.path.join(work, name + ".sol.dzn")
    with open(sol, "w") as f:
        f.write(body + "\n")
    cmd = ["minizinc", "--solver", gecode, "--output-mode", "dzn",
           "--output-objective", "-t", "120000", model]
    if data:
        cmd.append(data)
    cmd.append(sol)
    rc, wall, cpu, out, err, killed = run(cmd, 180, cwd=bench)
    if "=====UNSATISFIABLE=====" in out:
        return "FAIL(unsat)"
    if "----------" not in out:
        msg = (err.strip().splitlines() or ["?"])[-1][:80]
        return "ERROR(" + msg + ")"
    if kind != "satisfy":
        got = objective_of(out.split("----------")[-2])
        if got != obj:
            return "FAIL(obj %s)" % got
    return "ok"


def better(a, b, kind):
    a, b = int(a), int(b)
    return a < b if kind == "minimize" else a > b


def flags(r):
    kind, cs, gs = r["kind"], r["csp_status"], r["gecode_status"]
    co, go = r["csp_obj"], r["gecode_obj"]
    out = []
    sols = ("SAT", "OPTIMAL")
    if cs == "UNSAT" and gs in sols or gs == "UNSAT" and cs in sols:
        out.append("sat-vs-unsat")
    if kind != "satisfy" and co and go:
        if cs == "OPTIMAL" and gs == "OPTIMAL" and co != go:
            out.append("optima-differ")
        elif cs == "OPTIMAL" and better(go, co, kind):
            out.append("gecode-beats-csp-optimum")
        elif gs == "OPTIMAL" and better(co, go, kind):
            out.append("csp-beats-gecode-optimum")
    if r["check"].startswith("FAIL"):
        out.append("bad-solution")
    if cs == "CRASH":
        out.append("crash")
    return ",".join(out)


def bench_one(args, env, solvers, problem, model, data):
    work = args.work
    rec = {k: "" for k in FIELDS}
    rec.update(problem=problem, model=model, data=data)
    limit_s = args.limit / 1000.0
    for who in ("csp", "gecode"):
        solver = solvers[who]
        fzn = os.path.join(work, "%s.%s.fzn" % (problem, who))
        ozn = os.path.join(work, "%s.%s.ozn" % (problem, who))
        cmd = ["minizinc", "-c", "--solver", solver, "--output-mode", "dzn",
               "--output-objective", model] + ([data] if data else []) + \
              ["--fzn", fzn, "--ozn", ozn]
        rc, wall, _, out, err, killed = run(cmd, 300, env=env, cwd=args.bench)
        rec[who + "_compile"] = "%.2f" % wall
        if rc != 0 or killed:
            rec[who + "_status"] = "COMPILE-ERROR"
            rec["note"] += "%s compile: %s; " % (who, (err.strip().splitlines() or ["killed"])[-1][:100])
            continue
        rec["kind"] = solve_kind(fzn)
        if who == "csp":
            cmd = [os.path.abspath(args.fzn_csp), "-t", str(args.limit), fzn]
        else:
            cmd = ["fzn-gecode", "-t", str(args.limit), "-p", "1", fzn]
        rc, wall, cpu, out, err, killed = run(cmd, limit_s + 5)
        st = status_of(out, rc, err, killed, rec["kind"], who)
        rec[who + "_status"] = st
        rec[who + "_wall"] = "%.2f" % wall
        rec[who + "_cpu"] = "%.2f" % cpu
        if st in ("REFUSED", "ERROR", "CRASH"):
            rec["note"] += "%s: %s; " % (who, (err.strip().splitlines() or ["rc %s" % rc])[-1][:120])
        if killed:
            rec["note"] += "%s killed; " % who
        with open(os.path.join(work, "%s.%s.out" % (problem, who)), "w") as f:
            f.write(out)
        with open(os.path.join(work, "%s.%s.err" % (problem, who)), "w") as f:
            f.write(err)
        if st in ("SAT", "OPTIMAL"):
            dzn = last_solution(out, ozn, env)
            rec[who + "_obj"] = objective_of(dzn)
            if who == "csp" and dzn is not None:
                rec["check"] = check_solution(args.bench, model, data, dzn, work,
                                              problem, rec["csp_obj"], rec["kind"],
                                              solvers["gecode"])
    rec["flag"] = flags(rec)
    return rec


def fmt_time(r, who):
    st = r[who + "_status"]
    if not r[who + "_wall"]:
        return st, "", r[who + "_obj"]
    return st, r[who + "_wall"], r[who + "_obj"]


def table(rows):
    print("| problem | instance | kind | csp | time (s) | objective | Gecode | time (s) | objective | check | flag |")
    print("| --- | --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- |")
    for r in rows:
        inst = os.path.basename(r["data"] or r["model"])
        c = fmt_time(r, "csp")
        g = fmt_time(r, "gecode")
        kind = {"satisfy": "sat", "minimize": "min", "maximize": "max"}.get(r["kind"], r["kind"])
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["problem"], inst, kind, c[0], c[1], c[2], g[0], g[1], g[2], r["check"], r["flag"]))
    n = len(rows)
    ca = [r for r in rows if answered(r["csp_status"], r["kind"])]
    ga = [r for r in rows if answered(r["gecode_status"], r["kind"])]
    both = [r for r in ca if answered(r["gecode_status"], r["kind"])]
    ct = sum(float(r["csp_wall"]) for r in both)
    gt = sum(float(r["gecode_wall"]) for r in both)
    ccpu = sum(float(r["csp_cpu"]) for r in both)
    gcpu = sum(float(r["gecode_cpu"]) for r in both)
    print()
    print("| | csp | Gecode |")
    print("| --- | ---: | ---: |")
    print("| instances | %d | %d |" % (n, n))
    print("| answered | %d | %d |" % (len(ca), len(ga)))
    print("| answered by both | %d | %d |" % (len(both), len(both)))
    print("| wall time on those (s) | %.2f | %.2f |" % (ct, gt))
    print("| CPU time on those (s) | %.2f | %.2f |" % (ccpu, gcpu))
    if gt > 0:
        print("\ncsp/Gecode wall time ratio on instances both answered: %.3f" % (ct / gt))
    only_g = [r["problem"] for r in ga if r not in ca]
    only_c = [r["problem"] for r in ca if r not in ga]
    print("answered by Gecode only: %s" % (", ".join(only_g) or "none"))
    print("answered by csp only: %s" % (", ".join(only_c) or "none"))
    fl = [(r["problem"], r["flag"]) for r in rows if r["flag"]]
    print("flags: %s" % (", ".join("%s (%s)" % f for f in fl) or "none"))


def main():
    args = parse_args()
    if args.table:
        with open(args.out) as f:
            lines = f.read().splitlines()
        rows = [dict(zip(FIELDS, l.split("\t"))) for l in lines[1:]]
        table(rows)
        return
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ)
    solvers = {"csp": solver_dir(args.work, args.fzn_csp),
               "gecode": gecode_msc(args.work, args.gecode_mznlib)}
    insts = read_list(args.list)
    if args.only:
        keep = set(args.only.split(","))
        insts = [i for i in insts if i[0] in keep]
    rows = []
    with open(args.out, "w") as f:
        f.write("\t".join(FIELDS) + "\n")
        for problem, model, data in insts:
            rec = bench_one(args, env, solvers, problem, model, data)
            rows.append(rec)
            f.write("\t".join(rec[k].replace("\t", " ") for k in FIELDS) + "\n")
            f.flush()
            print("%-24s csp %-9s %7s %8s | gecode %-9s %7s %8s | %s %s" % (
                problem, rec["csp_status"], rec["csp_wall"], rec["csp_obj"],
                rec["gecode_status"], rec["gecode_wall"], rec["gecode_obj"],
                rec["check"], rec["flag"]), file=sys.stderr, flush=True)
    table(rows)


if __name__ == "__main__":
    main()
