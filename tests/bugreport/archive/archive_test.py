#!/usr/bin/python3
"""clcapture pack and the archive reader: what an archive holds under each option, that it is the same to the
byte when packed twice, that clcapture-verify and clcapture-replay read it as they read the folder, and that
hostile archives are refused with exit 10 and nothing written outside the extraction folder.

usage: archive_test.py SCENARIO --launcher BIN --verify BIN --replay BIN --samples DIR

SCENARIO
  contents      memory_forms captured on PoCL with --data-after, packed: relative sorted entries with mtime 0
                and owner root, every kernel and data file the instantiations name and nothing else,
                environment.json and README.md; packed twice: byte-identical
  only          --only 4,0,4: two instantiations renumbered 0 and 1 in the order given, with their own kernels
                and data files only, the sidecar's launches renumbered the same; --only 9 refused (exit 1)
  data          --data none: no data/ entry, no `data` in captures.json, each buffer's reason in the sidecar;
                --data 600: the 192- and 512-byte buffers kept, the 1024-byte ones left out with the reason;
                --data 1.5M refused (exit 1)
  redact        --redact-paths: no host path with a folder in captures.json or the sidecar (call sites,
                modules, executable, command line), where the plain pack has them
  report        --report: report/report.txt, .json and .sarif, the JSON's verdicts those of clcapture-verify on
                the folder; clcapture-verify ARCHIVE gives the same verdicts and exit code as on the folder;
                clcapture-replay --compare ARCHIVE replays every launch the same as captured
  output        -o onto an existing file that is not an archive, onto the capture's captures.json, onto a
                folder: refused (exit 1), the file unchanged; an invalid capture: exit 10, nothing written
  hostile       archives built here: `../` paths, absolute paths, a symlink, a hard link, a character device,
                a fifo, an entry declaring more than the 4 GiB limit, a truncated stream, a plain tar, not an
                archive at all (gzip of random bytes), two entries with one name, no captures.json: each is
                refused by clcapture-verify and clcapture-replay with exit 10 and an error naming the problem;
                nothing appears outside the (fresh) TMPDIR, and nothing is left in it
"""
import argparse
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import capture_blobs  # noqa: E402  (tools/: blobs loose or packed)

POCL = "/etc/OpenCL/vendors/pocl.icd"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(cmd, env=None, want=None, cwd=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    r = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=300, cwd=cwd)
    print("$ " + " ".join(cmd) + f"  -> {r.returncode}")
    if r.stdout.strip():
        print(r.stdout.rstrip()[-3000:])
    if r.stderr.strip():
        print(r.stderr.rstrip()[-3000:])
    if want is not None and r.returncode != want:
        raise Failure(f"{os.path.basename(cmd[0])} exited {r.returncode}, expected {want}")
    return r


def capture(args, work):
    folder = os.path.join(work, "capture")
    run([args.launcher, "--icd", POCL, "--dir", folder, "--data-after", "--",
         os.path.join(args.samples, "memory_forms")], want=0)
    captures = load_json(os.path.join(folder, "captures.json"))
    check(len(captures) == 5, f"memory_forms gave {len(captures)} instantiations, expected 5")
    return folder


def pack(args, folder, out, options=(), want=0):
    return run([args.launcher, "pack", folder, "-o", out, *options], want=want)


def load_json(path):
    with open(path) as f:
        return json.load(f)


def members(archive):
    with tarfile.open(archive, "r:gz") as t:
        return t.getmembers()


def unpack(archive, into):
    os.makedirs(into)
    with tarfile.open(archive, "r:gz") as t:
        for m in t.getmembers():
            check(m.isfile() or m.isdir(), f"{archive}: {m.name} is neither a file nor a folder")
            check(not m.name.startswith("/") and ".." not in m.name.split("/"), f"{m.name} is not inside")
        t.extractall(into)
    return into


def referenced_files(captures, sidecar):
    files = set()
    for inst in captures:
        files.add(inst["kernel_file"])
        for a in inst.get("kernel_arguments", []):
            if a.get("data"):
                files.add(a["data"])
    for launch in sidecar.get("launches", []):
        for a in launch.get("arguments", []):
            if a.get("data_after"):
                files.add(a["data_after"])
    return files


