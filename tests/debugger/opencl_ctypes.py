"""A few OpenCL calls through ctypes (Debian's python3 has no pyopencl): build a program from source, run one
kernel once over buffers, local memory and scalars, read the buffers back. For instrument_test.py, which runs
a kernel plain and instrumented on PoCL without clcapture-replay."""
import ctypes
import os

CL_DEVICE_TYPE_ALL = 0xFFFFFFFF
CL_MEM_READ_WRITE = 1 << 0
CL_MEM_COPY_HOST_PTR = 1 << 5
CL_PROGRAM_BUILD_LOG = 0x1183

_cl = None


class OpenClError(Exception):
    pass


def _lib():
    global _cl
    if _cl is None:
        _cl = ctypes.CDLL("libOpenCL.so.1")
        p, u, s = ctypes.c_void_p, ctypes.c_uint, ctypes.c_size_t
        i32p = ctypes.POINTER(ctypes.c_int32)
        _cl.clCreateContext.restype = p
        _cl.clCreateContext.argtypes = [p, u, ctypes.POINTER(p), p, p, i32p]
        _cl.clCreateCommandQueue.restype = p
        _cl.clCreateCommandQueue.argtypes = [p, p, ctypes.c_uint64, i32p]
        _cl.clCreateProgramWithSource.restype = p
        _cl.clCreateProgramWithSource.argtypes = [p, u, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(s), i32p]
        _cl.clBuildProgram.argtypes = [p, u, ctypes.POINTER(p), ctypes.c_char_p, p, p]
        _cl.clGetProgramBuildInfo.argtypes = [p, p, u, s, p, ctypes.POINTER(s)]
        _cl.clCreateKernel.restype = p
        _cl.clCreateKernel.argtypes = [p, ctypes.c_char_p, i32p]
        _cl.clCreateBuffer.restype = p
        _cl.clCreateBuffer.argtypes = [p, ctypes.c_uint64, s, p, i32p]
        _cl.clSetKernelArg.argtypes = [p, u, s, p]
        _cl.clEnqueueNDRangeKernel.argtypes = [p, p, u, ctypes.POINTER(s), ctypes.POINTER(s), ctypes.POINTER(s),
                                               u, p, p]
        _cl.clEnqueueReadBuffer.argtypes = [p, p, u, s, s, p, u, p, p]
        _cl.clFinish.argtypes = [p]
        _cl.clGetPlatformIDs.argtypes = [u, ctypes.POINTER(p), ctypes.POINTER(u)]
        _cl.clGetDeviceIDs.argtypes = [p, ctypes.c_uint64, u, ctypes.POINTER(p), ctypes.POINTER(u)]
        for name in ("clReleaseMemObject", "clReleaseKernel", "clReleaseProgram", "clReleaseCommandQueue",
                     "clReleaseContext"):
            getattr(_cl, name).argtypes = [p]
    return _cl


def _check(status, what):
    if status != 0:
        raise OpenClError(f"{what} failed: {status}")


class Local:
    """A __local argument of `size` bytes."""

    def __init__(self, size):
        self.size = size


class Scalar:
    """A scalar argument: its bytes (struct.pack)."""

    def __init__(self, data):
        self.data = data


class Device:
    def __init__(self):
        cl = _lib()
        platform = ctypes.c_void_p()
        count = ctypes.c_uint()
        _check(cl.clGetPlatformIDs(1, ctypes.byref(platform), ctypes.byref(count)), "clGetPlatformIDs")
        if count.value == 0:
            raise OpenClError("no OpenCL platform (OCL_ICD_VENDORS=" + os.environ.get("OCL_ICD_VENDORS", "") + ")")
        self.device = ctypes.c_void_p()
        _check(cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, ctypes.byref(self.device), ctypes.byref(count)),
               "clGetDeviceIDs")
        err = ctypes.c_int32()
        self.context = cl.clCreateContext(None, 1, ctypes.byref(self.device), None, None, ctypes.byref(err))
        _check(err.value, "clCreateContext")
        self.queue = cl.clCreateCommandQueue(self.context, self.device, 0, ctypes.byref(err))
        _check(err.value, "clCreateCommandQueue")

    def run(self, source, kernel, args, global_size, local_size, options="", offset=None):
        """Runs `kernel` once; `args`: bytes/bytearray (a buffer with that content), Local, Scalar. Returns the
        buffers' contents after the launch, in argument order (None for the others)."""
        cl = _lib()
        err = ctypes.c_int32()
        text = ctypes.c_char_p(source.encode())
        program = cl.clCreateProgramWithSource(self.context, 1, ctypes.byref(text), None, ctypes.byref(err))
        _check(err.value, "clCreateProgramWithSource")
        status = cl.clBuildProgram(program, 1, ctypes.byref(self.device), options.encode(), None, None)
        if status != 0:
            size = ctypes.c_size_t()
            cl.clGetProgramBuildInfo(program, self.device, CL_PROGRAM_BUILD_LOG, 0, None, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value + 1)
            cl.clGetProgramBuildInfo(program, self.device, CL_PROGRAM_BUILD_LOG, size.value, log, None)
            cl.clReleaseProgram(program)
            raise OpenClError(f"clBuildProgram failed ({status}):\n{log.value.decode(errors='replace')}")
        k = cl.clCreateKernel(program, kernel.encode(), ctypes.byref(err))
        _check(err.value, "clCreateKernel")
        buffers = []
        for i, a in enumerate(args):
            if isinstance(a, Local):
                _check(cl.clSetKernelArg(k, i, a.size, None), f"clSetKernelArg {i}")
                buffers.append(None)
            elif isinstance(a, Scalar):
                data = ctypes.create_string_buffer(a.data, len(a.data))
                _check(cl.clSetKernelArg(k, i, len(a.data), data), f"clSetKernelArg {i}")
                buffers.append(None)
            else:
                host = ctypes.create_string_buffer(bytes(a), len(a))
                mem = cl.clCreateBuffer(self.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, len(a), host,
                                        ctypes.byref(err))
                _check(err.value, f"clCreateBuffer {i}")
                handle = ctypes.c_void_p(mem)
                _check(cl.clSetKernelArg(k, i, ctypes.sizeof(handle), ctypes.byref(handle)), f"clSetKernelArg {i}")
                buffers.append((mem, len(a)))
        dims = len(global_size)
        gs = (ctypes.c_size_t * dims)(*global_size)
        ls = (ctypes.c_size_t * dims)(*local_size) if local_size else None
        os_ = (ctypes.c_size_t * dims)(*offset) if offset else None
        _check(cl.clEnqueueNDRangeKernel(self.queue, k, dims, os_, gs, ls, 0, None, None), "clEnqueueNDRangeKernel")
        out = []
        for b in buffers:
            if b is None:
                out.append(None)
                continue
            mem, size = b
            host = ctypes.create_string_buffer(size)
            _check(cl.clEnqueueReadBuffer(self.queue, mem, 1, 0, size, host, 0, None, None), "clEnqueueReadBuffer")
            out.append(host.raw)
            cl.clReleaseMemObject(mem)
        _check(cl.clFinish(self.queue), "clFinish")
        cl.clReleaseKernel(k)
        cl.clReleaseProgram(program)
        return out
