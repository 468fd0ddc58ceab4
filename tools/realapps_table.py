#!/usr/bin/python3
"""Renders the summaries tests/realapps/run_app.py wrote (WORK/APP/summary.json) as the Markdown tables of
docs/real-apps.md.

usage: tools/realapps_table.py [WORK]     (default: build/tests/realapps/work)
"""
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    work = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tests", "realapps", "work")
    rows = []
    for path in sorted(glob.glob(os.path.join(work, "*", "summary.json"))):
        with open(path, encoding="utf-8") as f:
            rows.append(json.load(f))
    print("| program | launches (PoCL) | instantiations | distinct | capture MB | bare s | captured s | verify s "
          "| verified | defects | unknown | error |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    total = {"distinct": 0, "unknown": 0}
    for s in rows:
        v = s.get("verdicts", {})
        total["distinct"] += s.get("distinct", 0)
        total["unknown"] += v.get("unknown", 0)
        print(f"| {s['app']} | {s['launches']} | {s['instantiations']} | {s.get('distinct', '—')} "
              f"| {s['capture_bytes'] / 1e6:.1f} | {s['bare_seconds']} | {s['captured_seconds']} "
              f"| {s.get('verify_seconds', '—')} | {v.get('verified', 0)} | {v.get('defects', 0)} "
              f"| {v.get('unknown', 0)} | {v.get('error', 0)} |")
    if total["distinct"]:
        print(f"\nUnknown: {total['unknown']} of {total['distinct']} distinct instantiations "
              f"({100 * total['unknown'] / total['distinct']:.1f} %).")
    print("\nUnknown causes (distinct instantiations):\n")
    for s in rows:
        if s.get("unknown_causes"):
            causes = ", ".join(f"{c}: {n}" for c, n in sorted(s["unknown_causes"].items(), key=lambda x: -x[1]))
            print(f"- {s['app']}: {causes}")
    print("\nFindings:\n")
    for s in rows:
        seen = set()
        for f in s.get("findings", []):
            key = (f["entry_point"], f["message"], f["where"])
            if key in seen:
                continue
            seen.add(key)
            print(f"- {s['app']} #{f['instantiation']} `{f['entry_point']}` {f['severity']}: {f['message']} at "
                  f"`{f['where']}`, work-items {f['work_items'][0]} and {f['work_items'][1]}")
            if len(seen) >= 4:
                print(f"- {s['app']}: … ({len(s['findings'])} findings in all)")
                break


if __name__ == "__main__":
    main()
