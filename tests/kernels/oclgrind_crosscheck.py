#!/usr/bin/python3
"""Cross-checks clcapture-verify against Oclgrind's dynamic race detector on the kernel corpus.

usage: oclgrind_crosscheck.py CORPUS_DIR CLCAPTURE_VERIFY [KERNEL.cl ...]

For every corpus kernel Oclgrind can run as captured (a local size, no global offset, every scalar given,
every image with its extents and every sampler argument with its properties), the same launch is simulated
with `oclgrind-kernel --data-races` (a .sim generated from the
kernel's header: sizes, scalar values, captured buffer contents, distinct values 1, 2, … otherwise, except the
elements a witness names — "with idx[14] = 1 and idx[15] = 1", contents the capture leaves open — which get
the witness's values, so Oclgrind runs the launch the witness describes) and:
  - a race Oclgrind observes must not be missed: clcapture-verify says `defects` (or `unknown`), never
    `verified` — `verified` is sound;
  - a race clcapture-verify reports (a non-benign finding) must be real: Oclgrind, running the same launch,
    observes a race too (the witness depends only on ids, captured values and the contents it names);
  - barrier divergence clcapture-verify reports, Oclgrind reports too (and the other way round);
  - for a kernel whose memory safety is checked (the default, or a --checks= naming bounds): an invalid access Oclgrind's
    MemCheck reports must not be missed (`verified`), and an out-of-bounds or null finding must be one
    MemCheck reports too.
A kernel with images (which .sim files cannot hold) is launched through the OpenCL API instead, by
oclgrind_image_launch.py under `oclgrind --data-races`, with the same sizes and contents. MemCheck does not
check image coordinates: it sees a pixel outside the image only when its address leaves the image's storage
(the corpus's image pairs are written so that it does).
Oclgrind suppresses same-value write-write races by default, as clcapture-verify calls them benign.
Prints one line per kernel and exits 1 on any disagreement.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_kernel  # noqa: E402

DEFAULT_BUFFER = 1 << 20  # bytes for a buffer whose size the header does not give
MIN_COMPARED = 160  # kernels Oclgrind runs as captured (168 when this was set); fewer means the check broke


def scalar_size(text, name):
    """Bytes of scalar parameter `name` from its declaration (vectors: lanes × element), None if unknown."""
    m = re.search(r"\b(unsigned\s+int|unsigned|[a-z_]+?)(\d*)\s+" + re.escape(name) + r"\s*[,)]", text)
    if not m:
        return None
    base = "uint" if m.group(1).startswith("unsigned") else m.group(1)
    lanes = int(m.group(2)) if m.group(2) else 1
    sizes = run_kernel.SCALAR_BYTES
    return sizes[base] * (4 if lanes == 3 else lanes) if base in sizes else None


def int32_bits(literal):
    """A witness literal of a 4-byte element as the int with its bits: 7, -3, 0.5f, as_float(0x7F800101)."""
    if re.fullmatch(r"-?\d+", literal):
        return int(literal)
    m = re.fullmatch(r"as_float\((0x[0-9A-Fa-f]+)\)", literal)
    if m:
        return struct.unpack("<i", struct.pack("<I", int(m.group(1), 16)))[0]
    m = re.fullmatch(r"(-?[0-9.eE+-]+|-?inf(inity)?|nan)f", literal)
    if m:
        return struct.unpack("<i", struct.pack("<f", float(m.group(1))))[0]
    return None


def witness_contents(result):
    """Buffer elements a finding's witness names ("idx[14]" = "1": contents the capture leaves open,
    docs/semantics.md row 13b), as {buffer: {index: int}}, so that Oclgrind runs the launch the witness
    describes."""
    out = {}
    for f in result.get("findings", []):
        for name, value in (f.get("values") or {}).items():
            m = re.fullmatch(r"(\w+)\[(\d+)\]", name)
            bits = int32_bits(value)
            if m and bits is not None:
                out.setdefault(m.group(1), {})[int(m.group(2))] = bits
        if out:
            return out  # one witness: the first finding that names contents
    return out


def sim_for(path, text, options, contents=None):
    expected, opts, _ = run_kernel.parse_header(text)
    header = {"args": {}, "sizes": {}, "data": {}, "alias": {}}
    glob = loc = None
    entry = None
    modes = {}
    images = run_kernel.launch_of(text, opts)[3]
    host_args = []  # the same launch for oclgrind_image_launch.py, used when it has images
    it = iter(opts)
    for o in it:
        if o.startswith("--global_size="):
            glob = run_kernel.dims(o.split("=", 1)[1])
        elif o.startswith("--local_size="):
            loc = run_kernel.dims(o.split("=", 1)[1])
        elif o.startswith("--global_offset="):
            return None, "global offset (oclgrind-kernel has none)"
        elif o.startswith("--entry="):
            entry = o.split("=", 1)[1]
        elif o.startswith("--flags="):
            return None, "compiler flags"
        elif o.startswith("--oclgrind-blind="):
            return None, "Oclgrind cannot observe it: " + o.split("=", 1)[1]
        elif o in ("--arg", "--size", "--data", "--alias"):
            key, value = next(it).split("=", 1)
            header[{"--arg": "args", "--size": "sizes", "--data": "data", "--alias": "alias"}[o]][key] = value
        elif o == "--mem-flags":  # the buffer's CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY: .sim's ro / wo
            key, value = next(it).split("=", 1)
            modes[key] = " ro" if "CL_MEM_READ_ONLY" in value else " wo" if "CL_MEM_WRITE_ONLY" in value else ""
        elif o in ("--image", "--sampler"):
            next(it)  # read by launch_of above
    if loc is None:
        return None, "no local size"
    if header["alias"]:
        return None, "aliased arguments"
    entry, params = run_kernel.parameters(text, entry)
    pad = lambda d: (d + [1, 1, 1])[:3]
    lines = [os.path.basename(path), entry, " ".join(map(str, pad(glob))), " ".join(map(str, pad(loc))), ""]
    for name, kind in params:
        if kind == "image":
            if name not in images.get("images", {}):
                return None, f"image {name} without extents (--image)"
            host_args.append({"kind": "image", **images["images"][name]})
            continue
        if kind == "sampler":
            if name not in images.get("samplers", {}):
                return None, f"sampler {name} without properties (--sampler)"
            host_args.append({"kind": "sampler", **images["samplers"][name]})
            continue
        if kind == "scalar":
            if name not in header["args"]:
                return None, f"scalar {name} not given"
            value = header["args"][name][2:]
            # docs/contract.md §3: one integer, the little-endian bytes read backwards, zero-extended to the parameter;
            # a struct (a type this script does not size) is given with every byte.
            size = scalar_size(text, name) or (len(value) // 2 if len(value) % 2 == 0 else None)
            if size is None:
                return None, f"scalar {name} of a type this script does not size"
            raw = int(value, 16).to_bytes(size, "little")
            lines.append(f"<size={len(raw)} uchar> " + " ".join(str(b) for b in raw))
            host_args.append({"kind": "scalar", "raw": raw.hex()})
        elif kind == "local":
            size = int(header["sizes"].get(name, 4096))
            lines.append(f"<size={size}>")
            host_args.append({"kind": "local", "bytes": size})
        else:
            if name in header["data"]:
                ints = run_kernel.data_ints(header["data"][name])
                lines.append(f"<size={4 * len(ints)} int{modes.get(name, '')}> " + " ".join(map(str, ints)))
                host_args.append({"kind": "buffer", "bytes": 4 * len(ints), "ints": ints})
            else:
                # Distinct values everywhere: with equal values Oclgrind would call every write-write race
                # uniform and suppress it, where the capture leaves the contents open.
                size = int(header["sizes"].get(name, DEFAULT_BUFFER)) // 4 * 4
                if contents and name in contents:
                    ints = list(range(1, size // 4 + 1))
                    for index, value in contents[name].items():
                        if index < len(ints):
                            ints[index] = value
                    lines.append(f"<size={size} int{modes.get(name, '')}> " + " ".join(map(str, ints)))
                    host_args.append({"kind": "buffer", "bytes": size, "ints": ints})
                else:
                    lines.append(f"<size={size} int range=1:1:{size // 4}{modes.get(name, '')}>")
                    host_args.append({"kind": "buffer", "bytes": size, "ints": None})
    if any(a["kind"] in ("image", "sampler") for a in host_args):
        if modes:
            return None, "images with buffer flags"
        return {"entry": entry, "global": glob, "local": loc, "args": host_args}, expected
    return "\n".join(lines) + "\n", expected


INVALID_ACCESS = (r"Invalid (read|write) of size \d+ at \w+ memory address \S+|exceeds static array size"
                  r"|Invalid read from write-only buffer|Invalid write to read-only buffer")


def checks_bounds(text):
    """Whether clcapture-verify checks the kernel's memory safety: by default (all checks), or a --checks= in
    its header that names bounds or all."""
    _, opts, _ = run_kernel.parse_header(text)
    asked = [set(o.split("=", 1)[1].split(",")) for o in opts if o.startswith("--checks=")]
    return not asked or any({"bounds", "all"} & a for a in asked)


def oclgrind_races(path, sim, bounds=False):
    """(races seen or None when Oclgrind cannot run the launch, its output). With `bounds` an invalid access
    is MemCheck's finding (compared by the caller); without, it means the .sim is not the launch. `sim` is a
    .sim file's text, or the host launch spec of a kernel with images (oclgrind_image_launch.py)."""
    with tempfile.TemporaryDirectory() as d:
        source = os.path.join(d, os.path.basename(path))
        with open(source, "w", encoding="utf-8") as f:
            with open(path, encoding="utf-8") as src:
                f.write(src.read())
        if isinstance(sim, dict):
            specfile = os.path.join(d, "launch.json")
            with open(specfile, "w", encoding="utf-8") as f:
                json.dump({"source": source, **sim}, f)
            launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oclgrind_image_launch.py")
            command = ["oclgrind", "--data-races", "--max-errors", "4", "/usr/bin/python3", launcher, specfile]
        else:
            simfile = os.path.join(d, "launch.sim")
            with open(simfile, "w", encoding="utf-8") as f:
                f.write(sim)
            command = ["oclgrind-kernel", "--data-races", "--max-errors", "4", simfile]
        r = subprocess.run(command, cwd=d, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    if isinstance(sim, dict) and "launched" not in r.stdout and not re.search(INVALID_ACCESS + "|data race", out):
        return None, out
    cannot_run = r"(Error|error) (parsing|loading|building)|Invalid|[Ff]ailed to|FATAL ERROR"
    if re.search(cannot_run, re.sub(INVALID_ACCESS, "", out) if bounds else out) and "data race" not in out:
        return None, out
    return bool(re.search(r"data race", out, re.I)), out


def oclgrind_diverges(out):
    return bool(re.search(r"divergence", out, re.I))


def verdict_of(path, verify):
    r = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_kernel.py"),
                        path, verify, "--json-only"], capture_output=True, text=True)
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def in_flight_copy(finding):
    """A race one of whose accesses is an async copy: Oclgrind completes copies eagerly and cannot see it."""
    return any("async_work_group" in a.get("source", "") for a in finding["accesses"])


