#!/usr/bin/python3
"""Checks that a clcapture binary loads on any x86-64 Linux with a recent enough glibc.

    check_portable.py [--exports FILE.map] [--glibc 2.31] ELF...

For each ELF file (libclcapture.so, the clcapture launcher):
- every DT_NEEDED entry is part of glibc: a library beyond it (libdw, libstdc++, libgcc_s, libxxhash…) is
  missing on some machine, and then the ICD loader skips the capture library silently and the application
  loses its platforms;
- no symbol version it needs from glibc is newer than --glibc;
- with --exports, the dynamic symbols it defines are exactly the global names of that version script (a
  leaked libstdc++ or spdlog symbol would interpose on the application's own).
Reads the ELF with binutils' readelf, which every build machine has.
"""
import argparse
import re
import subprocess
import sys

GLIBC_LIBRARIES = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "ld-linux-x86-64.so.2",
}


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], check=True, capture_output=True, text=True).stdout


def needed(path):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf("-d", path))


def glibc_versions(path):
    """Symbol versions the file needs (from .gnu.version_r), by library."""
    out = {}
    library = None
    for line in readelf("-V", path).splitlines():
        m = re.search(r"File: (\S+)\s+Cnt:", line)
        if m:
            library = m.group(1)
            continue
        m = re.search(r"Name: (GLIBC_[0-9.]+)", line)
        if m and library:
            out.setdefault(m.group(1), set()).add(library)
    return out


def version_tuple(name):
    return tuple(int(p) for p in name.split("_", 1)[1].split("."))


def defined_dynamic_symbols(path):
    names = set()
    for line in readelf("--dyn-syms", path).splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(fields) >= 8 and fields[4] in ("GLOBAL", "WEAK") and fields[6] != "UND":
            names.add(fields[7].split("@")[0])
    return names


def exported_names(version_script):
    text = open(version_script).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    block = re.search(r"global:(.*?)local:", text, flags=re.S)
    return {n.strip() for n in block.group(1).split(";") if n.strip()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exports", help="version script whose global names must be the only exports")
    parser.add_argument("--glibc", default="2.31", help="oldest glibc the files must load on")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    floor = version_tuple("GLIBC_" + args.glibc)
    failures = []
    for path in args.files:
        deps = needed(path)
        beyond = [d for d in deps if d not in GLIBC_LIBRARIES]
        if beyond:
            failures.append(f"{path}: DT_NEEDED beyond glibc: {', '.join(beyond)}")
        newer = sorted((v for v in glibc_versions(path) if version_tuple(v) > floor), key=version_tuple)
        if newer:
            failures.append(f"{path}: needs glibc symbol versions newer than {args.glibc}: {', '.join(newer)} "
                            f"(see `objdump -T {path} | grep -E '{'|'.join(newer)}'`)")
        print(f"{path}: DT_NEEDED {', '.join(deps)}; newest glibc version needed "
              f"{max(glibc_versions(path), key=version_tuple, default='none')}")
        if args.exports:
            want = exported_names(args.exports)
            have = defined_dynamic_symbols(path)
            if have != want:
                failures.append(f"{path}: exports differ from {args.exports}: extra {sorted(have - want)[:20]}, "
                                f"missing {sorted(want - have)}")
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    if not failures:
        print(f"PASS: {len(args.files)} file(s) need nothing beyond glibc {args.glibc}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
