#!/usr/bin/python3
"""Generates the stub driver's entry points, the app's calls and the shared call descriptions from CL/cl_icd.h.

usage: gen_stub_calls.py PREPROCESSED_HEADER OUT_DIR

PREPROCESSED_HEADER is CL/cl_icd.h run through the compiler's preprocessor (with the same CL_* defines the
stub and the app are compiled with), so this script sees exactly the declarations the compiler sees. The
entries are the members of `struct _cl_icd_dispatch` in order; each one's parameters (with names) come from
its prototype in cl.h/cl_ext.h/cl_gl.h/cl_egl.h. Members without a prototype here (the Direct3D and DX9
sharing entries, `void *` placeholders off Windows) are skipped. The generated code is type-checked against
cl_icd.h: the stub assigns each entry to its dispatch member, and the app's arguments are typed from the
member's function-pointer type.

Writes:
  StubCalls_generated.h      describeIn_clX / describeOut_clX for every entry (used by the stub and the app)
  StubEntries_generated.inc  the stub's entry points and fillDispatch(), included by StubDriver.cpp
  AppSweep_generated.inc     one call per entry with distinctive arguments, included by StubApp.cpp

Pointer parameters are described by what they point to; the rules are the `POINTERS` table below (the named
exceptions) and the defaults in `classify()`.
"""
import re
import sys

HANDLES = {"cl_platform_id", "cl_device_id", "cl_context", "cl_command_queue", "cl_mem", "cl_program",
           "cl_kernel", "cl_event", "cl_sampler"}
OPAQUE = {"cl_GLsync", "CLeglImageKHR", "CLeglDisplayKHR", "CLeglSyncKHR", "void"}
PROPERTY_LISTS = {"cl_context_properties", "cl_queue_properties", "cl_mem_properties", "cl_sampler_properties",
                  "cl_pipe_properties", "cl_device_partition_property", "cl_device_partition_property_ext",
                  "cl_egl_image_properties_khr"}
STRUCTS = {"cl_image_format", "cl_image_desc"}

