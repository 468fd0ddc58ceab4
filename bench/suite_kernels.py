#!/usr/bin/python3
"""clcapture-verify on large kernels of public OpenCL benchmark suites (issue 26): Rodinia, SHOC and Parboil,
each kernel instantiated as its host program launches it at the suite's documented problem size; for each
instantiation the verdict, the cause of an `unknown` or `defects`, the wall time and the peak memory.

usage: suite_kernels.py --rodinia DIR --shoc DIR --parboil DIR [--verify BIN] [--timeout S] [--only SUBSTR]
                        [--json OUT] [--markdown OUT] [--keep DIR] [--list]

  --rodinia DIR   github:yuhc/gpu-rodinia (a bare mirror or a checkout): opencl/
  --shoc DIR      github:vetter/shoc: src/opencl/
  --parboil DIR   github:yuhc/gpu-parboil: benchmarks/*/src/opencl*
  --verify BIN    clcapture-verify (default build/bin/clcapture-verify beside this script's repository)
  --timeout S     clcapture-verify --timeout per instantiation (default 120)
  --only SUBSTR   only instantiations whose name (suite/program/entry[/variant]) contains SUBSTR
  --json OUT      every record (launch, verdict, cause, seconds, peak MiB) and the summary
  --markdown OUT  the table and the summary as Markdown (for docs/verify-benchmark.md)
  --keep DIR      keep the generated capture folders (and each report, R.json) under DIR/<name>/
  --list          print the instantiations and what is skipped, run nothing

The instantiations are in bench/suite_kernels_table.py, each read off its host program (build options,
NDRange, buffer sizes and access flags, `__local` sizes, scalar values); the kernel sources (and the
headers they include) are read from the repositories at run time and never copied into this one. Each
instantiation becomes its own capture folder (captures.json + captures.meta.json + kernels/; sizes and
values, no buffer contents), so that `/usr/bin/time -f '%e %M' clcapture-verify --no-cache -j 1
--timeout=S --format=json --output=R.json DIR` measures that instantiation alone: wall seconds and peak
RSS. Only /usr/bin/python3 and its standard library.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "kernels"))
import run_kernel  # noqa: E402  (build_capture: the corpus's capture writer)
import suite_kernels_table as table  # noqa: E402

SUITES = {"rodinia": "github:yuhc/gpu-rodinia", "shoc": "github:vetter/shoc", "parboil": "github:yuhc/gpu-parboil"}


class Repository:
    """Files of one suite's repository: a bare mirror read with `git show HEAD:path`, a checkout as is."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        git = ["git", "-C", self.path]
        bare = subprocess.run(git + ["rev-parse", "--is-bare-repository"], capture_output=True, text=True)
        self.bare = bare.returncode == 0 and bare.stdout.strip() == "true"
        head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True)
        self.commit = head.stdout.strip() if head.returncode == 0 else "unknown"

    def read(self, name):
        if not self.bare:
            with open(os.path.join(self.path, name), encoding="utf-8", errors="replace") as f:
                return f.read()
        r = subprocess.run(["git", "-C", self.path, "show", f"HEAD:{name}"], capture_output=True)
        if r.returncode != 0:
            raise SystemExit(f"{self.path}: cannot read {name}: {r.stderr.decode(errors='replace').strip()}")
        return r.stdout.decode("utf-8", errors="replace")


def embedded_source(host_text, array):
    """The OpenCL source a host program holds as `const char *ARRAY[] = {"…", "…"};`, its strings joined
    as clCreateProgramWithSource joins them (no separator)."""
    m = re.search(r"\b" + re.escape(array) + r"\s*\[\s*\]\s*=\s*\{(.*?)\};", host_text, re.S)
    if not m:
        raise SystemExit(f"no string array {array} in the host file")
    literals = re.findall(r'"((?:\\.|[^"\\])*)"', m.group(1))
    return "".join(bytes(s, "utf-8").decode("unicode_escape") for s in literals)


# ---------------------------------------------------------------------------------------------------------
# One instantiation: its capture folder, then clcapture-verify on it


