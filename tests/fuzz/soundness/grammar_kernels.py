"""Strategy (a): kernels generated from a small grammar of the constructs clcapture-verify models.

A kernel is a prologue (linear ids g, l, grp over 1–3 dimensions, an accumulator `acc`) and 2–5 phases.
Every phase keeps one discipline that makes it race-free by construction — global buffers are written
only at the work-item's own index (one injective index function per buffer), local memory is written at
the work-item's local index and read only after a barrier with the local fence, a trailing barrier ends
every local phase, counters are touched only by atomics of a scope that covers every accessor — or, as a
*hazard*, breaks it in one named way (a dropped or misplaced barrier, a wrong fence, a shifted or
colliding index, a plain access to an atomic counter, a narrow atomic scope, overlapping vector or byte
stores, a table with a repeated entry, a stride of 0). A kernel without hazards is "racefree" (or
"benign" when its only shared writes store one value); with any, "unknown-expectation": a hazard may or
may not make a race on the launch, which is the oracle's (Oclgrind's) question.
"""
import math

from launch_manifest import Launch, float_hex, int32_hex, scalar_hex

# Every spelling of an inline helper the frontend must compile with its body (docs/semantics.md; commit
# 29af37e): the prefix before the function, and what the file needs first.
INLINE_SPELLINGS = [
    ("inline", ""), ("static inline", ""), ("extern inline", ""), ("__inline__", ""),
    ("extern __inline__", ""), ("INLINE", "#define INLINE inline\n"), ("/* extern inline */ inline", ""),
    ("/* extern inline */", ""), ("static", ""), ("", ""),
]
CL20_OPTIONS = "-cl-std=CL3.0 -D__opencl_c_atomic_scope_all_devices=1"
ORDERS_RMW = ["memory_order_relaxed", "memory_order_acquire", "memory_order_release", "memory_order_acq_rel",
              "memory_order_seq_cst"]
ORDERS_LOAD = ["memory_order_relaxed", "memory_order_acquire", "memory_order_seq_cst"]
ORDERS_STORE = ["memory_order_relaxed", "memory_order_release", "memory_order_seq_cst"]
SCOPES_WIDE = ["memory_scope_device", "memory_scope_all_svm_devices"]


def product(values):
    out = 1
    for v in values:
        out *= v
    return out