def scenario_contents(args, work):
    folder = capture(args, work)
    # Same name in two folders: README.md names the archive.
    first, second = os.path.join(work, "one", "a.tar.gz"), os.path.join(work, "two", "a.tar.gz")
    os.makedirs(os.path.dirname(first))
    os.makedirs(os.path.dirname(second))
    pack(args, folder, first)
    pack(args, folder, second)
    with open(first, "rb") as f, open(second, "rb") as g:
        a, b = f.read(), g.read()
    check(a == b, f"two packs of one capture differ ({len(a)} and {len(b)} bytes)")
    check(a[:2] == b"\x1f\x8b" and a[4:8] == b"\0\0\0\0", "the gzip header is not bare (magic, no timestamp)")
    entries = members(first)
    names = [m.name.rstrip("/") for m in entries]
    check(names == sorted(names), f"entries are not sorted: {names}")
    for m in entries:
        check(not m.name.startswith("/") and ".." not in m.name.split("/"), f"entry {m.name} is not relative")
        check(m.mtime == 0 and m.uid == 0 and m.gid == 0, f"entry {m.name}: mtime {m.mtime}, uid {m.uid}")
        check(m.isdir() or m.isfile(), f"entry {m.name} is neither file nor folder")
    files = {m.name for m in entries if m.isfile()}
    out = unpack(first, os.path.join(work, "unpacked"))
    captures = load_json(os.path.join(out, "captures.json"))
    sidecar = load_json(os.path.join(out, "captures.meta.json"))
    wanted = referenced_files(captures, sidecar) | {"captures.json", "captures.meta.json", "environment.json",
                                                     "README.md"}
    check(files == wanted, f"archive files {sorted(files ^ wanted)} differ from what the capture names")
    check(any(f.startswith("data/") for f in files), "no data file packed")
    check(any(a.get("data_after") for l in sidecar["launches"] for a in l.get("arguments", [])),
          "no data_after kept in the sidecar")
    check(capture_blobs.packed(folder), "the capture packed no blob (CLCAPTURE_PACK is on by default)")
    for f in files - {"captures.json", "captures.meta.json", "environment.json", "README.md"}:
        with open(os.path.join(out, f), "rb") as y:
            check(capture_blobs.read(folder, f) == y.read(), f"{f}: packed bytes differ from the capture's")
    # Packed blobs go into the archive as loose data/<hash>.bin files: the same archive after clcapture unpack.
    loose = os.path.join(work, "loose")
    shutil.copytree(folder, loose)
    run([args.launcher, "unpack", loose], want=0)
    check(not any(n.endswith(".pack") for n in os.listdir(os.path.join(loose, "data"))), "unpack left a pack")
    third = os.path.join(work, "three", "a.tar.gz")
    os.makedirs(os.path.dirname(third))
    pack(args, loose, third)
    with open(third, "rb") as f:
        check(f.read() == a, "the archive of the unpacked capture differs from the packed capture's")
    env = load_json(os.path.join(out, "environment.json"))
    text = json.dumps(env)
    for word in ("memory_forms", "PoCL", "libOpenCL.so", "clcapture_version", "driver_version"):
        check(word in text, f"environment.json does not mention {word}: {text[:400]}")
    readme = open(os.path.join(out, "README.md")).read()
    check("clcapture-verify a.tar.gz" in readme and "clcapture-replay" in readme,
          "README.md lacks the two commands that reproduce the report")
    print("PASS: contents")


def scenario_only(args, work):
    folder = capture(args, work)
    original = load_json(os.path.join(folder, "captures.json"))
    out = os.path.join(work, "only.tar.gz")
    pack(args, folder, out, ["--only", "4,0,4"])
    got = unpack(out, os.path.join(work, "only"))
    captures = load_json(os.path.join(got, "captures.json"))
    sidecar = load_json(os.path.join(got, "captures.meta.json"))
    check(len(captures) == 2, f"--only 4,0,4 packed {len(captures)} instantiations, expected 2")
    for j, i in enumerate((4, 0)):
        check(captures[j] == original[i], f"packed instantiation {j} is not the capture's {i}")
    launched = [l for l in sidecar["launches"] if l.get("instantiation") is not None]
    check(sorted(l["instantiation"] for l in launched) == [0, 1], f"sidecar instantiations: {launched}")
    check(next(l for l in launched if l["instantiation"] == 0)["kernel_name"] == original[4]["entry_point"],
          "sidecar launch 0 is not the capture's instantiation 4")
    files = {m.name for m in members(out) if m.isfile()}
    wanted = referenced_files(captures, sidecar) | {"captures.json", "captures.meta.json", "environment.json",
                                                     "README.md"}
    check(files == wanted, f"--only packed other files: {sorted(files ^ wanted)}")
    r = pack(args, folder, os.path.join(work, "bad.tar.gz"), ["--only", "9"], want=1)
    check("does not exist" in r.stderr, "--only 9: the error does not say the instantiation does not exist")
    check(not os.path.exists(os.path.join(work, "bad.tar.gz")), "--only 9 wrote an archive")
    print("PASS: only")


