"""Strategy (b): mutations of the verifier's corpus kernels (tests/kernels/), launched as their headers say.

A corpus kernel's header (line 1 the verdict, line 2 the launch) is read with run_kernel.py's own parser;
the launch becomes manifest arguments (scalars from --arg, buffer sizes from --size, contents from --data,
aliasing from --alias; what the header leaves open gets a concrete value, as a real application would).
Mutations, one to three per kernel:
  drop-barrier, move-barrier (one line up or down), shift-index (a subscript ± 1), change-fence,
  change-scope (an OpenCL 2.0 atomic's memory_scope), change-order (its memory_order), drop-atomic (an
  OpenCL 1.x atomic RMW made a plain update), and two that keep the kernel's meaning: wrap-helper (the
  kernel's body moved into a helper function, under one of the inline spellings) and helper-header (that
  helper in an included header file).
A kernel whose header says //pass and whose only mutations keep its meaning stays "racefree" (the corpus
pairs are reviewed by hand and cross-checked with Oclgrind); any other mutation makes it
"unknown-expectation".
"""
import os
import re
import shlex
import sys

from grammar_kernels import CL20_OPTIONS, INLINE_SPELLINGS
from launch_manifest import Launch, int32_hex, scalar_hex

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "kernels"))
sys.path.insert(0, CORPUS)
import run_kernel  # noqa: E402  (the corpus's header parser)
import oclgrind_crosscheck  # noqa: E402  (scalar sizes from declarations)

DEFAULT_BUFFER = 64 * 1024  # bytes of a buffer whose size the header does not give
MAX_WORK_ITEMS = 4096  # Oclgrind simulates every work-item; larger launches are left out
SKIPPED_FOLDERS = {"images", "unsupported"}
MEANING_KEEPING = {"wrap-helper", "helper-header"}

BARRIER = re.compile(r"\b(?:work_group_)?barrier\s*\([^;]*\)\s*;")
SUBSCRIPT = re.compile(r"\[([^\[\]\n]+)\]")
FENCES = ["CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"]
SCOPES = ["memory_scope_work_item", "memory_scope_work_group", "memory_scope_device",
          "memory_scope_all_svm_devices"]
ORDERS = ["memory_order_relaxed", "memory_order_acquire", "memory_order_release", "memory_order_acq_rel",
          "memory_order_seq_cst"]
ATOMIC_RMW = re.compile(r"\batomic_(add|sub|inc|dec)\s*\(\s*&?\s*([^,()]+?(?:\[[^\]]*\])?)\s*(?:,\s*([^()]+?))?\)")


class CorpusKernel:
    """One corpus kernel with its launch from the header."""

    def __init__(self, path):
        self.path = path
        self.relpath = os.path.relpath(path, CORPUS)
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.verdict, options, _ = run_kernel.parse_header(self.text)
        self.entry, self.params, self.inst, self.launch = run_kernel.launch_of(self.text, options)
        # The header says Oclgrind's MemCheck cannot observe the kernel's defect (--oclgrind-blind=WHY).
        self.memcheck_blind = any(o.startswith("--oclgrind-blind=") for o in options)


def load_corpus():
    """Every corpus kernel the host can launch: no images, no struct scalars of unknown size, at most
    MAX_WORK_ITEMS work-items. Sorted by path (the seed picks from this list)."""
    kernels = []
    for folder, _, files in sorted(os.walk(CORPUS)):
        if os.path.relpath(folder, CORPUS).split(os.sep)[0] in SKIPPED_FOLDERS:
            continue
        for name in sorted(files):
            if not name.endswith(".cl"):
                continue
            try:
                k = CorpusKernel(os.path.join(folder, name))
            except SystemExit:
                continue
            if any(kind in ("image", "sampler") for _, kind in k.params):
                continue
            if any(kind == "scalar" and not oclgrind_crosscheck.scalar_size(k.text, p) for p, kind in k.params):
                continue
            work_items = 1
            for g in k.inst["global_size"]:
                work_items *= g
            if work_items > MAX_WORK_ITEMS:
                continue
            kernels.append(k)
    return kernels