class KernelBuilder:
    """The kernel being generated: parameters with their arguments, body lines, helpers, and what is
    known about it (hazards taken, benign same-value writes, features for the docs)."""

    def __init__(self, rng, name, hazard_budget):
        self.rng = rng
        self.name = name
        self.hazard_budget = hazard_budget
        self.hazards = []
        self.benign = False
        self.features = set()
        self.params = []  # (declaration, argument record, name)
        self.lines = []
        self.helpers = []  # helper function texts (in the .cl, or in the header)
        self.preamble = set()
        self.cl20 = False
        self.helper_count = 0
        self.choose_geometry()

    # ---- the launch

    def choose_geometry(self):
        rng = self.rng
        self.dims = rng.choice([1, 1, 1, 2, 2, 3])
        choices = {1: [1, 2, 4, 8, 16, 32, 64], 2: [1, 2, 4, 8], 3: [1, 2, 4]}[self.dims]
        while True:
            local = [rng.choice(choices) for _ in range(self.dims)]
            if product(local) <= 64:
                break
        groups = [rng.choice([1, 2, 3]) for _ in range(self.dims)]
        if self.dims == 1:
            groups = [rng.choice([1, 2, 3, 4])]
        self.local = local
        self.groups = groups
        self.global_size = [l * g for l, g in zip(local, groups)]
        self.n = product(self.global_size)
        self.lsz = product(local)
        self.null_local = rng.random() < 0.12
        # With a NULL local size the driver chooses the groups: as many as there are work-items at most
        # (seed 2000's fz2000_49: PoCL chose 48 groups where 8 were assumed, and two flag phases overlapped).
        self.group_count = self.n if self.null_local else product(groups)
        self.offset = [rng.randint(0, 5) for _ in range(self.dims)] if rng.random() < 0.1 else None
        if self.null_local:
            self.features.add("null-local-size")
        if self.offset:
            self.features.add("global-offset")
        if self.dims > 1:
            self.features.add(f"{self.dims}-dims")
        if self.lsz == 1 and not self.null_local:
            self.features.add("one-item-groups")

    # ---- parameters

    def param(self, name, declaration, record):
        for d, _, n in self.params:
            if n == name:
                return name
        self.params.append((declaration, record, name))
        return name

    def int_buffer(self, name, count, contents=None, read_only=False, const=False):
        record = {"kind": "buffer", "bytes": 4 * count, "read_only": read_only}
        if contents is not None:
            record["contents"] = int32_hex(contents)
        return self.param(name, f"global {'const ' if const else ''}int *{name}", record)

    def local_ints(self, name, count):
        return self.param(name, f"local int *{name}", {"kind": "local", "bytes": 4 * count})

    def scalar(self, name, ctype, value, size=4):
        self.features.add("captured-scalar")
        return self.param(name, f"{ctype} {name}", {"kind": "scalar", "bytes": size, "value": scalar_hex(value, size)})

    def fresh(self, base):
        """A parameter name not used yet: base, base2, base3, …"""
        taken = {n for _, _, n in self.params}
        if base not in taken:
            return base
        return next(f"{base}{i}" for i in range(2, 100) if f"{base}{i}" not in taken)

    def hazard(self, what, probability=0.5):
        """Whether to take hazard `what` now (at most the kernel's budget)."""
        if len(self.hazards) < self.hazard_budget and self.rng.random() < probability:
            self.hazards.append(what)
            return True
        return False

    # ---- helpers

    def spelling(self):
        prefix, needs = self.rng.choice(INLINE_SPELLINGS)
        if needs:
            self.preamble.add(needs)
        self.features.add("inline-helper")
        return (prefix + " ") if prefix else ""

    def barrier(self, fence="CLK_LOCAL_MEM_FENCE"):
        """A barrier statement: the call itself, or a call of a sync helper (in any inline spelling)."""
        self.features.add("barrier")
        if self.rng.random() < 0.2:
            self.helper_count += 1
            helper = f"sync_{self.name}_{self.helper_count}"
            self.helpers.append(f"{self.spelling()}void {helper}(void) {{\n  barrier({fence});\n}}\n")
            self.features.add("barrier-in-helper")
            return f"{helper}();"
        return f"barrier({fence});"

    def emit(self, lines):
        """A phase's lines (in a block of their own), either in the kernel or wrapped in a helper that
        takes every parameter."""
        if self.rng.random() >= 0.3:
            self.lines.extend(["{"] + ["  " + line for line in lines] + ["}"])
            return
        self.helper_count += 1
        helper = f"phase_{self.name}_{self.helper_count}"
        decls = ", ".join(["int acc", "uint g", "uint l", "uint lsz", "uint grp", "uint n"] +
                          [d for d, _, _ in self.params])
        names = ", ".join(["acc", "g", "l", "lsz", "grp", "n"] + [n for _, _, n in self.params])
        body = "".join(f"  {line}\n" for line in lines)
        self.helpers.append(f"{self.spelling()}int {helper}({decls}) {{\n{body}  return acc;\n}}\n")
        self.lines.append(f"acc = {helper}({names});")

    # ---- the kernel

    def linear(self, query, sizes):
        terms = [f"({query}(0){self.minus_offset(query, 0)})"]
        scale = []
        for d in range(1, self.dims):
            scale.append(f"{sizes}({d - 1})")
            terms.append(f"({query}({d}){self.minus_offset(query, d)}) * " + " * ".join(scale))
        return " + ".join(terms)

    def minus_offset(self, query, d):
        return f" - get_global_offset({d})" if query == "get_global_id" and self.offset else ""

    def prologue(self):
        if self.dims == 1 and not self.offset and self.rng.random() < 0.3:
            g = "get_group_id(0) * get_local_size(0) + get_local_id(0)"
            # The global id only while every group has the enqueued size (uniform work-groups).
            self.features.add("id-from-group-and-local-size")
        else:
            g = self.linear("get_global_id", "get_global_size")
        dims = range(self.dims)
        return [f"const uint g = (uint)({g});",
                f"const uint l = (uint)({self.linear('get_local_id', 'get_local_size')});",
                f"const uint lsz = (uint)({' * '.join(f'get_local_size({d})' for d in dims)});",
                f"const uint grp = (uint)({self.linear('get_group_id', 'get_num_groups')});",
                f"const uint n = (uint)({' * '.join(f'get_global_size({d})' for d in dims)});",
                "int acc = (int)g;"]

    def text(self, helpers_in_header):
        body = "".join(f"  {line}\n" for line in self.prologue() + self.lines)
        params = ", ".join(d for d, _, _ in self.params)
        kernel = f"kernel void {self.name}({params}) {{\n{body}}}\n"
        preamble = "".join(sorted(self.preamble))
        helpers = "".join(self.helpers)
        banner = f"/* {self.name}: generated by tests/fuzz/soundness/grammar_kernels.py */\n"
        if helpers_in_header and helpers:
            header = f"/* helpers of {self.name} */\n{preamble}{helpers}"
            return banner + f'#include "{self.name}_helpers.h"\n' + kernel, header
        return banner + preamble + helpers + kernel, None


