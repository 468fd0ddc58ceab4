#!/usr/bin/python3
"""The tree's shape, checked: includes point one way, files and functions stay small.

  architecture.py [--root DIR] includes   every `#include` of the production code (layer/, common/, analyzer/,
                             bugreport/) resolved to a file of the repository; fails on a loop (a set of
                             files that include each other, directly or not) and on an include that
                             points up: from a folder to one that the table `MAY_USE` below does not
                             list for it (the same table as the READMEs' "may depend on" columns).
  architecture.py [--root DIR] sizes      fails on a production file over 800 lines or a function over 150 lines
                             (universal-ctags finds the functions; tables are listed in `TABLES`).

Both print every offence, one per line, `file: what`, and exit 1 if there is any.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("common", "layer", "analyzer", "bugreport", "debugger")
SOURCE_SUFFIXES = {".h", ".hpp", ".c", ".cpp", ".cc"}
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 150

# Which folder may include which (folders are matched longest prefix first). The analyzer's phases depend
# downwards only: cli -> pipeline -> check -> encode -> model -> frontend, everything may use report/ and
# common/ (analyzer/README.md); the layer, the bug-report tools and the analyzer share only common/
# (README.md, "Layout"); the analyzer also reads archives through bugreport/archive; the debugger plans its
# launch with bugreport/replay (debugger/README.md). Inside libclcapture.so
# (layer/README.md): dispatch (drivers, tables, hooks) -> engine (what the hooks learn) -> writer (the writer
# thread, the folder) -> process (settings, switch, log, call sites).
MAY_USE = {
    "common": [],
    "layer/src/process": ["common"],
    "layer/src/writer": ["layer/src/process", "common"],
    "layer/src/engine": ["layer/src/writer", "layer/src/process", "common"],
    "layer/src/dispatch": ["layer/src/engine", "layer/src/writer", "layer/src/process", "common"],
    "layer/frontends": ["layer/src/dispatch", "layer/src/engine", "layer/src/writer", "layer/src/process",
                        "common"],
    "layer/launcher": ["layer/src/dispatch", "layer/src/process", "common"],
    "bugreport/archive": ["common"],
    "bugreport/replay": ["bugreport/archive", "common"],
    "bugreport/export": ["bugreport/archive", "bugreport/replay", "common"],
    "bugreport/pack": ["bugreport/archive", "common"],
    "analyzer/report": ["common"],
    "analyzer/frontend": ["analyzer/report", "common"],
    "analyzer/model": ["analyzer/frontend", "analyzer/report", "common"],
    "analyzer/encode": ["analyzer/model", "analyzer/frontend", "analyzer/report", "common"],
    "analyzer/check": ["analyzer/encode", "analyzer/model", "analyzer/frontend", "analyzer/report", "common"],
    "analyzer/pipeline": ["analyzer/check", "analyzer/encode", "analyzer/model", "analyzer/frontend",
                          "analyzer/report", "common"],
    "debugger/trace": ["common"],
    "debugger/instrument": ["debugger/trace", "analyzer/frontend", "common"],
    "debugger": ["debugger/trace", "bugreport/replay", "bugreport/archive", "common"],
    "analyzer/cli": ["analyzer/pipeline", "analyzer/check", "analyzer/encode", "analyzer/model",
                     "analyzer/frontend", "analyzer/report", "bugreport/archive", "common"],
}

# Functions allowed past MAX_FUNCTION_LINES because they are tables (one entry per line), by
# "path:function name".
TABLES = set()

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def production_files():
    for top in PRODUCTION:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                yield path


def folder_of(rel):
    """The MAY_USE key a repository-relative path belongs to (longest prefix), or None."""
    best = None
    for key in MAY_USE:
        if rel == key or rel.startswith(key + "/"):
            if best is None or len(key) > len(best):
                best = key
    return best


def include_index(files):
    """Maps an include spelling's path tail (`clcapture/x/Y.h`, `Y.h`) to the files it can name."""
    index = {}
    for f in files:
        parts = f.relative_to(ROOT).parts
        for i in range(len(parts)):
            index.setdefault("/".join(parts[i:]), []).append(f)
    return index


def resolve(source, quote, spelled, index):
    if quote == '"':
        local = (source.parent / spelled).resolve()
        if local.is_file() and local.is_relative_to(ROOT):
            return local
    # <clcapture/...> and "..." through -I: the include folders of the tree, matched by path tail. A
    # spelling that names files in several folders resolves to the one nearest the including file.
    candidates = index.get(spelled, [])
    if not candidates:
        return None
    def distance(c):
        common = os.path.commonpath([str(c), str(source)])
        return len(Path(str(source)).relative_to(common).parts)
    return min(candidates, key=distance)


