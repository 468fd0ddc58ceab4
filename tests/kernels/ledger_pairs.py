#!/usr/bin/python3
"""Checks that every fact of the ledger (docs/semantics.md, section 1) is pinned by the corpus: each row's
"pair" column names kernels of tests/kernels/ that exist, and at least one of them breaks a condition of the
fact — a kernel whose expectation is not `//pass` (defects or unknown), so that a fact asserted without that
condition would make it `verified` and fail its own test.

usage: ledger_pairs.py SEMANTICS.md CORPUS_DIR
"""
import os
import re
import sys


def ledger_rows(text):
    """(row id, pair column) of every row of section 1's table."""
    section = text.split("## 1.", 1)[1].split("\n## 2.", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and re.fullmatch(r"\d+[a-z]?", cells[0]):
            rows.append((cells[0], cells[-1]))
    return rows


def corpus_kernels(pair, corpus):
    """The corpus kernels a pair column names (`category/name`; other names, such as GPUVerify's tests, are
    not the corpus's)."""
    categories = {d for d in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, d))}
    names = []
    for token in re.findall(r"`([^`]+)`", pair):
        token = token.strip()
        if token.startswith("tests/kernels/"):
            token = token[len("tests/kernels/"):]
        if "/" in token and token.split("/", 1)[0] in categories and "*" not in token:
            names.append(token)
    return names


def expectation(path):
    with open(path, encoding="utf-8") as f:
        return f.readline().strip()


def main():
    semantics, corpus = sys.argv[1], sys.argv[2]
    with open(semantics, encoding="utf-8") as f:
        rows = ledger_rows(f.read())
    if len(rows) < 30:
        print(f"FAIL: only {len(rows)} ledger rows read from {semantics}")
        return 1
    failures = 0
    for row, pair in rows:
        names = corpus_kernels(pair, corpus)
        missing = [n for n in names if not os.path.exists(os.path.join(corpus, n + ".cl"))]
        breaking = [n for n in names if n not in missing and expectation(os.path.join(corpus, n + ".cl")) != "//pass"]
        if missing:
            print(f"FAIL  row {row}: names kernels that do not exist: {', '.join(missing)}")
            failures += 1
        elif not breaking:
            print(f"FAIL  row {row}: no kernel that breaks a condition of the fact (every named kernel is //pass"
                  f" or none is named: {pair[:100]!r})")
            failures += 1
        else:
            print(f"ok    row {row}: {len(breaking)} of {len(names)} kernels break a condition")
    print(f"ledger pairs: {len(rows)} rows, {failures} without a condition-breaking kernel")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