# ---- phases: each appends its lines (through emit) and notes hazards and features


def own_index_function(rng, n):
    """A per-buffer injective index function of g over [0, n)."""
    options = ["g", "(n - 1u - g)", "((g + 1u) % n)"]
    for c in (3, 5, 7):
        if math.gcd(c, n) == 1:
            options.append(f"((g * {c}u) % n)")
    return rng.choice(options)


def phase_own_write(kb):
    rng = kb.rng
    if not hasattr(kb, "out_index"):
        kb.out_index = own_index_function(rng, kb.n)
    out = kb.int_buffer("out", kb.n + 4)
    inp = kb.int_buffer("in", kb.n, [rng.randint(-50, 50) for _ in range(kb.n)], read_only=True, const=True)
    index = kb.out_index
    if kb.hazard("global index shifted or colliding"):
        index = rng.choice(["(g / 2u)", "0u", "((g + 1u) % n)", "(g & ~1u)", "(n - 1u - g)"])
    value = rng.choice(["acc", f"acc + {inp}[(g + {rng.randint(0, 3)}u) % n]", "(int)l * 3 + acc",
                        f"{inp}[{kb.out_index}]"])
    lines = [f"{out}[{index}] = {value};"]
    if rng.random() < 0.4:
        read = kb.out_index if not kb.hazard("read of another work-item's global slot") else "((g + 1u) % n)"
        lines.append(f"acc += {out}[{read}];")
    kb.features.update({"global-memory", "captured-table" if kb.n * 4 <= 4096 else "open-table"})
    kb.emit(lines)