def body_span(text, entry):
    """(start, end) of the entry kernel's body, braces excluded."""
    m = re.search(r"(?:__)?kernel\s+void\s+" + re.escape(entry) + r"\s*\(", text)
    if not m:
        return None
    open_brace = text.find("{", m.end())
    depth = 0
    for i in range(open_brace, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return open_brace + 1, i
    return None


# ---- mutations: each takes (rng, text, entry) and returns the new text, or None when it does not apply


def drop_barrier(rng, text, entry):
    span = body_span(text, entry)
    sites = [m for m in BARRIER.finditer(text) if span and span[0] <= m.start() < span[1]]
    if not sites:
        return None
    m = rng.choice(sites)
    return text[:m.start()] + "/* barrier dropped */" + text[m.end():]


def move_barrier(rng, text, entry):
    lines = text.split("\n")
    sites = [i for i, line in enumerate(lines) if BARRIER.search(line) and line.strip().startswith(("barrier", "work_group_barrier"))]
    if not sites:
        return None
    i = rng.choice(sites)
    j = i + rng.choice([-1, 1])
    if not (0 <= j < len(lines)) or "{" in lines[j] or "}" in lines[j] or not lines[j].strip().endswith(";"):
        return None
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def shift_index(rng, text, entry):
    span = body_span(text, entry)
    if not span:
        return None
    sites = [m for m in SUBSCRIPT.finditer(text, span[0], span[1]) if not re.fullmatch(r"\s*\d+\s*", m.group(1))]
    if not sites:
        return None
    m = rng.choice(sites)
    return text[:m.start()] + f"[({m.group(1)}) {rng.choice(['+', '-'])} 1]" + text[m.end():]


def change_fence(rng, text, entry):
    sites = [m for m in re.finditer(r"CLK_(?:LOCAL|GLOBAL)_MEM_FENCE(?:\s*\|\s*CLK_(?:LOCAL|GLOBAL)_MEM_FENCE)?", text)]
    if not sites:
        return None
    m = rng.choice(sites)
    others = [f for f in FENCES if f.replace(" ", "") != m.group(0).replace(" ", "")]
    return text[:m.start()] + rng.choice(others) + text[m.end():]


def change_scope(rng, text, entry):
    sites = list(re.finditer(r"\bmemory_scope_\w+", text))
    if not sites:
        return None
    m = rng.choice(sites)
    return text[:m.start()] + rng.choice([s for s in SCOPES if s != m.group(0)]) + text[m.end():]


def change_order(rng, text, entry):
    sites = list(re.finditer(r"\bmemory_order_\w+", text))
    if not sites:
        return None
    m = rng.choice(sites)
    return text[:m.start()] + rng.choice([o for o in ORDERS if o != m.group(0)]) + text[m.end():]


def drop_atomic(rng, text, entry):
    """atomic_add(&x, v) → (x += v) - v with the old value kept: a plain read-modify-write."""
    sites = [m for m in ATOMIC_RMW.finditer(text)]
    if not sites:
        return None
    m = rng.choice(sites)
    op, place, value = m.group(1), m.group(2).strip(), (m.group(3) or "").strip()
    if place.startswith("&"):
        place = place[1:]
    if op in ("inc", "dec"):
        plain = f"({place}{'++' if op == 'inc' else '--'})"
    else:
        if not value:
            return None
        plain = f"(({place} {'+' if op == 'add' else '-'}= ({value})) {'-' if op == 'add' else '+'} ({value}))"
    return text[:m.start()] + plain + text[m.end():]


def wrap_helper(rng, text, entry, header=None):
    """The entry kernel's body becomes `SPELLING void entry_body(params) { body }`, called by the kernel.
    With `header`, the helper (and everything before the kernel) goes to that header, #included."""
    m = re.search(r"(?:__)?kernel\s+void\s+" + re.escape(entry) + r"\s*\(([^)]*)\)", text, re.S)
    span = body_span(text, entry)
    if not m or not span:
        return None
    body = text[span[0]:span[1]]
    # Local variables may be declared only in a kernel's own scope (OpenCL 1.2 §6.5.2).
    if re.search(r"^\s*(?:__)?local\b", body, re.M):
        return None
    params = m.group(1)
    names = [re.findall(r"(\w+)\s*(?:\[[^\]]*\])?$", p.strip())[0] for p in params.split(",") if p.strip()]
    # Attributes such as __attribute__((reqd_work_group_size(...))) stay with the kernel.
    start = text.rfind("\n", 0, m.start()) + 1
    kernel_line_prefix = text[start:m.start()]
    if "__attribute__" in kernel_line_prefix or "__attribute__" in text[m.end():span[0]]:
        return None
    prefix, needs = rng.choice(INLINE_SPELLINGS)
    helper = f"{needs}{prefix + ' ' if prefix else ''}void {entry}_body({params}) {{{body}}}\n"
    call = f"kernel void {entry}({params}) {{\n  {entry}_body({', '.join(names)});\n}}\n"
    before, after = text[:start], text[span[1] + 1:]
    if header is None:
        return before + helper + call + after, None
    # The header takes what the body may need (macros, earlier helpers, the corpus header's comments) and
    # the helper; the kernel file #includes it.
    return f'#include "{header}"\n' + call + after, before + helper


MUTATIONS = {"drop-barrier": drop_barrier, "move-barrier": move_barrier, "shift-index": shift_index,
             "change-fence": change_fence, "change-scope": change_scope, "change-order": change_order,
             "drop-atomic": drop_atomic}


def launch_arguments(rng, k):
    """The manifest arguments for kernel `k`'s header launch; None if the host cannot give them."""
    args = []
    names = [p for p, _ in k.params]
    for index, (name, kind) in enumerate(k.params):
        if kind == "scalar":
            size = oclgrind_crosscheck.scalar_size(k.text, name)
            value = int(k.launch["args"][name], 16) if name in k.launch["args"] else rng.randint(0, 8)
            args.append({"kind": "scalar", "bytes": size, "value": scalar_hex(value, size)})
        elif kind == "local":
            args.append({"kind": "local", "bytes": int(k.launch["sizes"].get(name, 4096))})
        elif name in k.launch["alias"]:
            other = k.launch["alias"][name]
            if other not in names or names.index(other) >= index:
                return None
            args.append({"kind": "buffer", "same_as": names.index(other)})
        else:
            record = {"kind": "buffer", "bytes": int(k.launch["sizes"].get(name, DEFAULT_BUFFER)), "read_only": False}
            if name in k.launch["data"]:
                ints = run_kernel.data_ints(k.launch["data"][name])
                record["contents"] = int32_hex(ints)
                record["bytes"] = 4 * len(ints)
            if record["bytes"] == 0:
                return None
            args.append(record)
    return args


def generate(rng, name, corpus):
    """One mutated corpus kernel named `name`; None when the chosen kernel and mutations do not apply."""
    k = rng.choice(corpus)
    args = launch_arguments(rng, k)
    if args is None:
        return None
    text = k.text
    applied = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        what = rng.choice(list(MUTATIONS) + ["wrap-helper"] * 3)
        if what == "wrap-helper":
            continue
        mutated = MUTATIONS[what](rng, text, k.entry)
        if mutated is not None:
            text = mutated
            applied.append(what)
    # Rename the entry point so that every launch of a manifest has its own kernel name.
    text = re.sub(r"\b" + re.escape(k.entry) + r"\b", name, text)
    header_text = None
    if rng.random() < 0.5:
        header = f"{name}_helpers.h" if rng.random() < 0.3 else None
        wrapped = wrap_helper(rng, text, name, header)
        if wrapped:
            text, header_text = wrapped
            applied.append("helper-header" if header else "wrap-helper")
    if not applied:
        return None
    launch = Launch(name, text, "mutation")
    if header_text is not None:
        launch.add_header(f"{name}_helpers.h", header_text)
    flags = k.inst.get("compiler_flags", "")
    # PoCL 3.1 builds OpenCL 2.0 atomics only as OpenCL C 3.0 (its 2.0 headers lack the overloads).
    launch.build_options = flags.replace("-cl-std=CL2.0", CL20_OPTIONS)
    launch.global_size = k.inst["global_size"]
    launch.local_size = k.inst.get("local_size")
    launch.global_offset = k.inst.get("global_offset")
    launch.args = args
    launch.origin = k.relpath
    launch.mutations = applied
    meaning_kept = all(m in MEANING_KEEPING for m in applied)
    launch.expectation = "racefree" if k.verdict == "verified" and meaning_kept else "unknown-expectation"
    launch.features = ["corpus-mutation"] + [f"mutation:{m}" for m in applied]
    # A barrier the original already reaches divergently, or one moved: PoCL may hang on it (the driver cuts
    # such a launch's run short on PoCL; its capture is written before it runs).
    if re.search(r"\b(barrier|work_group_\w+|wait_group_events)\s*\(", text) and \
            (k.verdict != "verified" or "move-barrier" in applied):
        launch.features.append("may-diverge")
    if k.memcheck_blind:
        launch.features.append("memcheck-blind")
    return launch
