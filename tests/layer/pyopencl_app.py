#!/usr/bin/python3
"""A short PyOpenCL application (Debian's python3-pyopencl): two launches of one kernel with different
scalar values. Under clcapture each launch must become an instantiation."""
import numpy as np
import pyopencl as cl

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
program = cl.Program(ctx, """
kernel void axpy(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] += a * x[i];
}
""").build()
x = np.arange(64, dtype=np.float32)
y = np.ones(64, dtype=np.float32)
mf = cl.mem_flags
xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
yb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
kernel = program.axpy
for a in (2.0, 3.0):
    kernel(queue, (64,), (16,), yb, xb, np.float32(a))
cl.enqueue_copy(queue, y, yb)
queue.finish()
ok = np.allclose(y, 1 + 5 * x)
print("PASS" if ok else "FAIL")
raise SystemExit(0 if ok else 1)