def phase_local_exchange(kb):
    rng = kb.rng
    size = kb.n if kb.null_local else kb.lsz
    tmp = kb.local_ints("tmp", size)
    s = rng.randint(0, 3)
    fence = rng.choice(["CLK_LOCAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"])
    first, second = kb.barrier(fence), kb.barrier("CLK_LOCAL_MEM_FENCE")
    hazard = kb.hazard("local barrier dropped, misplaced or fenced wrongly")
    kind = rng.choice(["drop first", "drop second", "global fence", "divergent"]) if hazard else None
    if kind == "drop first":
        first = "/* barrier dropped */"
    elif kind == "drop second":
        second = "/* barrier dropped */"
    elif kind == "global fence":
        first = "barrier(CLK_GLOBAL_MEM_FENCE);"
    elif kind == "divergent":
        first = f"if (l % 2u == 0u) {{ {first} }}"
        kb.features.add("divergent-barrier")
    body = [f"{tmp}[l] = acc + {rng.randint(0, 9)};", first, f"acc += {tmp}[(l + {s}u) % lsz];", second]
    shape = rng.choice(["plain", "plain", "loop", "scalar loop", "uniform branch", "scalar branch"])
    if shape == "loop":
        body = [f"for (int r = 0; r < {rng.randint(2, 3)}; ++r) {{"] + ["  " + b for b in body] + ["}"]
        kb.features.add("barrier-loop")
    elif shape == "scalar loop":
        trips = kb.scalar(kb.fresh("trips"), "int", rng.randint(0, 3))
        body = [f"for (int r = 0; r < {trips}; ++r) {{"] + ["  " + b for b in body] + ["}"]
        kb.features.add("barrier-loop-scalar-trip")
    elif shape == "uniform branch":
        body = ["if (grp % 2u == 0u) {"] + ["  " + b for b in body] + ["}"]
        kb.features.add("barrier-in-uniform-branch")
    elif shape == "scalar branch":
        flag = kb.scalar(kb.fresh("enabled"), "int", rng.randint(0, 1))
        body = [f"if ({flag} != 0) {{"] + ["  " + b for b in body] + ["}"]
        kb.features.add("barrier-in-uniform-branch")
    kb.features.add("local-memory")
    kb.emit(body)


def phase_reduction(kb):
    if kb.null_local or kb.lsz & (kb.lsz - 1):
        return phase_local_exchange(kb)
    tmp = kb.local_ints("tmp", kb.lsz)
    inner, final = kb.barrier(), kb.barrier()
    step = f"if (l < s) {tmp}[l] += {tmp}[l + s];"
    if kb.hazard("reduction barrier dropped or in a branch"):
        kind = kb.rng.choice(["inner", "final", "branch"])
        if kind == "inner":
            inner = "/* barrier dropped */"
        elif kind == "final":
            final = "/* barrier dropped */"
        else:
            step = f"if (l < s) {{ {tmp}[l] += {tmp}[l + s]; {inner} }}"
            inner = ""
            kb.features.add("divergent-barrier")
    body = [f"{tmp}[l] = acc;", kb.barrier(), f"for (uint s = {kb.lsz // 2}u; s > 0u; s >>= 1) {{", f"  {step}"]
    if inner:
        body.append(f"  {inner}")
    body += ["}", f"acc += {tmp}[0];", final]
    kb.features.update({"local-memory", "reduction", "barrier-loop"})
    kb.emit(body)


def phase_atomics_cl12(kb):
    rng = kb.rng
    counter = kb.int_buffer("counter", 8, [0] * 8)
    slot = rng.randint(0, 4)
    op = [f"atomic_add(&{counter}[{slot}], (int)g + 1)", f"atomic_inc(&{counter}[{slot}])",
          f"atomic_xchg(&{counter}[{slot}], acc)", f"atomic_cmpxchg(&{counter}[{slot}], 0, (int)g)",
          f"atomic_max(&{counter}[{slot}], acc)", f"atomic_or(&{counter}[{slot}], (int)l)",
          f"atomic_sub(&{counter}[{slot}], 2)", f"atomic_dec(&{counter}[{slot}])"][rng.randint(0, 7)]
    lines = [f"acc += {op};"]
    kb.features.add("atomic-1.x")
    if "cmpxchg" in op:
        kb.features.add("atomic-cmpxchg")
    if kb.hazard("plain access to an atomic counter"):
        lines.append(rng.choice([f"acc += {counter}[{slot}];", f"if (l == 0u) {counter}[{slot}] = 0;"]))
    if rng.random() < 0.4 and not getattr(kb, "appended", False):
        kb.appended = True
        # An append buffer: atomic_inc gives each work-item its own slot (docs/semantics.md row 9).
        slots = kb.int_buffer("slots", kb.n + 8)
        index = f"atomic_inc(&{counter}[6])"
        if kb.hazard("append index halved"):
            index = f"(atomic_inc(&{counter}[6]) / 2)"
        lines.append(f"{slots}[{index}] = (int)g;")
        kb.features.add("atomic-counter-append")
    if rng.random() < 0.3:
        # A work-group counter in local memory, cleared by one work-item and counted after a barrier.
        lcount = kb.local_ints("lcount", 2)
        ordered = kb.barrier()
        if kb.hazard("local counter cleared without a barrier"):
            ordered = "/* barrier dropped */"
        lines += [f"if (l == 0u) {lcount}[0] = 0;", ordered, f"acc += atomic_inc(&{lcount}[0]);", kb.barrier()]
        kb.features.update({"local-memory", "atomic-local"})
    kb.emit(lines)