def scenario_data(args, work):
    folder = capture(args, work)
    out = os.path.join(work, "none.tar.gz")
    pack(args, folder, out, ["--data", "none"])
    check(not any(m.name.startswith("data/") and m.isfile() for m in members(out)), "--data none packed data")
    got = unpack(out, os.path.join(work, "none"))
    captures = load_json(os.path.join(got, "captures.json"))
    sidecar = load_json(os.path.join(got, "captures.meta.json"))
    check(all("data" not in a for i in captures for a in i.get("kernel_arguments", [])),
          "--data none left a data path in captures.json")
    reasons = [a.get("data_skipped") for l in sidecar["launches"] for a in l.get("arguments", [])
               if a.get("kind") == "buffer"]
    check(reasons and all(r and "--data none" in r for r in reasons), f"--data none reasons: {reasons}")

    out = os.path.join(work, "cap.tar.gz")
    pack(args, folder, out, ["--data", "600"])
    got = unpack(out, os.path.join(work, "cap"))
    captures = load_json(os.path.join(got, "captures.json"))
    sidecar = load_json(os.path.join(got, "captures.meta.json"))
    kept = left = 0
    for inst, launch in zip(captures, [l for l in sidecar["launches"] if l.get("instantiation") is not None]):
        facts = {a["index"]: a for a in launch.get("arguments", [])}
        for n, a in enumerate(inst.get("kernel_arguments", [])):
            if a.get("type") != "array":
                continue
            if a["size"] <= 600:
                check("data" in a and os.path.exists(os.path.join(got, a["data"])),
                      f"{inst['entry_point']} argument {n} ({a['size']} bytes) lost its data under --data 600")
                kept += 1
            else:
                check("data" not in a, f"argument {n} ({a['size']} bytes) kept its data under --data 600")
                check("--data 600" in (facts.get(n, {}).get("data_skipped") or ""),
                      f"argument {n}: no reason in the sidecar under --data 600: {facts.get(n)}")
                left += 1
    check(kept and left, f"--data 600 kept {kept} and left out {left} buffers; expected some of each")
    r = pack(args, folder, os.path.join(work, "bad.tar.gz"), ["--data", "1.5M"], want=1)
    check("--data" in r.stderr, "--data 1.5M: the error does not name the option")
    print(f"PASS: data ({kept} buffers kept, {left} left out under --data 600)")


def host_paths(captures, sidecar):
    paths = [c["compilation_unit"] for i in captures for c in i.get("host_api_calls", [])]
    for l in sidecar["launches"]:
        for c in l.get("host_calls", []):
            paths += [c.get("module", ""), c.get("compilation_unit") or ""]
    process = sidecar.get("process", {})
    paths += [process.get("executable", "")] + process.get("command_line", [])[:1]
    return [p for p in paths if p]


def scenario_redact(args, work):
    folder = capture(args, work)
    plain, redacted = os.path.join(work, "plain.tar.gz"), os.path.join(work, "redacted.tar.gz")
    pack(args, folder, plain)
    pack(args, folder, redacted, ["--redact-paths"])
    p, r = unpack(plain, os.path.join(work, "p")), unpack(redacted, os.path.join(work, "r"))
    before = host_paths(load_json(os.path.join(p, "captures.json")), load_json(os.path.join(p, "captures.meta.json")))
    after = host_paths(load_json(os.path.join(r, "captures.json")), load_json(os.path.join(r, "captures.meta.json")))
    check(any("/" in x for x in before), f"the plain pack has no host path with a folder: {before[:5]}")
    check(after and not any("/" in x for x in after), f"--redact-paths left folders: {[x for x in after if '/' in x][:5]}")
    check(sorted(os.path.basename(x) for x in before) == sorted(after), "--redact-paths changed base names")
    print(f"PASS: redact ({len(after)} host paths cut to base names)")


def verdicts(report):
    return [(r["index"], r["entry_point"], r["verdict"], len(r.get("findings", []))) for r in report["results"]]