def write_capture(folder, kernel, repos):
    """The capture folder of one instantiation (kernels/<source>, included headers beside it)."""
    repo = repos[kernel.suite]
    text = repo.read(kernel.source)
    if kernel.embedded:
        text = embedded_source(text, kernel.embedded)
    file_name = os.path.basename(kernel.source)
    if kernel.embedded:
        file_name = os.path.splitext(file_name)[0] + ".cl"
    launch = {"args": {}, "sizes": {}, "data": {}, "alias": {}, "flags": {}}
    params = []
    for arg in kernel.args:
        params.append((arg.name, arg.kind))
        if arg.kind == "scalar":
            if arg.value is not None:
                launch["args"][arg.name] = arg.value
        else:
            launch["sizes"][arg.name] = arg.size
            launch["flags"][arg.name] = list(arg.flags)
    if len({name for name, _ in params}) != len(params):
        raise SystemExit(f"{kernel.name}: two arguments share a name")
    inst = {"language": "OpenCL", "endianness": "little", "global_size": list(kernel.gsize),
            "compiler_flags": kernel.flags}
    if kernel.lsize is not None:
        inst["local_size"] = list(kernel.lsize)
    run_kernel.build_capture(folder, file_name, text, kernel.entry, params, inst, launch)
    for include, path in kernel.headers.items():
        target = os.path.join(folder, "kernels", include)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(repo.read(path))


def cause_of(result):
    """The verdict's cause in one line: unknown/error reason, or each finding's kind, place and line."""
    parts = []
    if result.get("reason"):
        parts.append(result["reason"])
    for finding in result.get("findings", []):
        where = ", ".join(f"{a['location']['file'].split('/')[-1]}:{a['location']['line']}"
                          for a in finding.get("accesses", []) if "location" in a)
        kind = finding.get("kind", "?")
        if finding.get("conflict"):
            kind += f" ({finding['conflict']}{', benign' if finding.get('benign') else ''})"
        what = " ".join(str(finding[k]) for k in ("memory", "array") if finding.get(k))
        parts.append(f"{kind} {what} at {where}".strip() if where else f"{kind} {what}: {finding.get('message', '')}")
    return "; ".join(parts)


def verify(kernel, folder, o):
    """Runs clcapture-verify on the capture folder: the record of this instantiation."""
    report, times = os.path.join(folder, "R.json"), os.path.join(folder, "time.txt")
    cmd = ["/usr/bin/time", "-f", "%e %M", "-o", times, o.verify, "--no-cache", "-j", "1",
           f"--timeout={o.timeout}", "--format=json", f"--output={report}", folder]
    record = {"name": kernel.name, "suite": kernel.suite, "program": kernel.program, "entry": kernel.entry,
              "variant": kernel.variant, "source": kernel.source, "size": kernel.size, "flags": kernel.flags,
              "global_size": kernel.gsize, "local_size": kernel.lsize, "note": kernel.note,
              "open_scalars": [a.name for a in kernel.args if a.kind == "scalar" and a.value is None]}
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=2 * o.timeout + 120)
    except subprocess.TimeoutExpired:
        record.update(verdict="error", cause=f"killed after {2 * o.timeout + 120} s", seconds=None, peak_mib=None)
        return record
    try:
        wall, rss = open(times, encoding="utf-8").read().strip().splitlines()[-1].split()
        record.update(seconds=float(wall), peak_mib=int(rss) / 1024, exit_status=run.returncode)
    except (OSError, ValueError, IndexError):
        record.update(seconds=None, peak_mib=None, exit_status=run.returncode)
    try:
        with open(report, encoding="utf-8") as f:
            result = json.load(f)["results"][0]
        record.update(verdict=result["verdict"], cause=cause_of(result), findings=result.get("findings", []),
                      verify_seconds=result.get("seconds"), analysis_peak_mib=result.get("peak_memory_mib"))
    except (OSError, ValueError, KeyError, IndexError):
        record.update(verdict="error", cause=f"exit {run.returncode}: " + (run.stderr.strip()[-400:] or "no report"))
    return record


# ---------------------------------------------------------------------------------------------------------
# Output


def percentile(values, p):
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)] if ordered else None


def summary_of(records):
    times = [r["seconds"] for r in records if r.get("seconds") is not None]
    mems = [r["peak_mib"] for r in records if r.get("peak_mib") is not None]
    counts = {v: sum(1 for r in records if r["verdict"] == v) for v in ("verified", "defects", "unknown", "error")}
    return {"instantiations": len(records), **counts,
            "median_seconds": statistics.median(times) if times else None,
            "p95_seconds": percentile(times, 95), "max_seconds": max(times) if times else None,
            "over_60_seconds": sum(1 for t in times if t > 60), "max_peak_mib": max(mems) if mems else None}