def phase_atomics_cl20(kb):
    """OpenCL 2.0 atomics with explicit order and scope (built with -cl-std=CL3.0 on PoCL; Oclgrind 21.10
    has no 2.0 atomics, so these kernels are checked for false alarms only)."""
    rng = kb.rng
    kb.cl20 = True
    counter = kb.int_buffer("counter", 8, [0] * 8)
    slot = rng.randint(0, 4)
    scope = rng.choice(SCOPES_WIDE + (["memory_scope_work_group"] if kb.group_count == 1 and not kb.null_local else []))
    if kb.hazard("narrow atomic scope"):
        scope = rng.choice(["memory_scope_work_group", "memory_scope_work_item"])
    ptr = f"(volatile global atomic_int *)&{counter}[{slot}]"
    op = rng.choice(["fetch_add", "fetch_or", "fetch_max", "exchange", "load", "store"])
    if op == "load":
        line = f"acc += atomic_load_explicit({ptr}, {rng.choice(ORDERS_LOAD)}, {scope});"
    elif op == "store":
        line = f"atomic_store_explicit({ptr}, acc, {rng.choice(ORDERS_STORE)}, {scope});"
    else:
        line = f"acc += atomic_{op}_explicit({ptr}, (int)g, {rng.choice(ORDERS_RMW)}, {scope});"
    lines = [line]
    if rng.random() < 0.4:
        lcount = kb.local_ints("lcount", 2)
        lscope = rng.choice(["memory_scope_work_group", "memory_scope_device"])
        if kb.hazard("work-item scope on a shared local counter"):
            lscope = "memory_scope_work_item"
        lines += [f"if (l == 0u) {lcount}[1] = 0;", kb.barrier(),
                  f"acc += atomic_fetch_add_explicit((volatile local atomic_int *)&{lcount}[1], 1, "
                  f"{rng.choice(ORDERS_RMW)}, {lscope});", kb.barrier()]
        kb.features.add("atomic-local")
    kb.features.add("atomic-2.0-scope")
    kb.emit(lines)


def phase_flag(kb):
    rng = kb.rng
    base = getattr(kb, "flag_slots", 0)
    kb.flag_slots = base + kb.group_count + 2
    flag = kb.int_buffer("flag", 64)
    if kb.flag_slots > 64:
        return
    choice = rng.choice(["single", "per group", "same value", "same value"])
    if kb.hazard("flag store of a value that differs between work-items"):
        choice = rng.choice(["group id", "local id"])
    if choice == "single":
        line = f"if (g == 0u) {flag}[{base}] = acc;"
    elif choice == "per group":
        line = f"if (l == 0u) {flag}[{base + 1}u + grp] = (int)grp;"
    elif choice == "same value":
        line = rng.choice([f"{flag}[{base}] = 1;", f"{flag}[{base}] = (int)get_num_groups(0);"])
        kb.benign = True
        kb.features.add("same-value-store")
    elif choice == "group id":
        line = f"{flag}[{base}] = (int)get_group_id(0);"
        kb.features.add("different-value-store")
    else:
        line = f"{flag}[{base}] = (int)l;"
        kb.features.add("different-value-store")
    kb.features.add("global-memory")
    kb.emit([line])


