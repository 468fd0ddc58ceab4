#!/usr/bin/env bash
# Writes the archive reader fuzzer's seed corpus into tests/fuzz/archive-corpus/ (or DIR):
#   make-archive-corpus.sh [DIR]
# The seeds are committed; rerun this only to change them. The output is byte-for-byte reproducible (fixed
# times, owners and gzip header), so a rerun leaves git clean. Files named regression-* in the folder are
# fuzzer reproducers, kept by hand, and are not touched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/archive-corpus}
python=/usr/bin/python3
[ -x "$python" ] || python=python3
mkdir -p "$out"
exec "$python" - "$out" <<'PY'
import gzip, io, os, sys, tarfile

out = sys.argv[1]

CAPTURES = b'''[
  {"language": "OpenCL", "kernel_file": "kernels/scale.cl", "global_size": [16], "entry_point": "scale",
   "kernel_arguments": [{"type": "array", "size": 64, "address_space": "global", "data": "data/in.bin"}]}
]
'''
KERNEL = b'__kernel void scale(__global float *p) { p[get_global_id(0)] *= 2.0f; }\n'


def info(name, kind=tarfile.REGTYPE, size=0, **extra):
    t = tarfile.TarInfo(name)
    t.type = kind
    t.size = size
    t.mode = 0o755 if kind == tarfile.DIRTYPE else 0o644
    t.mtime = 0
    t.uid = t.gid = 0
    t.uname = t.gname = 'root'
    for key, value in extra.items():
        setattr(t, key, value)
    return t


def tar(members, fmt=tarfile.USTAR_FORMAT):
    """An uncompressed tar of (TarInfo, bytes or None): the members, then the two zero blocks that end an
    archive, without tarfile's padding to a whole 10 KiB record."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w', format=fmt) as archive:
        for member, data in members:
            archive.addfile(member, io.BytesIO(data) if data is not None else None)
        end = archive.offset
    return buffer.getvalue()[:end] + bytes(1024)


def gz(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


def file(name, data):
    return (info(name, size=len(data)), data)


def folder(name):
    return (info(name, tarfile.DIRTYPE), None)


def write(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)


pack = [folder('data/'), file('data/in.bin', bytes(range(64))), file('captures.json', CAPTURES),
        folder('kernels/'), file('kernels/scale.cl', KERNEL)]

# Archives the reader accepts: what clcapture pack writes (ustar, folders first), `tar czf x -C dir .`
# (GNU, "./" names), and long names through pax and GNU headers.
write('valid-pack.tar.gz', gz(tar(pack)))
write('valid-dot-slash.tar.gz', gz(tar([folder('./'), file('./captures.json', CAPTURES), folder('./kernels/'),
                                         file('./kernels/scale.cl', KERNEL)], tarfile.GNU_FORMAT)))
long_name = 'kernels/' + 'nested-folder/' * 9 + 'scale.cl'
write('valid-pax-long-name.tar.gz', gz(tar([file('captures.json', CAPTURES), file(long_name, KERNEL)],
                                           tarfile.PAX_FORMAT)))
write('valid-gnu-long-name.tar.gz', gz(tar([file(long_name, KERNEL)], tarfile.GNU_FORMAT)))
write('valid-empty.tar.gz', gz(bytes(1024)))
# A pax 1.0 sparse file: 3 bytes at offset 1024 of a 1027-byte file (the map leads the data).
sparse_data = b'1\n1024\n3\n'.ljust(512, b'\0') + b'abc'
sparse = info('GNUSparseFile.0/sparse.bin', size=len(sparse_data))
sparse.pax_headers = {'GNU.sparse.major': '1', 'GNU.sparse.minor': '0', 'GNU.sparse.name': 'sparse.bin',
                      'GNU.sparse.realsize': '1027'}
write('valid-pax-sparse.tar.gz', gz(tar([(sparse, sparse_data)], tarfile.PAX_FORMAT)))

# Names that leave the folder.
write('escape-dotdot.tar.gz', gz(tar([file('captures.json', CAPTURES), file('../escape', b'x\n')])))
write('escape-inner-dotdot.tar.gz', gz(tar([folder('kernels/'), file('kernels/../../escape', b'x\n')])))
write('escape-backslash.tar.gz', gz(tar([file('..\\escape', b'x\n')])))
write('escape-absolute.tar.gz', gz(tar([file('/tmp/x', b'x\n')])))
overridden = info('safe.txt', size=2)
overridden.pax_headers = {'path': '../escape'}
write('escape-pax-path.tar.gz', gz(tar([(overridden, b'x\n')], tarfile.PAX_FORMAT)))

# Entries that are not plain files or folders.
write('symlink-absolute.tar.gz', gz(tar([(info('link', tarfile.SYMTYPE, linkname='/tmp'), None),
                                         file('link/x', b'x\n')])))
write('symlink-dotdot.tar.gz', gz(tar([(info('up', tarfile.SYMTYPE, linkname='..'), None),
                                       file('up/escape', b'x\n')])))
write('hardlink.tar.gz', gz(tar([file('captures.json', CAPTURES),
                                 (info('copy.json', tarfile.LNKTYPE, linkname='captures.json'), None)])))
write('hardlink-outside.tar.gz', gz(tar([(info('passwd', tarfile.LNKTYPE, linkname='/etc/passwd'), None)])))
linked = info('captures.json', size=2)
linked.pax_headers = {'linkpath': '/etc/passwd'}
write('regular-with-pax-linkpath.tar.gz', gz(tar([(linked, b'x\n')], tarfile.PAX_FORMAT)))
write('fifo.tar.gz', gz(tar([(info('pipe', tarfile.FIFOTYPE), None)])))
write('char-device.tar.gz', gz(tar([(info('null', tarfile.CHRTYPE, devmajor=1, devminor=3), None)])))
write('block-device.tar.gz', gz(tar([(info('disk', tarfile.BLKTYPE, devmajor=8, devminor=0), None)])))

# Limits and conflicts (the fuzzer extracts with 1 MiB per entry, 4 MiB in all, 256 entries).
write('over-entry-limit.tar.gz', gz(tar([file('big.bin', bytes(2 << 20))])))
write('over-entry-count.tar.gz', gz(tar([file('f%03d' % i, b'') for i in range(260)])))
write('duplicate-entry.tar.gz', gz(tar([file('captures.json', CAPTURES), file('captures.json', CAPTURES)])))
write('file-then-folder.tar.gz', gz(tar([file('kernels', KERNEL), file('kernels/scale.cl', KERNEL)])))
write('folder-then-file.tar.gz', gz(tar([folder('kernels/'), file('kernels', KERNEL)])))

# Broken streams.
whole = gz(tar(pack))
write('truncated-gzip.tar.gz', whole[:len(whole) // 2])
write('truncated-entry-data.tar.gz', gz(tar([file('captures.json', CAPTURES)])[:512 + 40]))
write('plain-tar.tar', tar([file('captures.json', CAPTURES)]))
write('plain-tar-empty.tar', bytes(1024))
write('gzip-not-tar.gz', gz(CAPTURES))
PY