def launch_text(r):
    g = "×".join(map(str, r["global_size"]))
    return g + (" / " + "×".join(map(str, r["local_size"])) if r["local_size"] else " / NULL")


def markdown(records, skipped, summary):
    def cell(text):
        return str(text).replace("|", "\\|").replace("\n", " ")
    lines = ["| # | suite | program | kernel | global / local | verdict | cause | s | peak MiB |",
             "|---:|---|---|---|---|---|---|---:|---:|"]
    for i, r in enumerate(records, 1):
        kernel = r["entry"] + (f" ({r['variant']})" if r["variant"] else "")
        secs = "—" if r.get("seconds") is None else f"{r['seconds']:.2f}"
        mem = "—" if r.get("peak_mib") is None else f"{r['peak_mib']:.0f}"
        lines.append(f"| {i} | {r['suite']} | {r['program']} | `{kernel}` | {launch_text(r)} | {r['verdict']} | "
                     f"{cell(r.get('cause') or '')} | {secs} | {mem} |")
    s = summary
    lines += ["", f"{s['instantiations']} instantiations: {s['verified']} verified, {s['defects']} defects, "
              f"{s['unknown']} unknown, {s['error']} error.",
              f"Seconds: median {s['median_seconds']:.2f}, 95th percentile {s['p95_seconds']:.2f}, "
              f"max {s['max_seconds']:.2f}; {s['over_60_seconds']} past 60 s. Peak memory: max "
              f"{s['max_peak_mib']:.0f} MiB." if s["median_seconds"] is not None else "No times."]
    if skipped:
        lines += ["", "Skipped:", ""] + [f"- {suite} {program}: {why}" for suite, program, why in skipped]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for suite, where in SUITES.items():
        p.add_argument(f"--{suite}", metavar="DIR", help=f"{where} (a bare mirror or a checkout)")
    p.add_argument("--verify", default=os.path.join(REPO, "build", "bin", "clcapture-verify"))
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--only", default="")
    p.add_argument("--json")
    p.add_argument("--markdown")
    p.add_argument("--keep")
    p.add_argument("--list", action="store_true")
    o = p.parse_args()
    kernels = [k for k in table.all_kernels() if o.only in k.name]
    if o.list:
        for k in kernels:
            opened = [a.name for a in k.args if a.kind == "scalar" and a.value is None]
            anyof = f" any {', '.join(opened)}" if opened else ""
            print(f"{k.name}: {k.gsize} / {k.lsize} {k.flags!r} ({k.size}){anyof}")
        for suite, program, why in table.SKIPPED:
            print(f"skipped {suite} {program}: {why}")
        return
    missing = sorted({k.suite for k in kernels if not getattr(o, k.suite)})
    if missing:
        p.error("needs " + ", ".join(f"--{m} ({SUITES[m]})" for m in missing))
    repos = {suite: Repository(getattr(o, suite)) for suite in SUITES if getattr(o, suite)}
    scratch = tempfile.mkdtemp(prefix="suite-kernels-")
    records = []
    try:
        for index, kernel in enumerate(kernels, 1):
            folder = os.path.join(o.keep or scratch, kernel.name.replace("/", "__"))
            shutil.rmtree(folder, ignore_errors=True)
            write_capture(folder, kernel, repos)
            record = verify(kernel, folder, o)
            records.append(record)
            secs = "—" if record.get("seconds") is None else f"{record['seconds']:.2f} s"
            print(f"[{index}/{len(kernels)}] {kernel.name}: {record['verdict']} {secs} "
                  f"{record.get('cause', '')[:160]}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    summary = summary_of(records)
    text = markdown(records, table.SKIPPED if not o.only else [], summary)
    sys.stdout.write(text)
    if o.markdown:
        with open(o.markdown, "w", encoding="utf-8") as f:
            f.write(text)
    if o.json:
        meta = {"date": datetime.date.today().isoformat(), "verify": o.verify, "timeout": o.timeout,
                "repositories": {s: {"path": r.path, "commit": r.commit} for s, r in repos.items()}}
        with open(o.json, "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "summary": summary, "records": records,
                       "skipped": [dict(zip(("suite", "program", "reason"), s)) for s in table.SKIPPED]}, f, indent=1)


if __name__ == "__main__":
    main()