def phase_vector(kb):
    rng = kb.rng
    kb.vector_count = getattr(kb, "vector_count", 0) + 1
    vin = kb.param(f"vin{kb.vector_count}", f"global const float *vin{kb.vector_count}",
                   {"kind": "buffer", "bytes": 16 * kb.n, "read_only": True,
                    "contents": float_hex([rng.randint(0, 64) / 4 for _ in range(4 * kb.n)])})
    vout = kb.param(f"vout{kb.vector_count}", f"global float *vout{kb.vector_count}",
                    {"kind": "buffer", "bytes": 16 * kb.n + 32, "read_only": False})
    width = rng.choice([2, 4])
    lines = [f"float{width} v{kb.vector_count} = vload{width}(g, {vin}) + (float)acc;"]
    store = f"vstore{width}(v{kb.vector_count}, g, {vout});"
    if kb.hazard("overlapping or neighbour vector access"):
        store = rng.choice([f"vstore{width}(v{kb.vector_count}, 0, {vout} + g);",
                            f"vstore{width}(v{kb.vector_count}, g, {vout}); acc += (int){vout}[{width}u * ((g + 1u) % n)];"])
    lines.append(store)
    if rng.random() < 0.4:
        lines.append(f"acc += (int)vload{width}(g, {vout}).y;")
    kb.features.add("vector-access")
    kb.emit(lines)


def phase_bytes(kb):
    rng = kb.rng
    name = kb.fresh("bytes")
    data = kb.param(name, f"global uchar *{name}", {"kind": "buffer", "bytes": kb.n + 8, "read_only": False})
    line = rng.choice([f"{data}[g] = (uchar)(acc + 1);", f"{data}[g] = (uchar)g;"])
    choice = rng.random()
    if kb.hazard("two work-items store one byte"):
        line = rng.choice([f"{data}[g >> 1] = (uchar)g;", f"{data}[g ^ 1u] = (uchar)acc; {data}[g] = (uchar)g;"])
    elif choice < 0.25:
        line = f"{data}[g >> 1] = (uchar)7;"
        kb.benign = True
        kb.features.add("same-value-store")
    elif choice < 0.5:
        # One int per work-item, and byte g of the same buffer written by work-item g: bytes of another's int.
        words = kb.int_buffer(kb.fresh("words"), kb.n + 1)
        line = f"{words}[g] = 0x01010101 * (int)(g & 1u);"
        if kb.hazard("bytes of another work-item's int"):
            line += f" ((global uchar *){words})[g] = (uchar)(g & 1u);"
    kb.features.add("byte-access")
    kb.emit([line])


def phase_private(kb):
    rng = kb.rng
    size = rng.choice([2, 4, 8])
    kb.features.add("private-array")
    kb.emit([f"int p{size}[{size}];", f"for (int i = 0; i < {size}; ++i) p{size}[i] = acc + i * (int)l;",
             f"acc += p{size}[g % {size}u];"])


def phase_loop(kb):
    rng = kb.rng
    inp = kb.int_buffer("in", kb.n, [rng.randint(-50, 50) for _ in range(kb.n)], read_only=True, const=True)
    count = kb.scalar(kb.fresh("count"), "int", rng.randint(0, 6))
    kb.features.add("loop")
    kb.emit([f"for (int i = 0; i < {count}; ++i)", f"  acc += {inp}[(g + (uint)i) % n];"])