def main():
    corpus, verify = sys.argv[1], sys.argv[2]
    kernels = sys.argv[3:] or sorted(os.path.join(dp, f) for dp, _, fs in os.walk(corpus) for f in fs if f.endswith(".cl"))
    failures, compared, skipped = 0, 0, 0
    for path in kernels:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        name = os.path.relpath(path, corpus)
        sim, why = sim_for(path, text, None)
        if sim is None:
            skipped += 1
            print(f"skip  {name}: {why}")
            continue
        result = verdict_of(path, verify)
        if result is None:
            failures += 1
            print(f"FAIL  {name}: clcapture-verify gave no result")
            continue
        verdict = result["verdict"]
        if verdict in ("unknown", "error"):
            skipped += 1
            print(f"skip  {name}: clcapture-verify says {verdict}")
            continue
        contents = witness_contents(result)
        if contents:
            sim, _ = sim_for(path, text, None, contents)  # the witness's contents for open buffers
        # A buffer without a captured size is not bounds-checked (the result names it) and gets
        # DEFAULT_BUFFER bytes here: MemCheck's invalid accesses then mean the .sim is not the launch.
        bounds = checks_bounds(text) and not result.get("bounds_not_checked")
        races, out = oclgrind_races(path, sim, bounds)
        if races is None:
            skipped += 1
            print(f"skip  {name}: Oclgrind cannot run it: {out.strip().splitlines()[-1] if out.strip() else '?'}")
            continue
        compared += 1
        if bounds:
            # Memory safety: MemCheck's invalid accesses against the out-of-bounds and null findings. A race
            # through NULL is the null dereference seen twice, not a race Oclgrind could observe.
            invalid = bool(re.search(INVALID_ACCESS, out))
            unsafe = [f for f in result["findings"]
                      if f["kind"] in ("out-of-bounds", "null-dereference", "access-mode")]
            if invalid and verdict == "verified":
                failures += 1
                print(f"FAIL  {name}: Oclgrind's MemCheck sees an invalid access that clcapture-verify misses:\n{out}")
                continue
            if unsafe and not invalid:
                failures += 1
                print(f"FAIL  {name}: clcapture-verify reports {unsafe[0]['message']}, which Oclgrind's MemCheck "
                      "does not see")
                continue
            if unsafe:
                print(f"ok    {name}: {unsafe[0]['kind']} reported by both")
                continue
        real = [f for f in result["findings"] if f["kind"] == "data-race" and not f["benign"]]
        diverges = any(f["kind"] == "barrier-divergence" for f in result["findings"])
        if diverges != oclgrind_diverges(out):
            failures += 1
            print(f"FAIL  {name}: barrier divergence: clcapture-verify {diverges}, Oclgrind {oclgrind_diverges(out)}")
        elif diverges:
            print(f"ok    {name}: barrier divergence reported by both")
        elif races and verdict == "verified":
            failures += 1
            print(f"FAIL  {name}: Oclgrind observes a race that clcapture-verify misses:\n{out}")
        elif real and not races and all(in_flight_copy(f) for f in real):
            # Oclgrind runs a work-group's async copies at once, so a copy that the kernel never waits for
            # (or waits for too late) is complete in its run; OpenCL 1.2 §6.12.10 leaves it in flight.
            print(f"ok    {name}: clcapture-verify {verdict} (an async copy still in flight), Oclgrind no race")
        elif real and not races:
            failures += 1
            print(f"FAIL  {name}: clcapture-verify reports a race Oclgrind does not observe: {real[0]['message']}")
        else:
            print(f"ok    {name}: clcapture-verify {verdict}, Oclgrind {'race' if races else 'no race'}")
    print(f"oclgrind cross-check: {compared} compared, {skipped} skipped, {failures} disagreements")
    # A guard that compares nothing proves nothing: a broken Oclgrind, a header change that makes every
    # kernel skip, or a corpus that moved must fail the check, not pass it silently.
    if not sys.argv[3:] and compared < MIN_COMPARED:
        print(f"FAIL  only {compared} kernels compared; at least {MIN_COMPARED} are expected")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