# (entry or "*", parameter) -> kind. Kinds: ("bytes", SIZE_PARAM or literal size), ("array", COUNT or literal),
# ("out_array", COUNT), ("out_bytes", SIZE_PARAM), ("cstrs", COUNT, LENGTHS or None), ("binaries", COUNT,
# LENGTHS), ("struct", C_TYPE), ("opaque",). Sizes and counts named here get small app values.
POINTERS = {
    ("*", "event_wait_list"): ("array", "num_events_in_wait_list"),
    ("*", "event_list"): ("array", "num_events"),
    ("*", "device_list"): ("array", "num_devices"),
    ("clCreateContext", "devices"): ("array", "num_devices"),
    ("*", "global_work_offset"): ("array", "work_dim"),
    ("*", "global_work_size"): ("array", "work_dim"),
    ("*", "local_work_size"): ("array", "work_dim"),
    **{("*", n): ("array", 3) for n in ("origin", "region", "src_origin", "dst_origin", "buffer_origin",
                                        "host_origin", "buffer_offset", "host_offset")},
    ("*", "mem_objects"): ("array", "num_mem_objects"),
    ("clEnqueueAcquireGLObjects", "mem_objects"): ("array", "num_objects"),
    ("clEnqueueReleaseGLObjects", "mem_objects"): ("array", "num_objects"),
    ("clEnqueueAcquireEGLObjectsKHR", "mem_objects"): ("array", "num_objects"),
    ("clEnqueueReleaseEGLObjectsKHR", "mem_objects"): ("array", "num_objects"),
    ("clEnqueueNativeKernel", "mem_list"): ("array", "num_mem_objects"),
    ("clEnqueueNativeKernel", "args_mem_loc"): ("array", "num_mem_objects"),
    ("clEnqueueNativeKernel", "args"): ("bytes", "cb_args"),
    ("*", "input_programs"): ("array", "num_input_programs"),
    ("*", "input_headers"): ("array", "num_input_headers"),
    ("*", "header_include_names"): ("cstrs", "num_input_headers", None),
    ("*", "svm_pointers"): ("array", "num_svm_pointers"),
    ("clEnqueueSVMMigrateMem", "sizes"): ("array", "num_svm_pointers"),
    ("clCreateProgramWithSource", "strings"): ("cstrs", "count", "lengths"),
    ("clCreateProgramWithSource", "lengths"): ("array", "count"),
    ("clCreateProgramWithBinary", "binaries"): ("binaries", "num_devices", "lengths"),
    ("clCreateProgramWithBinary", "lengths"): ("array", "num_devices"),
    ("clCreateProgramWithBinary", "binary_status"): ("out_array", "num_devices"),
    ("clGetPlatformIDs", "platforms"): ("out_array", "num_entries"),
    ("clGetDeviceIDs", "devices"): ("out_array", "num_entries"),
    ("clCreateSubDevices", "out_devices"): ("out_array", "num_devices"),
    ("clCreateSubDevicesEXT", "out_devices"): ("out_array", "num_entries"),
    ("clCreateKernelsInProgram", "kernels"): ("out_array", "num_kernels"),
    ("clGetSupportedImageFormats", "image_formats"): ("out_array", "num_entries"),
    ("clSetKernelArg", "arg_value"): ("bytes", "arg_size"),
    ("clSetKernelArgSVMPointer", "arg_value"): ("opaque",),
    ("clSetKernelExecInfo", "param_value"): ("bytes", "param_value_size"),
    ("clEnqueueReadBuffer", "ptr"): ("out_bytes", "size"),
    ("clEnqueueWriteBuffer", "ptr"): ("bytes", "size"),
    ("*", "pattern"): ("bytes", "pattern_size"),
    ("clEnqueueFillImage", "fill_color"): ("bytes", 16),
    ("clEnqueueSVMMemcpy", "src_ptr"): ("bytes", "size"),
    ("clCreateProgramWithIL", "il"): ("bytes", "length"),
    ("clSetProgramSpecializationConstant", "spec_value"): ("bytes", "spec_size"),
    ("*", "input_value"): ("bytes", "input_value_size"),
    ("clCreateSubBuffer", "buffer_create_info"): ("struct", "cl_buffer_region"),
}

# Entries the loader answers itself (never forwarded to a driver's table): not called by the sweep.
LOADER_ANSWERS = {"clGetPlatformIDs": "ocl-icd answers it from each ICD's clIcdGetPlatformIDsKHR",
                  "clUnloadCompiler": "ocl-icd 2.3.1 returns CL_SUCCESS itself and calls no driver"}


def read_entries(text):
    body = re.search(r"struct _cl_icd_dispatch\s*\{(.*?)\}\s*cl_icd_dispatch\s*;", text, re.S).group(1)
    return re.findall(r"cl_api_(\w+)\s+(\w+)\s*;", body)