def phase_scatter(kb):
    """dst[T[g]] = g through a captured permutation T, in one of four forms that reach docs/semantics.md row
    13c (distinct table words) and break each of its conditions: a repeated entry (the words are not
    distinct), shorts that repeat where the ints do not (another width), two tables whose ranges meet
    (another table), an int read at byte offset 2g (not a whole word)."""
    rng = kb.rng
    n = kb.n
    form = rng.choice(["plain", "plain", "shorts", "two tables", "bytes view"]) if n > 1 else "plain"
    # The byte view masks its index to the power of two above n (its hazard reads values past n); a mask is
    # far cheaper for the solver than `% n`, which made its race-free form time out.
    mask = (1 << (n - 1).bit_length()) - 1 if n > 1 else 0
    dst = kb.int_buffer(kb.fresh("scattered"), mask + 1 if form == "bytes view" else n)
    kb.features.update({"captured-table" if n * 4 <= 4096 else "open-table", "data-dependent-index",
                        f"scatter-{form.replace(' ', '-')}"})
    perm = list(range(n))
    rng.shuffle(perm)
    if form == "plain":
        if n > 1 and kb.hazard("table with a repeated entry"):
            i, j = rng.sample(range(n), 2)
            perm[i] = perm[j]
        table = kb.int_buffer(kb.fresh("perm"), n, perm, read_only=True, const=True)
        kb.emit([f"{dst}[{table}[g]] = (int)g;"])
    elif form == "shorts":
        # n shorts packed two to an int (little-endian, as PoCL and Oclgrind on x86-64 store them).
        if kb.hazard("shorts that repeat in a table of distinct ints"):
            i, j = rng.sample(range(n), 2)
            perm[i] = perm[j]  # the ints around them still differ unless their other halves agree too
        words = [(perm[k] & 0xFFFF) | ((perm[k + 1] & 0xFFFF) << 16 if k + 1 < n else 0) for k in range(0, n, 2)]
        table = kb.int_buffer(kb.fresh("perm"), len(words), words, read_only=True, const=True)
        kb.emit([f"{dst}[((global const short *){table})[g]] = (int)g;"])
    elif form == "two tables":
        # Even work-items scatter through the first table into [0, half), odd ones through the second into
        # [half, n): each is injective on its work-items and their ranges do not meet.
        half = (n + 1) // 2
        evens, odds = list(range(half)), list(range(half, n))
        rng.shuffle(evens)
        rng.shuffle(odds)
        first, second = [0] * n, [0] * n
        for k in range(n):
            first[k] = evens[k // 2] if k % 2 == 0 else rng.randrange(n)
            second[k] = odds[k // 2] if k % 2 == 1 else rng.randrange(n)
        if kb.hazard("two tables whose ranges meet"):
            odd = rng.randrange(1, n, 2)
            second[odd] = first[rng.randrange(0, n, 2)]
        a = kb.int_buffer(kb.fresh("perm"), n, first, read_only=True, const=True)
        b = kb.int_buffer(kb.fresh("perm"), n, second, read_only=True, const=True)
        kb.emit([f"if (g % 2u == 0u) {{ {dst}[{a}[g]] = (int)g; }} else {{ {dst}[{b}[g]] = (int)g; }}"])
    else:
        # The table read as ints through a byte pointer: at 4g whole words (the permutation), at 2g (the
        # hazard) every other read straddles two words, and the mask keeps it in bounds.
        table = kb.int_buffer(kb.fresh("perm"), n, perm, read_only=True, const=True)
        step = 2 if kb.hazard("an int read at byte offset 2g of a permutation") else 4
        kb.emit([f"{dst}[(uint)(*(global const int *)((global const char *){table} + {step}u * g)) & {mask}u] = (int)g;"])


def phase_strided(kb):
    rng = kb.rng
    stride = rng.randint(1, 3)
    if kb.hazard("stride 0"):
        stride = 0
    name = kb.scalar(kb.fresh("stride"), "uint", stride)
    dst = kb.int_buffer(kb.fresh("strided"), 3 * kb.n + 1)
    kb.emit([f"{dst}[g * {name}] = (int)g;"])


def phase_window(kb):
    """A sliding window bounded by OpenCL's integer min and max (FFmpeg's avgblur: `for (xx = max(0, x - rad);
    xx < min(x + rad + 1, width); xx++)`), which the frontend makes LLVM's min/max intrinsics so that
    ScalarEvolution folds the loop's trip count. Signed or unsigned; hazards: the window writes where its
    neighbours' windows write too (a race when rad > 0), or its upper bound reaches one element past the
    buffer (an out-of-bounds read MemCheck sees)."""
    rng = kb.rng
    n = kb.n
    inp = kb.int_buffer("in", n, [rng.randint(-50, 50) for _ in range(n)], read_only=True, const=True)
    rad = kb.scalar(kb.fresh("rad"), "int", rng.randint(0, 2))
    kb.features.update({"loop", "min-max-window"})
    end = "(int)n + 1" if kb.hazard("a window one element past the buffer") else "(int)n"
    x = kb.fresh("x")
    if rng.random() < 0.5:
        head = f"for (int {x} = max(0, (int)g - {rad}); {x} < min((int)g + {rad} + 1, {end}); ++{x})"
    else:
        kb.features.add("unsigned-window")
        head = (f"for (uint {x} = max(g, (uint){rad}) - (uint){rad}; "
                f"{x} < min(g + (uint){rad} + 1u, (uint)({end})); ++{x})")
    if kb.hazard("a window that writes its neighbours' elements"):
        dst = kb.int_buffer(kb.fresh("window"), n + 1)
        kb.emit([head, f"  {dst}[{x}] = (int)g;"])
    else:
        kb.emit([head, f"  acc += {inp}[{x}];"])


def phase_program_table(kb):
    """A program-scope `constant` table read at a captured index, in a loop up to it, or at a work-item's
    own index: the forms whose reads past the end LLVM folded to poison while the table was an LLVM
    constant (docs/semantics.md row 37k). Hazard: the captured index one past the end (an out-of-bounds
    read MemCheck sees, since Oclgrind reads the index at run time)."""
    rng = kb.rng
    kb.table_count = getattr(kb, "table_count", 0) + 1
    size = rng.choice([2, 3, 4, 8])
    table = f"tab_{kb.name}_{kb.table_count}"
    values = ", ".join(str(rng.randint(-50, 50)) for _ in range(size))
    kb.preamble.add(f"constant int {table}[{size}] = {{{values}}};\n")
    last = size if kb.hazard("a captured index one past a program-scope table") else rng.randint(0, size - 1)
    index = kb.scalar(kb.fresh("k"), "int", last)
    kb.features.add("program-scope-table")
    form = rng.choice(["index", "loop", "own"])
    if form == "index":
        kb.emit([f"acc += {table}[{index}];"])
    elif form == "loop":
        i = kb.fresh("t")
        kb.emit([f"for (int {i} = 0; {i} <= {index}; ++{i})", f"  acc += {table}[{i}];"])
    else:
        kb.emit([f"acc += {table}[(g + (uint){index}) % {size}u];"])


PHASES_CL12 = [phase_own_write, phase_own_write, phase_local_exchange, phase_local_exchange, phase_reduction,
               phase_atomics_cl12, phase_flag, phase_vector, phase_bytes, phase_private, phase_loop,
               phase_scatter, phase_strided, phase_window, phase_program_table]


def generate(rng, name):
    """One grammar kernel named `name` and its launch."""
    budget = 0 if rng.random() < 0.5 else rng.randint(1, 2)
    kb = KernelBuilder(rng, name, budget)
    phases = [rng.choice(PHASES_CL12) for _ in range(rng.randint(2, 5))]
    if rng.random() < 0.1:
        phases.insert(rng.randint(0, len(phases)), phase_atomics_cl20)
    for phase in phases:
        phase(kb)
    # Every kernel stores its accumulator at its own index, so that no phase's accesses are dead code to
    # an optimising driver (Oclgrind would not see a race in code its compiler removed).
    result = kb.int_buffer("result", kb.n)
    kb.lines.append(f"{result}[g] = acc;")
    in_header = bool(kb.helpers) and rng.random() < 0.3
    text, header = kb.text(in_header)
    launch = Launch(name, text, "grammar")
    if header:
        launch.add_header(f"{name}_helpers.h", header)
        kb.features.add("header-include")
    launch.build_options = CL20_OPTIONS if kb.cl20 else ""
    launch.global_size = kb.global_size
    launch.local_size = None if kb.null_local else kb.local
    launch.global_offset = kb.offset
    launch.args = [record for _, record, _ in kb.params]
    if kb.hazards:
        launch.expectation = "unknown-expectation"
    else:
        launch.expectation = "benign" if kb.benign else "racefree"
    launch.features = sorted(kb.features)
    launch.hazards = kb.hazards
    return launch
