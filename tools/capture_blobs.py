#!/usr/bin/env python3
"""Reads the blobs a clcapture capture names, loose or packed.

captures.json and the sidecar name buffer contents "data/<hash128>.bin". Such a blob is that loose file or a
record of one of the folder's packs, DIR/data/*.pack (common/include/clcapture/format/BlobPack.h):

    header  b"CLCPACK\\0", u32 version (1)
    record  b"BLOB", 16 bytes XXH3-128 (the name's hex digits), u64 size, the bytes, u64 XXH3-64 checksum

(little-endian). Scripts call read(folder, name) / exists(folder, name) / names(folder) instead of opening
the file: the loose file first, else the packs (scanned once per folder). The checksums are not checked here
(Python has no XXH3 in its standard library): the C++ reader checks them; a script only needs the framing.

    tools/capture_blobs.py CAPTURE_DIR        lists every blob: name, size, where
"""
import os
import struct
import sys

_MAGIC = b"CLCPACK\0"
_RECORD = b"BLOB"
_HEAD = 28  # record magic, hash, size
_index = {}  # folder -> (packs signature, {name: (pack path, offset, size)})


def scan_pack(path):
    """The complete records of one pack, in order: [(name, offset, size)]; stops at a cut or damage."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 12 or data[:8] != _MAGIC or struct.unpack_from("<I", data, 8)[0] != 1:
        return []
    records, offset = [], 12
    while offset + _HEAD <= len(data) and data[offset:offset + 4] == _RECORD:
        size = struct.unpack_from("<Q", data, offset + 20)[0]
        end = offset + _HEAD + size + 8
        if end > len(data):
            break
        records.append((f"data/{data[offset + 4:offset + 20].hex()}.bin", offset + _HEAD, size))
        offset = end
    return records


def _packs(folder):
    data = os.path.join(folder, "data")
    try:
        names = sorted(n for n in os.listdir(data) if n.endswith(".pack"))
    except OSError:
        return []
    return [(os.path.join(data, n), os.path.getsize(os.path.join(data, n))) for n in names]


def packed(folder):
    """{name: (pack path, offset, size)} for every packed blob of `folder` (the first record of each name)."""
    key = os.path.abspath(folder)
    packs = _packs(folder)
    cached = _index.get(key)
    if cached and cached[0] == packs:
        return cached[1]
    index = {}
    for path, _ in packs:
        for name, offset, size in scan_pack(path):
            index.setdefault(name, (path, offset, size))
    _index[key] = (packs, index)
    return index


def read(folder, name):
    """The bytes of `name` (e.g. "data/<hash>.bin") in capture `folder`: the loose file, else the packed
    record; raises FileNotFoundError naming it when it is in neither place."""
    loose = os.path.join(folder, name)
    if os.path.isfile(loose):
        with open(loose, "rb") as f:
            return f.read()
    where = packed(folder).get(name)
    if where is None:
        raise FileNotFoundError(f"{loose}: neither a file nor in a pack of {os.path.join(folder, 'data')}")
    path, offset, size = where
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(size)


def exists(folder, name):
    return os.path.isfile(os.path.join(folder, name)) or name in packed(folder)


def size(folder, name):
    loose = os.path.join(folder, name)
    if os.path.isfile(loose):
        return os.path.getsize(loose)
    where = packed(folder).get(name)
    return None if where is None else where[2]


def copies(folder, name):
    """How many times `name` is stored in `folder`: its loose file and every pack record of it (content
    addressing stores identical bytes once, so 1 for a blob that was recorded)."""
    n = int(os.path.isfile(os.path.join(folder, name)))
    for path, _ in _packs(folder):
        n += sum(1 for record, _, _ in scan_pack(path) if record == name)
    return n


def names(folder):
    """Every distinct data blob of `folder`, loose (data/*.bin) or packed: a set of "data/<name>.bin"."""
    found = set(packed(folder))
    data = os.path.join(folder, "data")
    if os.path.isdir(data):
        found.update(f"data/{n}" for n in os.listdir(data) if n.endswith(".bin"))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[-1].strip(), file=sys.stderr)
        return 2
    index = packed(argv[1])
    for name in sorted(names(argv[1])):
        where = "loose" if os.path.isfile(os.path.join(argv[1], name)) else os.path.basename(index[name][0])
        print(f"{name} {size(argv[1], name)} {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