def unit_of(path):
    """A header and the source file that implements it are one unit: `layer/src/engine/X.h` and `X.cpp` beside it
    are `layer/src/engine/X`, and a public header `common/include/clcapture/X.h` is one with `common/src/X.cpp`. A
    loop between units (X.cpp includes Y.h and Y.cpp includes X.h) is a loop of the design even though no
    header includes itself. XImpl.h, X's private half, is part of X."""
    rel = path.relative_to(ROOT).with_suffix("")
    if rel.name.endswith("Impl") and len(rel.name) > 4:
        # X.h's private half (XImpl.h, the definitions X.cpp and its helpers share) is part of unit X.
        rel = rel.with_name(rel.name[:-4])
    parts = list(rel.parts)
    if "include" in parts:
        # <top>/include/clcapture/<...>/X -> <top>/src/X (where the implementation lives)
        i = parts.index("include")
        stem = parts[-1]
        for candidate in (ROOT.joinpath(*parts[:i], "src", stem + s) for s in (".cpp", ".c")):
            if candidate.is_file():
                return str(candidate.relative_to(ROOT).with_suffix(""))
    return str(rel)


def include_graph():
    """Units (unit_of) and the units each includes, with the files that make each edge."""
    files = list(production_files())
    index = include_index(files)
    graph, evidence = {}, {}
    for f in files:
        mine = unit_of(f)
        graph.setdefault(mine, set())
        for quote, spelled in INCLUDE.findall(f.read_text(errors="replace")):
            target = resolve(f, quote, spelled, index)
            if target is None:
                continue
            theirs = unit_of(target)
            if theirs != mine:
                graph[mine].add(theirs)
                evidence.setdefault((mine, theirs), (f, target))
    return graph, evidence


def strongly_connected(graph):
    """Tarjan's algorithm, iterative; returns the components of more than one file."""
    index_of, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index_of:
            continue
        work = [(start, iter(graph[start]))]
        index_of[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in graph:
                    continue
                if nxt not in index_of:
                    index_of[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index_of[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index_of[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def check_includes():
    graph, evidence = include_graph()
    offences = []
    for component in strongly_connected({k: sorted(v) for k, v in graph.items()}):
        members = set(component)
        names = sorted(component)
        edges = sorted(f"{a.relative_to(ROOT)} -> {b.relative_to(ROOT)}"
                       for (x, y), (a, b) in evidence.items() if x in members and y in members)
        offences.append(f"{names[0]}: include loop of {len(names)} units ({', '.join(names)}); "
                        f"its includes: {'; '.join(edges)}")
    for (mine_unit, their_unit), (source, target) in sorted(evidence.items()):
        rel, target_rel = str(source.relative_to(ROOT)), str(target.relative_to(ROOT))
        mine, theirs = folder_of(rel), folder_of(target_rel)
        if mine is None:
            offences.append(f"{rel}: folder not in MAY_USE (tests/house/architecture.py): say what it may use")
        elif theirs != mine and theirs not in MAY_USE[mine]:
            offences.append(f"{rel}: includes {target_rel} ({theirs}), which {mine} may not use")
    return offences


def functions(path):
    # Debian's universal-ctags is ctags-universal; plain `ctags` may be another ctags without JSON output.
    ctags = shutil.which("ctags-universal") or shutil.which("ctags")
    if ctags is None:
        raise SystemExit("architecture.py sizes needs universal-ctags (Debian package universal-ctags; "
                         "tools/setup.sh installs it)")
    out = subprocess.run([ctags, "--fields=+ne", "--kinds-C++=f", "--kinds-C=f", "--output-format=json",
                          "-o", "-", str(path)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag" and "end" in tag:
            yield tag


def check_sizes():
    offences = []
    for path in production_files():
        rel = str(path.relative_to(ROOT))
        lines = path.read_text(errors="replace").count("\n")
        if lines > MAX_FILE_LINES:
            offences.append(f"{rel}: {lines} lines (at most {MAX_FILE_LINES})")
        if path.suffix == ".h":
            continue
        for tag in functions(path):
            length = tag["end"] - tag["line"] + 1
            name = tag.get("scope", "") + "::" + tag["name"] if tag.get("scope") else tag["name"]
            if length > MAX_FUNCTION_LINES and f"{rel}:{name}" not in TABLES:
                offences.append(f"{rel}:{tag['line']}: function {name} has {length} lines "
                                f"(at most {MAX_FUNCTION_LINES})")
    return offences


def main():
    global ROOT
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--root":
        ROOT = Path(args[1]).resolve()
        args = args[2:]
    if len(args) != 1 or args[0] not in ("includes", "sizes"):
        print(__doc__, file=sys.stderr)
        return 2
    offences = check_includes() if args[0] == "includes" else check_sizes()
    for o in offences:
        print(o)
    print(f"{args[0]}: {len(offences)} offences")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