def split_top(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [" ".join(p.split()) for p in out]


def prototype(text, name):
    m = re.search(r"extern\s+([^;{}()]*?)\b" + name + r"\s*\(", text)
    if not m:
        return None
    i, depth = m.end(), 1
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    params = text[m.end():i - 1].strip()
    ret = " ".join(m.group(1).split())
    return ret, ([] if params in ("", "void") else split_top(params))


class Param:
    def __init__(self, text):
        self.text = text
        self.fn = "(" in text
        if self.fn:
            self.name = re.search(r"\(\s*\*\s*(\w+)\s*\)", text).group(1)
            self.base, self.depth, self.const = "fn", 0, False
            return
        words = re.findall(r"\w+|\*|\[\]", text)
        self.name = [w for w in words if re.match(r"\w", w)][-1]
        self.depth = words.count("*") + words.count("[]")
        self.const = "const" in words
        self.base = " ".join(w for w in words[:-1] if w not in ("const", "*", "[]")) if words[-1] == self.name \
            else " ".join(w for w in words if w not in ("const", "*", "[]", self.name))


def classify(entry, p, params):
    """The parameter's kind (see POINTERS)."""
    if p.fn:
        return ("fn",)
    if p.depth == 0:
        if p.base in HANDLES:
            return ("handle",)
        if p.base in OPAQUE:
            return ("opaque",)
        return ("int",)
    rule = POINTERS.get((entry, p.name)) or POINTERS.get(("*", p.name))
    if rule:
        return rule
    names = {q.name for q in params}
    if p.base == "char" and p.const and p.depth == 1:
        return ("cstr",)
    if p.const and p.base in PROPERTY_LISTS:
        return ("zlist",)
    if p.base in STRUCTS and p.const:
        return ("struct", p.base)
    if p.name == "param_value" and not p.const and "param_value_size" in names:
        return ("out_bytes", "param_value_size")
    if p.base == "void" and p.depth == 1:
        return ("opaque",)
    if not p.const and p.depth == 1:
        return ("out",)
    raise SystemExit(f"gen_stub_calls.py: {entry}({p.text}): no rule for this pointer parameter")


def size_params(kinds):
    """Parameters that size or count another one: the app gives them small values."""
    out = set()
    for k in kinds:
        for field in k[1:]:
            if isinstance(field, str) and not field.startswith("cl_"):
                out.add(field)
    return out


def describe_in(entry, params, kinds):
    lines = []
    for p, k in zip(params, kinds):
        n = p.name
        if k[0] in ("handle", "opaque", "int", "fn", "out", "out_array", "out_bytes"):
            lines.append(f'l.value("{n}", {n});')
        elif k[0] == "cstr":
            lines.append(f'l.cstr("{n}", {n});')
        elif k[0] == "cstrs":
            lengths = k[2] or "nullptr"
            lines.append(f'l.cstrs("{n}", {k[1]}, {n}, {lengths});')
        elif k[0] == "binaries":
            lines.append(f'l.binaries("{n}", {k[1]}, {n}, {k[2]});')
        elif k[0] == "bytes":
            lines.append(f'l.bytes("{n}", {n}, {k[1]});')
        elif k[0] == "struct":
            lines.append(f'l.bytes("{n}", {n}, sizeof({k[1]}));')
        elif k[0] == "array":
            lines.append(f'l.array("{n}", {n}, {k[1]});')
        elif k[0] == "zlist":
            lines.append(f'l.zeroList("{n}", {n});')
        else:
            raise SystemExit(f"kind {k}")
    return lines


def describe_out(entry, params, kinds):
    lines = []
    for p, k in zip(params, kinds):
        n = p.name
        if k[0] == "out":
            lines.append(f'l.deref("{n}", {n});')
        elif k[0] == "out_array":
            if p.base in STRUCTS:
                lines.append(f'l.bytes("{n}", {n}, stub::clampCount({k[1]}) * sizeof({p.base}));')
            else:
                lines.append(f'l.array("{n}", {n}, stub::clampCount({k[1]}));')
        elif k[0] == "out_bytes":
            lines.append(f'l.bytes("{n}", {n}, {k[1]});')
    return lines


def gen(entries, text):
    calls_h, stub_inc, app_inc, table, skipped = [], [], [], [], []
    for index, (member, name) in enumerate(entries):
        proto = prototype(text, name)
        if proto is None:
            skipped.append(name)
            continue
        ret, ptexts = proto
        params = [Param(t) for t in ptexts]
        kinds = [classify(name, p, params) for p in params]
        sig = ", ".join(ptexts)
        args = ", ".join(p.name for p in params)
        unused = " ".join(f"static_cast<void>({p.name});" for p in params)
        ret_void = ret == "void"
        # Shared descriptions.
        calls_h.append(f"inline std::string describeIn_{name}({sig}) {{\n  {unused}\n  stub::Line l(\"{name}\");")
        calls_h += ["  " + s for s in describe_in(name, params, kinds)]
        calls_h.append("  return l.str();\n}")
        out_sig = ", ".join(([] if ret_void else [f"{ret} ret"]) + ptexts)
        calls_h.append(f"inline std::string describeOut_{name}({out_sig}) {{\n  {unused}\n  stub::Line l;")
        if not ret_void:
            calls_h.append('  l.value("ret", ret);')
        calls_h += ["  " + s for s in describe_out(name, params, kinds)]
        calls_h.append("  return l.str();\n}\n")

        # The stub's entry point: log what arrived, fill every out-parameter with distinctive values, let the
        # hand-written answer (if any) give real answers, return the scripted code, log what went back.
        s = [f"{ret} CL_API_CALL stub_{name}({sig}) {{",
             f"  const std::string in = describeIn_{name}({args});",
             f'  cl_int code = stub::takeScripted("{name}");', "  static_cast<void>(code);"]
        for i, (p, k) in enumerate(zip(params, kinds)):
            n = p.name
            if k[0] == "out":
                value = "code" if n == "errcode_ret" else f"stub::distinct<std::remove_pointer_t<decltype({n})>>({index}, {i})"
                s.append(f"  if ({n}) *{n} = {value};")
            elif k[0] == "out_array":
                s.append(f"  stub::fillArray({n}, {k[1]}, {index}, {i});")
            elif k[0] == "out_bytes":
                s.append(f"  stub::fillBytes({n}, {k[1]}, {index}, {i});")
        s.append(f"  stub::answer_{name}(code{', ' if args else ''}{args});" if name in ANSWERED else "")
        if ret_void:
            pass
        elif ret == "cl_int":
            s.append("  cl_int ret = code;")
        elif ret in HANDLES:
            s.append(f"  {ret} ret = code == CL_SUCCESS ? stub::make<{ret}>() : nullptr;")
            if name in ANSWERED_RET:
                s.append(f"  ret = stub::answerRet_{name}(ret{', ' if args else ''}{args});")
        else:
            s.append(f"  {ret} ret = stub::distinct<{ret}>({index}, 99);")
            if name in ANSWERED_RET:
                s.append(f"  ret = stub::answerRet_{name}(ret{', ' if args else ''}{args});")
        if ret_void:
            s.append(f"  stub::record(in, describeOut_{name}({args}));\n}}\n")
        else:
            s.append(f"  stub::record(in, describeOut_{name}(ret{', ' if args else ''}{args}));\n  return ret;\n}}\n")
        stub_inc += [x for x in s if x]
        table.append(f"  table.{member} = &stub_{name};")

        # The app's call: distinctive arguments, the second pass with a scripted error.
        if name in LOADER_ANSWERS:
            continue
        small = size_params(kinds)
        a = [f"void sweep_{name}(App &app, int pass) {{",
             f"  using F = cl_api_{name};", "  static_cast<void>(sizeof(F));"]
        for i, (p, k) in enumerate(zip(params, kinds)):
            n, t = p.name, f"Arg<F, {i}>"
            key = f"{index}, {i}, pass"
            # Counts and sizes are app.small(pass) (see size_params), so they can be used before they are
            # declared (clEnqueueNativeKernel's args precede cb_args).
            count = None
            if len(k) > 1:
                count = str(k[1]) if isinstance(k[1], int) else "app.small(pass)"
            if (name, n) in APP_SPECIAL:
                value = APP_SPECIAL[(name, n)]
            elif k[0] == "handle":
                value = f"app.handle<{t}>(0)"
            elif k[0] in ("opaque", "fn"):
                value = f"app.opaque<{t}>({key})"
            elif k[0] == "int":
                value = f"static_cast<{t}>({'app.small(pass)' if n in small else 'app.distinct(' + key + ')'})"
            elif k[0] == "cstr":
                value = f'app.text("{name}.{n}", pass)'
            elif k[0] == "cstrs":
                value = f'app.texts("{name}.{n}", pass, {count})'
            elif k[0] == "binaries":
                value = f"app.binaries({key}, {count}, {k[2]})"
            elif k[0] == "bytes":
                value = f"app.bytes({key}, {count})"
            elif k[0] == "struct":
                value = f"app.bytes({key}, sizeof({k[1]}))"
            elif k[0] == "array":
                value = f"app.array<{t}>({key}, {count})"
            elif k[0] == "zlist":
                value = f"app.propertyList<{t}>({key})"
            elif k[0] == "out":
                value = f"app.out<{t}>()"
            elif k[0] == "out_array":
                value = f"app.outArray<{t}>({count})"
            elif k[0] == "out_bytes":
                value = f"app.outBytes({count})"
            else:
                raise SystemExit(f"app: kind {k}")
            a.append(f"  {t} {n} = {value};")
        a.append(f'  app.scriptFailure("{name}", pass, {index});')
        a.append(f"  const std::string in = describeIn_{name}({args});")
        check = ""
        if ret == "cl_int":
            check = f'  app.checkCode("{name}", ret);'
        elif "errcode_ret" in [p.name for p in params]:
            check = f'  app.checkCode("{name}", *errcode_ret);'
        if ret_void:
            a.append(f"  ::{name}({args});")
            a.append(f"  app.record(in, describeOut_{name}({args}));\n}}\n")
        else:
            a.append(f"  {ret} ret = ::{name}({args});")
            a.append(f"  app.record(in, describeOut_{name}(ret{', ' if args else ''}{args}));")
            if check:
                a.append(check)
            a.append("}\n")
        app_inc += a
    return calls_h, stub_inc, table, app_inc, skipped


# Entries with a hand-written answer in StubAnswers.cpp (what a loader or the capture engine needs to hear).
ANSWERED = {"clGetPlatformInfo", "clGetDeviceIDs", "clGetDeviceInfo", "clGetCommandQueueInfo", "clGetKernelInfo",
            "clGetKernelArgInfo", "clSetEventCallback", "clGetEventInfo", "clEnqueueReadBuffer"}
ANSWERED_RET = {"clGetExtensionFunctionAddress", "clGetExtensionFunctionAddressForPlatform", "clCreateBuffer"}

# App arguments that must be real for the call to be meaningful or safe.
APP_SPECIAL = {
    ("clCreateProgramWithSource", "lengths"): "app.sourceLengths(strings, count)",
    ("clCreateProgramWithBinary", "lengths"): "app.binaryLengths(num_devices)",
    # A launch shape a real driver accepts (local sizes divide global ones): the capture layer records it.
    ("clEnqueueNDRangeKernel", "global_work_size"): "app.workSizes(work_dim, 448 + 64 * pass)",
    ("clEnqueueNDRangeKernel", "local_work_size"): "app.workSizes(work_dim, 8 + 8 * pass)",
    # The capture engine keeps argument values by index: an index a real driver would refuse stays small.
    ("clSetKernelArg", "arg_index"): "static_cast<cl_uint>(5 + pass)",
    ("clSetEventCallback", "pfn_notify"): "&App::eventCallback",
    ("clGetExtensionFunctionAddress", "func_name"): "app.probeName(pass)",
    ("clGetExtensionFunctionAddressForPlatform", "func_name"): "app.probeName(pass)",
}


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    entries = read_entries(text)
    calls_h, stub_inc, table, app_inc, skipped = gen(entries, text)
    banner = "// Generated by tests/layer/stub/gen_stub_calls.py from CL/cl_icd.h: do not edit.\n"
    covered = [n for _, n in entries if n not in skipped]
    with open(f"{out}/StubCalls_generated.h", "w", encoding="utf-8") as f:
        f.write(banner + "#pragma once\n#include \"CallLine.h\"\n\n")
        f.write(f"// {len(covered)} of the {len(entries)} cl_icd_dispatch entries; skipped (no prototype on this "
                f"platform): {' '.join(skipped)}\n\n")
        f.write("\n".join(calls_h) + "\n")
    with open(f"{out}/StubEntries_generated.inc", "w", encoding="utf-8") as f:
        f.write(banner + "\n".join(stub_inc) + "\n")
        f.write("void fillDispatch(cl_icd_dispatch &table) {\n" + "\n".join(table) + "\n}\n")
    with open(f"{out}/AppSweep_generated.inc", "w", encoding="utf-8") as f:
        f.write(banner + "\n".join(app_inc) + "\n")
        f.write("void sweepAll(App &app, int pass) {\n")
        f.write("\n".join(f"  sweep_{n}(app, pass);" for n in covered if n not in LOADER_ANSWERS) + "\n}\n")


if __name__ == "__main__":
    main()