def scenario_report(args, work):
    folder = capture(args, work)
    out = os.path.join(work, "report.tar.gz")
    pack(args, folder, out, ["--report"])
    got = unpack(out, os.path.join(work, "report"))
    for f in ("report.txt", "report.json", "report.sarif"):
        check(os.path.getsize(os.path.join(got, "report", f)) > 0, f"--report wrote no report/{f}")
    sarif = load_json(os.path.join(got, "report", "report.sarif"))
    check(sarif.get("version") == "2.1.0", "report/report.sarif is not SARIF 2.1.0")
    on_folder = run([args.verify, "--format=json", "--no-cache", folder])
    on_archive = run([args.verify, "--format=json", "--no-cache", out])
    check(on_folder.returncode == on_archive.returncode,
          f"exit {on_archive.returncode} on the archive, {on_folder.returncode} on the folder")
    expected = verdicts(json.loads(on_folder.stdout))
    check(verdicts(json.loads(on_archive.stdout)) == expected, "the archive's verdicts differ from the folder's")
    check(verdicts(load_json(os.path.join(got, "report", "report.json"))) == expected,
          "report/report.json's verdicts differ from the folder's")
    check(len(expected) == 5, f"expected 5 results, got {expected}")
    r = run([args.replay, "--compare", "--format=json", out], env={"OCL_ICD_VENDORS": POCL})
    replayed = json.loads(r.stdout)
    launches = replayed.get("launches", replayed.get("results", []))
    check(len(launches) >= 4, f"replay of the archive reported {len(launches)} launches")
    text = json.dumps(replayed)
    check('"different"' not in text, "a replayed buffer differs from the captured output")
    print(f"PASS: report (verdicts {[v[2] for v in expected]}; archive replayed)")


def scenario_output(args, work):
    folder = capture(args, work)
    victim = os.path.join(work, "notes.txt")
    with open(victim, "w") as f:
        f.write("keep me\n")
    r = pack(args, folder, victim, want=1)
    check("refusing" in r.stderr, "overwriting a non-archive file: no refusal message")
    check(open(victim).read() == "keep me\n", "pack overwrote a file that is not an archive")
    captures = os.path.join(folder, "captures.json")
    before = open(captures, "rb").read()
    pack(args, folder, captures, want=1)
    check(open(captures, "rb").read() == before, "pack overwrote the capture's own captures.json")
    pack(args, folder, work, want=1)
    # An earlier archive is replaced.
    out = os.path.join(work, "again.tar.gz")
    pack(args, folder, out)
    pack(args, folder, out)
    bad = os.path.join(work, "bad")
    os.makedirs(bad)
    with open(os.path.join(bad, "captures.json"), "w") as f:
        f.write("[{\"entry_point\": 3}]")
    r = pack(args, bad, os.path.join(work, "bad.tar.gz"), want=10)
    check(not os.path.exists(os.path.join(work, "bad.tar.gz")), "an invalid capture was packed")
    check("nothing written" in r.stderr, "invalid capture: the error does not say nothing was written")
    print("PASS: output")


# --- hostile archives -------------------------------------------------------------------------------------

def tar_bytes(entries, compress=True):
    """entries: (TarInfo, bytes or None)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as t:
        for info, data in entries:
            t.addfile(info, io.BytesIO(data) if data is not None else None)
    return gzip.compress(raw.getvalue(), mtime=0) if compress else raw.getvalue()


def regular(name, data=b"x"):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def special(name, kind, target=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


def valid_capture_entries():
    kernel = b"kernel void k(global int *a) { a[get_global_id(0)] = 1; }\n"
    captures = json.dumps([{"language": "OpenCL", "kernel_file": "kernels/k.cl", "entry_point": "k",
                            "global_size": [4], "local_size": [4],
                            "kernel_arguments": [{"type": "array", "size": 16}]}]).encode()
    return [regular("captures.json", captures), regular("kernels/k.cl", kernel)]


def oversized():
    # A header declaring 5 GiB followed by nothing: the reader must refuse it from the header alone.
    raw = b""
    for info, data in valid_capture_entries():
        raw += info.tobuf(tarfile.GNU_FORMAT) + data + b"\0" * (-len(data) % 512)
    info = tarfile.TarInfo("data/huge.bin")
    info.size = 5 << 30
    return gzip.compress(raw + info.tobuf(tarfile.GNU_FORMAT), mtime=0)


def hostile_archives(work):
    base = valid_capture_entries()
    plain = tar_bytes(base)
    return {
        "dotdot": (tar_bytes(base + [regular("../escaped.txt", b"outside")]), ".."),
        "dotdot-nested": (tar_bytes(base + [regular("kernels/../../escaped.txt", b"outside")]), ".."),
        "absolute": (tar_bytes(base + [regular(os.path.join(work, "absolute.txt"), b"outside")]), "absolute"),
        "symlink": (tar_bytes(base + [special("link", tarfile.SYMTYPE, work)]), "not a plain file"),
        "symlink-then-file": (tar_bytes([special("d", tarfile.SYMTYPE, work), regular("d/escaped.txt")] + base),
                              "not a plain file"),
        "hardlink": (tar_bytes(base + [special("hard", tarfile.LNKTYPE, "/etc/passwd")]), "not a plain file"),
        "device": (tar_bytes(base + [special("dev", tarfile.CHRTYPE)]), "not a plain file"),
        "fifo": (tar_bytes(base + [special("fifo", tarfile.FIFOTYPE)]), "not a plain file"),
        "oversized": (oversized(), "larger than"),
        "truncated": (plain[: len(plain) // 2], "archive"),
        "plain-tar": (tar_bytes(base, compress=False), None),
        "not-tar": (gzip.compress(os.urandom(4096), mtime=0), "archive"),
        "duplicate": (tar_bytes(base + [regular("captures.json", b"[]")]), "duplicate"),
        "no-captures": (tar_bytes([regular("kernels/k.cl", b"kernel void k() {}\n")]), "captures.json"),
        "empty": (tar_bytes([]), "captures.json"),
    }


def listing(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        found += [os.path.join(dirpath, n) for n in dirnames + filenames]
    return sorted(found)


def scenario_hostile(args, work):
    archives = os.path.join(work, "archives")
    os.makedirs(archives)
    for name, (data, expected) in hostile_archives(work).items():
        path = os.path.join(archives, name + ".tar.gz")
        with open(path, "wb") as f:
            f.write(data)
        for tool in ([args.verify, "--format=json"], [args.replay, "--format=json"]):
            tmp = os.path.join(work, "tmp")
            cwd = os.path.join(work, "cwd")
            os.makedirs(tmp)
            os.makedirs(cwd)
            before = set(listing(work))
            r = run([*tool, path], env={"TMPDIR": tmp, "OCL_ICD_VENDORS": POCL}, cwd=cwd)
            tool_name = os.path.basename(tool[0])
            if name == "plain-tar":
                # A tar without gzip is not a pack archive: read as a captures.json, it is invalid JSON.
                check(r.returncode == 10, f"{name}: {tool_name} exited {r.returncode}, expected 10")
            else:
                check(r.returncode == 10, f"{name}: {tool_name} exited {r.returncode}, expected 10")
                check(expected.lower() in r.stderr.lower(),
                      f"{name}: {tool_name}'s error does not say '{expected}': {r.stderr.strip()[:300]}")
            check(name + ".tar.gz" in r.stderr, f"{name}: {tool_name}'s error does not name the archive")
            after = set(listing(work))
            check(after - before == {tmp, cwd} or after - before <= {tmp, cwd},
                  f"{name}: {tool_name} wrote {sorted(after - before - {tmp, cwd})}")
            check(listing(tmp) == [] and listing(cwd) == [],
                  f"{name}: {tool_name} left {listing(tmp) + listing(cwd)}")
            for outside in ("escaped.txt", "absolute.txt"):
                check(not os.path.exists(os.path.join(work, outside)), f"{name}: {outside} was written outside")
            shutil.rmtree(tmp)
            shutil.rmtree(cwd)
        print(f"ok: {name}")
    check(not os.path.exists(os.path.join(os.path.dirname(work), "escaped.txt")), "escaped.txt written above")
    print(f"PASS: hostile ({len(hostile_archives(work))} archives refused by both tools)")


SCENARIOS = {"contents": scenario_contents, "only": scenario_only, "data": scenario_data,
             "redact": scenario_redact, "report": scenario_report, "output": scenario_output,
             "hostile": scenario_hostile}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", choices=sorted(SCENARIOS))
    p.add_argument("--launcher", required=True)
    p.add_argument("--verify", required=True)
    p.add_argument("--replay", required=True)
    p.add_argument("--samples", required=True)
    args = p.parse_args()
    # The work folder sits inside a folder of its own, so that "nothing above it" can be checked too.
    outer = tempfile.mkdtemp(prefix="clcapture-archive-test-")
    work = os.path.join(outer, "work")
    os.makedirs(work)
    try:
        SCENARIOS[args.scenario](args, work)
        check(sorted(os.listdir(outer)) == ["work"], f"something was written beside the work folder: {os.listdir(outer)}")
    except Failure as e:
        print(f"FAIL: {args.scenario}: {e}")
        return 1
    finally:
        shutil.rmtree(outer, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
