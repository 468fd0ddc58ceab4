"""The instantiations bench/suite_kernels.py verifies: kernels of Rodinia, SHOC and Parboil (their OpenCL
versions) with the launch each host program makes at the suite's documented problem size.

Every entry was read off the host program: the build options it passes, the NDRange, and for each
kernel argument the buffer's byte size as the host allocates it (with its CL_MEM_* access flag), the
`__local` size, or the scalar's value with the type the host passes. A scalar whose value the host
computes from input data or at random (a reduction's result, a random digest, a solver's time step) is
left out of the capture: clcapture-verify then proves for every value (docs/contract.md §5), which covers
the one the host would pass. Device-dependent sizes are those of an NVIDIA GPU (CL_KERNEL_WORK_GROUP_SIZE
1024, preferred work-group size multiple 32), as noted on each. Kernels that cannot be instantiated
faithfully are in SKIPPED with the reason.

Paths are inside the suites' repositories: Rodinia github:yuhc/gpu-rodinia (opencl/), SHOC
github:vetter/shoc (src/opencl/), Parboil github:yuhc/gpu-parboil (benchmarks/*/src/opencl*).
"""
import math
import struct
from dataclasses import dataclass, field

RW, RO, WO = "CL_MEM_READ_WRITE", "CL_MEM_READ_ONLY", "CL_MEM_WRITE_ONLY"
NVIDIA = "device: NVIDIA (work-group limit 1024)"


@dataclass
class Arg:
    """One kernel argument: kind is global, constant, local or scalar; size in bytes (memory) or value
    (scalar, the capture's hex form; None leaves it out of the capture: any value)."""
    name: str
    kind: str
    size: int = 0
    value: str = None
    flags: tuple = (RW,)


@dataclass
class Kernel:
    suite: str            # rodinia | shoc | parboil: which repository holds `source`
    program: str
    entry: str
    source: str           # the kernel file inside the repository
    gsize: list
    lsize: list           # None: the host passes a NULL local size
    args: list
    flags: str = ""
    size: str = ""        # the problem size, as the suite documents it
    variant: str = ""     # tells two launches of one entry point apart
    headers: dict = field(default_factory=dict)  # file the source includes (as it resolves) -> repository path
    embedded: str = ""    # the source is this C string array in `source` (a host file), joined
    note: str = ""

    @property
    def name(self):
        return f"{self.suite}/{self.program}/{self.entry}" + (f"/{self.variant}" if self.variant else "")


def buf(name, size, *flags):
    return Arg(name, "global", size=size, flags=flags or (RW,))


def cbuf(name, size, *flags):
    return Arg(name, "constant", size=size, flags=flags or (RW,))


def loc(name, size):
    return Arg(name, "local", size=size)


def _hex(data):
    return "0x" + data[::-1].hex().upper()  # docs/contract.md §3: the bytes as one little-endian integer


def i16(name, v):
    return Arg(name, "scalar", value=_hex(struct.pack("<h", v)))


def i32(name, v):
    return Arg(name, "scalar", value=_hex(struct.pack("<i", v)))


def u32(name, v):
    return Arg(name, "scalar", value=_hex(struct.pack("<I", v)))


def i64(name, v):
    return Arg(name, "scalar", value=_hex(struct.pack("<q", v)))


def f32(name, v):
    return Arg(name, "scalar", value=_hex(struct.pack("<f", v)))


def f64(name, v):
    return Arg(name, "scalar", value=_hex(struct.pack("<d", v)))


def packed(name, fmt, *values):
    """A struct passed by value, laid out as the host's x86-64 compiler lays it out (fmt: struct module)."""
    return Arg(name, "scalar", value=_hex(struct.pack("<" + fmt, *values)))


def anyvalue(name):
    """A scalar the host computes from data or at random: left out, so every value is verified."""
    return Arg(name, "scalar", value=None)


def fl(x):
    """x rounded to a C float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


# ---------------------------------------------------------------------------------------------------------
# Rodinia (github:yuhc/gpu-rodinia, opencl/)

CFD_NEL = 97046                                 # fvcorr.domn.097K's first line (the data file is not in the repository)
CFD_NELR = 192 * (CFD_NEL // 192 + min(1, CFD_NEL % 192))


def rodinia_cfd():
    n, src = CFD_NELR, "opencl/cfd/Kernels.cl"
    size = f"fvcorr.domn.097K: nel {CFD_NEL}, nelr {n}; block_length 192"
    launch = dict(suite="rodinia", program="cfd", source=src, gsize=[n, 1], lsize=[192, 1], size=size)
    var = lambda name: buf(name, 4 * n * 5)
    ffc = lambda name: cbuf(name, 12)
    return [
        Kernel(entry="memset_kernel", **{**launch, "gsize": [4 * n, 1]}, args=[
            buf("mem_d", 4 * n), i16("val", 0), i32("ct", 4 * n)], note="_clMemset(step_factors, 0, 4*nelr)"),
        Kernel(entry="initialize_variables", **launch, args=[
            var("variables"), cbuf("ff_variable", 20), i32("nelr", n)]),
        Kernel(entry="compute_step_factor", **launch, args=[
            var("variables"), buf("areas", 4 * n), buf("step_factors", 4 * n), i32("nelr", n)]),
        Kernel(entry="compute_flux", **launch, args=[
            buf("elements_surrounding_elements", 4 * n * 4), buf("normals", 4 * n * 12), var("variables"),
            cbuf("ff_variable", 20), var("fluxes"), ffc("ff_flux_contribution_density_energy"),
            ffc("ff_flux_contribution_momentum_x"), ffc("ff_flux_contribution_momentum_y"),
            ffc("ff_flux_contribution_momentum_z"), i32("nelr", n)]),
        Kernel(entry="time_step", **launch, args=[
            i32("j", 0), i32("nelr", n), var("old_variables"), var("variables"), buf("step_factors", 4 * n),
            var("fluxes")], note="first Runge-Kutta stage (j = 0)"),
    ]


def rodinia_lavamd():
    b1 = 50                                      # run: -boxes1d 50
    nb = b1 ** 3
    box_mem, space_elem = nb * 656, nb * 100     # sizeof(box_str) = 656 on x86-64; NUMBER_PAR_PER_BOX 100
    dim = packed("d_dim_gpu", "iiiiqqqqq", 7, 0, 1, b1, nb, box_mem, space_elem, space_elem * 16, space_elem * 4)
    return [Kernel("rodinia", "lavaMD", "kernel_gpu_opencl", "opencl/lavaMD/kernel/kernel_gpu_opencl.cl",
                   [nb * 128], [128], flags="-I.", size="-boxes1d 50 (125,000 boxes)", args=[
                       packed("d_par_gpu", "f", 0.5), dim, buf("d_box_gpu", box_mem),
                       buf("d_rv_gpu", space_elem * 16), buf("d_qv_gpu", space_elem * 4),
                       buf("d_fv_gpu", space_elem * 16)])]


def rodinia_srad():
    nr, nc = 502, 458                            # run: -n 1000 -l 0.5 -s 502 458
    ne = nr * nc
    g = -(-ne // 256) * 256
    src, size = "opencl/srad/kernel/kernel_gpu_opencl.cl", "502 x 458 image, lambda atoi(\"0.5\") = 0"
    img = lambda name: buf(name, 4 * ne)
    common = dict(suite="rodinia", program="srad", source=src, lsize=[256], flags="-I.", size=size,
                  headers={"main.h": "opencl/srad/main.h"})
    neigh = [f32("d_lambda", 0.0), i32("d_Nr", nr), i32("d_Nc", nc), i64("d_Ne", ne), buf("d_iN", 4 * nr),
             buf("d_iS", 4 * nr), buf("d_jE", 4 * nc), buf("d_jW", 4 * nc), img("d_dN"), img("d_dS"),
             img("d_dE"), img("d_dW")]
    out = [Kernel(entry="extract_kernel", gsize=[g], args=[i64("d_Ne", ne), img("d_I")], **common),
           Kernel(entry="prepare_kernel", gsize=[g], args=[i64("d_Ne", ne), img("d_I"), img("d_sums"), img("d_sums2")],
                  **common)]
    for step, (no, mul, blocks) in enumerate([(ne, 1, g // 256), (g // 256, 256, 4), (4, 65536, 1)], 1):
        out.append(Kernel(entry="reduce_kernel", variant=f"pass{step}", gsize=[blocks * 256], args=[
            i64("d_Ne", ne), i64("d_no", no), i32("d_mul", mul), img("d_sums"), img("d_sums2"),
            i32("gridDim", blocks)], **common))
    out += [Kernel(entry="srad_kernel", gsize=[g], args=neigh + [anyvalue("d_q0sqr"), img("d_c"), img("d_I")],
                   note="d_q0sqr: from the image's statistics", **common),
            Kernel(entry="srad2_kernel", gsize=[g], args=neigh + [img("d_c"), img("d_I")], **common),
            Kernel(entry="compress_kernel", gsize=[g], args=[i64("d_Ne", ne), img("d_I")], **common)]
    return out


def hotspot_constants(n):
    """hotspot.c compute_tran_temp's Cap, Rx, Ry, Rz, step for an n x n grid, rounded as C rounds them."""
    t_chip, chip = fl(0.0005), fl(0.016)
    gh = gw = fl(chip / n)
    cap = fl(0.5 * 1.75e6 * t_chip * gw * gh)
    rx = fl(gw / (2.0 * 100 * t_chip * gh))
    ry = fl(gh / (2.0 * 100 * t_chip * gw))
    rz = fl(t_chip / fl(fl(100 * gh) * gw))
    max_slope = fl(3.0e6 / (0.5 * t_chip * 1.75e6))
    return cap, rx, ry, rz, fl(0.001 / max_slope)


def hotspot3d_constants(n, layers):
    """3D.c's stepDivCap, ce, cn, ct, cc for n x n x layers, rounded as C rounds them."""
    t_chip, chip = fl(0.0005), fl(0.016)
    dx = dy = fl(chip / n)
    dz = fl(t_chip / layers)
    cap = fl(0.5 * 1.75e6 * t_chip * dx * dy)
    rx, ry = fl(dy / (2.0 * 100 * t_chip * dx)), fl(dx / (2.0 * 100 * t_chip * dy))
    rz = fl(dz / fl(fl(100 * dx) * dy))
    dt = fl(0.001 / fl(3.0e6 / (0.5 * t_chip * 1.75e6)))
    sdc = fl(dt / cap)
    ce, cn, ct = fl(sdc / rx), fl(sdc / ry), fl(sdc / rz)
    return sdc, ce, cn, ct, fl(1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct))


def rodinia_stencils():
    n, pyramid = 1024, 4                         # run: 1024 4 10000
    cap, rx, ry, rz, step = hotspot_constants(n)
    blocks = -(-n // (16 - 2 * pyramid))
    hotspot = Kernel("rodinia", "hotspot", "hotspot", "opencl/hotspot/hotspot_kernel.cl", [16 * blocks] * 2, [16, 16],
                     flags="  -DBLOCK_SIZE=16", size="1024 x 1024 grid, pyramid height 4", args=[
                         i32("iteration", pyramid), buf("power", 4 * n * n, RO, "CL_MEM_USE_HOST_PTR"),
                         buf("temp_src", 4 * n * n, RW, "CL_MEM_USE_HOST_PTR"), buf("temp_dst", 4 * n * n),
                         i32("grid_cols", n), i32("grid_rows", n), i32("border_cols", pyramid),
                         i32("border_rows", pyramid), f32("Cap", cap), f32("Rx", rx), f32("Ry", ry), f32("Rz", rz),
                         f32("step", step)])
    m, layers = 512, 8                           # run: -n 512 -l 8 -i 500
    sdc, ce, cn, ct, cc = hotspot3d_constants(m, layers)
    cells = 4 * m * m * layers
    hotspot3d = Kernel("rodinia", "hotspot3D", "hotspotOpt1", "opencl/hotspot3D/hotspotKernel.cl", [m, m], [64, 4],
                       size="512 x 512 x 8", args=[
                           buf("p", cells, RO), buf("tIn", cells), buf("tOut", cells), f32("sdc", sdc),
                           i32("nx", m), i32("ny", m), i32("nz", layers), f32("ce", ce), f32("cw", ce),
                           f32("cn", cn), f32("cs", cn), f32("ct", ct), f32("cb", ct), f32("cc", cc)])
    cols, rows, ph = 100000, 100, 20             # run: -c 100000 -r 100 -h 20
    lws = next(d for d in range(1024, 0, -1) if (rows * cols) % d == 0)
    pathfinder = Kernel("rodinia", "pathfinder", "dynproc_kernel", "opencl/pathfinder/kernels.cl", [rows * cols],
                        [lws], size="100,000 columns x 100 rows, pyramid height 20",
                        note=f"local size {lws}: the largest divisor of the global size within the work-group limit; "
                             + NVIDIA, args=[
                            i32("iteration", ph), buf("gpuWall", 4 * (rows * cols - cols), RO), buf("gpuSrc", 4 * cols),
                            buf("gpuResults", 4 * cols), i32("cols", cols), i32("rows", rows), i32("startStep", 0),
                            i32("border", ph), i32("HALO", 1), loc("prev", 4 * lws), loc("result", 4 * lws),
                            buf("outputBuffer", 4 * 16384)])
    return [hotspot, hotspot3d, pathfinder]


def rodinia_dense():
    inp, hid = 4194304, 16                       # backprop run: -n 4194304
    blocks = inp // 16
    wts = 4 * (inp + 1) * (hid + 1)
    bp = dict(suite="rodinia", program="backprop", source="opencl/backprop/backprop_kernel.cl",
              gsize=[16, 16 * blocks], lsize=[16, 16], size="4,194,304 input units, 16 hidden")
    dim = 8192                                   # lud run: -s 8192; offset of the first step
    lud = dict(suite="rodinia", program="lud", source="opencl/lud/lud_kernel.cl", flags="  -DBLOCK_SIZE=16",
               size="8192 x 8192, first step (offset 0)")
    m = buf("m", 4 * dim * dim)
    per = 16 * (dim // 16 - 1)
    cols = 8193                                  # nw run: 8192 10
    nw_args = lambda blk: [buf("reference_d", 4 * cols * cols), buf("input_itemsets_d", 4 * cols * cols),
                           buf("output_itemsets_d", 4 * cols * cols), loc("input_itemsets_l", 4 * 17 * 17),
                           loc("reference_l", 4 * 16 * 16), i32("cols", cols), i32("penalty", 10), i32("blk", blk),
                           i32("block_width", 512), i32("worksize", 8192), i32("offset_r", 0), i32("offset_c", 0)]
    nw = dict(suite="rodinia", program="nw", source="opencl/nw/nw.cl", lsize=[16, 1], flags="  -DBLOCK_SIZE=16",
              size="8192 x 8192, penalty 10")
    g = 2048                                     # gaussian run: -s 2048; t = 0; BLOCK_SIZE_0 0: NULL local size
    gauss = dict(suite="rodinia", program="gaussian", source="opencl/gaussian/gaussianElim_kernels.cl", lsize=None,
                 size="2048 x 2048, first step (t = 0)")
    gargs = [buf("m_dev", 4 * g * g), buf("a_dev", 4 * g * g), buf("b_dev", 4 * g), i32("size", g), i32("t", 0)]
    return [
        Kernel(entry="bpnn_layerforward_ocl", **bp, args=[
            buf("input_cuda", 4 * (inp + 1)), buf("output_hidden_cuda", 4 * (hid + 1)), buf("input_hidden_cuda", wts),
            buf("hidden_partial_sum", 4 * blocks * 16), loc("input_node", 64), loc("weight_matrix", 1024),
            i32("in", inp), i32("hid", hid)]),
        Kernel(entry="bpnn_adjust_weights_ocl", **bp, args=[
            buf("delta", 4 * (hid + 1)), i32("hid", hid), buf("ly", 4 * (inp + 1)), i32("in", inp), buf("w", wts),
            buf("oldw", wts)]),
        Kernel(entry="lud_diagonal", **lud, gsize=[16, 1], lsize=[16, 1], args=[
            m, loc("shadow", 1024), i32("matrix_dim", dim), i32("offset", 0)]),
        Kernel(entry="lud_perimeter", **lud, gsize=[2 * per, 1], lsize=[32, 1], args=[
            m, loc("dia", 1024), loc("peri_row", 1024), loc("peri_col", 1024), i32("matrix_dim", dim),
            i32("offset", 0)]),
        Kernel(entry="lud_internal", **lud, gsize=[per, per], lsize=[16, 16], args=[
            m, loc("peri_row", 1024), loc("peri_col", 1024), i32("matrix_dim", dim), i32("offset", 0)]),
        Kernel(entry="nw_kernel1", variant="blk512", gsize=[16 * 512, 1], args=nw_args(512), **nw),
        Kernel(entry="nw_kernel2", variant="blk511", gsize=[16 * 511, 1], args=nw_args(511), **nw),
        Kernel(entry="Fan1", gsize=[g], args=gargs, **gauss),
        Kernel(entry="Fan2", gsize=[g, g], args=gargs, **gauss),
    ]


def disk_ones(radius):
    """particlefilter's strelDisk: the number of ones in the disk of this radius."""
    d = radius * 2 - 1
    return sum(1 for x in range(d) for y in range(d) if math.hypot(x - radius + 1, y - radius + 1) < radius)


def rodinia_particles():
    npart, isz, nfr = 400000, 128, 10            # run: -x 128 -y 128 -z 10 -np 400000 (the double version)
    ones, tpb = disk_ones(5), 512
    g = -(-npart // tpb) * tpb
    d = lambda name: buf(name, 8 * npart)
    pf = dict(suite="rodinia", program="particlefilter", source="opencl/particlefilter/particle_double.cl",
              gsize=[g], lsize=[tpb], flags="-cl-fast-relaxed-math", size="128 x 128 x 10 frames, 400,000 particles",
              note="threads_per_block 512 (the device allows it)")
    sums = buf("partial_sums", 8 * npart + 1, RW, "CL_MEM_COPY_HOST_PTR")
    npts, dim, kmax = 65536, 256, 21             # streamcluster run: 10 20 256 65536 65536 1000; kmax + 1 in pgain
    nk = 819200                                  # kmeans run: 819200.txt, 34 features (datagen default), 5 clusters
    km = dict(suite="rodinia", program="kmeans", source="opencl/kmeans/kmeans.cl", gsize=[nk], lsize=[256],
              size="819,200 points x 34 features, 5 clusters")
    return [
        Kernel(entry="likelihood_kernel", variant="k1", **pf, args=[
            d("arrayX"), d("arrayY"), d("xj"), d("yj"), d("CDF"), buf("ind", 4 * ones * npart), buf("objxy", 8 * ones),
            d("likelihood"), buf("I", isz * isz * nfr), d("u"), d("weights"), i32("Nparticles", npart),
            i32("countOnes", ones), i32("max_size", isz * isz * nfr), i32("k", 1), i32("IszY", isz), i32("Nfr", nfr),
            buf("seed", 4 * npart), sums, loc("buffer", 8 * tpb)]),
        Kernel(entry="sum_kernel", **pf, args=[sums, i32("Nparticles", npart)]),
        Kernel(entry="normalize_weights_kernel", **pf, args=[
            d("weights"), i32("Nparticles", npart), sums, d("CDF"), d("u"), buf("seed", 4 * npart)]),
        Kernel(entry="find_index_kernel", **pf, args=[
            d("arrayX"), d("arrayY"), d("CDF"), d("u"), d("xj"), d("yj"), d("weights"), i32("Nparticles", npart)]),
        Kernel("rodinia", "streamcluster", "pgain_kernel", "opencl/streamcluster/Kernels.cl", [npts, 1], [256, 1],
               size="65,536 points x 256 dimensions, kmax 20", note="x (the candidate) and K (centres so far) vary "
               "with the run: any value; Point is 32 bytes on the host", args=[
                   buf("p", 32 * npts), buf("coord_d", 4 * npts * dim), buf("work_mem_d", 4 * kmax * npts),
                   buf("center_table_d", 4 * npts), buf("switch_membership_d", npts), loc("coord_s", 4 * dim),
                   i32("num", npts), i32("dim", dim), anyvalue("x"), anyvalue("K")]),
        Kernel(entry="kmeans_swap", **km, args=[
            buf("feature", 4 * nk * 34), buf("feature_swap", 4 * nk * 34), i32("npoints", nk), i32("nfeatures", 34)]),
        Kernel(entry="kmeans_kernel_c", **km, args=[
            buf("feature", 4 * nk * 34), buf("clusters", 4 * 5 * 34), buf("membership", 4 * nk), i32("npoints", nk),
            i32("nclusters", 5), i32("nfeatures", 34), i32("offset", 0), i32("size", 0)]),
        Kernel("rodinia", "myocyte", "kernel_gpu_opencl", "opencl/myocyte/kernel/kernel_gpu_opencl.cl", [4], [2],
               flags="-I./../", size="-time 500 (91 equations, 18 parameters)",
               note="timeinst: a float time step passed as an int, varies with the solver: any value", args=[
                   anyvalue("timeinst"), buf("d_initvalu", 4 * 91), buf("d_finavalu", 4 * 91),
                   buf("d_params", 4 * 18), buf("d_com", 12)]),
    ]


def rodinia_kernels():
    return (rodinia_cfd() + rodinia_lavamd() + rodinia_srad() + rodinia_stencils() + rodinia_dense()
            + rodinia_particles())


# ---------------------------------------------------------------------------------------------------------
# SHOC (github:vetter/shoc, src/opencl/): size class 1, SHOC's default (-s 1)

SHOC1 = "src/opencl/level1/"


def shoc_level1():
    atoms = 12288                                # MD probSizes[0]; maxNeighbors 128
    md = lambda vec, cut: [buf("force", vec * atoms), buf("position", vec * atoms), i32("neighCount", 128),
                                 buf("neighList", 4 * atoms * 128), cut("cutsq", 16.0), cut("lj1", 1.5),
                                 cut("lj2", 2.0), i32("inum", atoms)]
    mdk = dict(suite="shoc", program="md", entry="compute_lj_force", source=SHOC1 + "md/md.cl", gsize=[atoms],
               lsize=[128], size="12,288 atoms, 128 neighbours")
    n = 262144                                   # reduction, scan, sort: 1 MiB of 4-byte elements
    red = dict(suite="shoc", program="reduction", entry="reduce", source=SHOC1 + "reduction/reduction.cl",
               gsize=[16384], lsize=[256], size="1 MiB")
    scan = dict(suite="shoc", program="scan", source=SHOC1 + "scan/scan.cl", lsize=[256], flags="-DSINGLE_PRECISION",
                size="1 MiB of floats")
    sort = dict(suite="shoc", program="sort", source=SHOC1 + "sort/sort.cl", lsize=[256], flags=" ",
                size="1 MiB of uints, first radix pass (shift 0)")
    fft = dict(suite="shoc", program="fft", source=SHOC1 + "fft/fft.cl", lsize=[64],
               flags=" -cl-mad-enable -DSINGLE_PRECISION", size="1 MiB: 256 FFTs of 512 points")
    return [
        Kernel(**mdk, variant="sp", flags="-DSINGLE_PRECISION", args=md(16, f32)),
        Kernel(**mdk, variant="dp", flags="-DK_DOUBLE_PRECISION ", args=md(32, f64)),
        Kernel(**red, variant="sp", flags="-DSINGLE_PRECISION", args=[
            buf("g_idata", 4 * n), buf("g_odata", 4 * 64), loc("sdata", 4 * 256), u32("n", n)]),
        Kernel(**red, variant="dp", flags="-DK_DOUBLE_PRECISION ", args=[
            buf("g_idata", 4 * n), buf("g_odata", 8 * 64), loc("sdata", 8 * 256), u32("n", n // 2)]),
        Kernel(entry="reduce", gsize=[16384], **scan, args=[
            buf("in", 4 * n), buf("isums", 4 * 64), i32("n", n), loc("lmem", 4 * 256)]),
        Kernel(entry="top_scan", gsize=[256], **scan, args=[buf("isums", 4 * 64), i32("n", 64), loc("lmem", 8 * 256)]),
        Kernel(entry="bottom_scan", gsize=[16384], **scan, args=[
            buf("in", 4 * n), buf("isums", 4 * 64), buf("out", 4 * n), i32("n", n), loc("lmem", 8 * 256)]),
        Kernel(entry="reduce", gsize=[16384], **sort, args=[
            buf("in", 4 * n), buf("isums", 4 * 64 * 16), i32("n", n), loc("lmem", 4 * 256), i32("shift", 0)]),
        Kernel(entry="top_scan", gsize=[256], **sort, args=[
            buf("isums", 4 * 64 * 16), i32("n", 64), loc("lmem", 8 * 256)]),
        Kernel(entry="bottom_scan", gsize=[16384], **sort, args=[
            buf("in", 4 * n), buf("isums", 4 * 64 * 16), buf("out", 4 * n), i32("n", n), loc("lmem", 8 * 256),
            i32("shift", 0)]),
        Kernel(entry="fft1D_512", gsize=[16384], **fft, args=[buf("work", 1 << 20)]),
        Kernel(entry="ifft1D_512", gsize=[16384], **fft, args=[buf("work", 1 << 20)]),
        Kernel(entry="chk1D_512", gsize=[8192], **fft, args=[buf("work", 1 << 20), i32("half_n_cmplx", 65536),
                                                             buf("fail", 4)]),
    ]


def kway_tree_edges(verts, degree):
    """SHOC's Graph::GenerateSimpleKWayGraph: the adjacency list's length."""
    return sum(sum(1 for j in range(degree) if i * degree + j + 1 < verts) + (1 if i else 0) for i in range(verts))


def shoc_level1_more():
    rows = 1024                                  # Spmv probSizes[0]; 1 % of the entries non-zero
    nnz = rows * rows // 100
    csr = [buf("val", 4 * nnz), buf("vec", 4 * rows), buf("cols", 4 * nnz), buf("rowDelimiters", 4 * (rows + 1)),
           i32("dim", rows)]
    spmv = dict(suite="shoc", program="spmv", source=SHOC1 + "spmv/spmv.cl", lsize=[128], flags="-DSINGLE_PRECISION ",
                size="1024 rows, 10,485 non-zeros; no image support (USE_TEXTURE off)")
    side, pitch = 514, 528                       # Stencil2D: 512 x 512 + halo, rows padded to 16
    st = dict(suite="shoc", program="stencil2d", source=SHOC1 + "stencil2d/stencil2d.cl",
              flags="-DLROWS=8 -DLCOLS=256 -DSINGLE_PRECISION", size="512 x 512, lsize 8,256")
    grid = buf("data", 4 * side * pitch)
    verts = 1000                                 # BFS prob_sizes[0], k-way tree of degree 2
    edges = kway_tree_edges(verts, 2)
    elems = 16384 * 1024 // 4                    # Triad: the largest block, 16 MiB
    return [
        Kernel(entry="spmv_csr_scalar_kernel", gsize=[rows], args=csr + [buf("out", 4 * rows)], **spmv),
        Kernel(entry="spmv_csr_vector_kernel", gsize=[rows * 32],
               args=csr + [i32("vecWidth", 32), buf("out", 4 * rows)],
               note="vecWidth 32, the preferred work-group size multiple; " + NVIDIA, **spmv),
        Kernel(entry="StencilKernel", gsize=[(side - 2) // 8, side - 2], lsize=[1, 256], **st, args=[
            grid, buf("newData", 4 * side * pitch), i32("alignment", 16), f32("wCenter", 0.25),
            f32("wCardinal", 0.15), f32("wDiagonal", 0.05), loc("sh", 4 * 10 * 258)]),
        Kernel(entry="CopyRect", gsize=[side], lsize=None, **st, args=[
            buf("dest", 4 * side * pitch), i32("doffset", 0), i32("dpitch", pitch), grid, i32("soffset", 0),
            i32("spitch", pitch), i32("width", 1), i32("height", side)]),
        Kernel("shoc", "bfs", "BFS_kernel_warp", SHOC1 + "bfs/bfs_iiit.cl", [1024], [1024],
               size=f"1000 vertices (k-way tree, degree 2, {edges} adjacency entries), first level",
               note="global and local size from getMaxWorkGroupSize; " + NVIDIA, args=[
                   buf("levels", 4 * verts), buf("edgeArray", 4 * (verts + 1), RO), buf("edgeArrayAux", 4 * edges, RO),
                   i32("W_SZ", 32), i32("CHUNK_SZ", 32), u32("numVertices", verts), i32("curr", 0),
                   buf("flag", 4)]),
        Kernel("shoc", "triad", "Triad", SHOC1 + "triad/Triad.cpp", [elems], [128], embedded="mTriadCLSource",
               size="16 MiB block", args=[buf("memA", 4 * elems, RO), buf("memB", 4 * elems, RO),
                                         buf("memC", 4 * elems, WO), f32("s", 1.75)]),
        Kernel("shoc", "md5hash", "FindKeyWithDigest_Kernel", SHOC1 + "md5hash/md5.cl", [3907 * 256], [256],
               size="7-byte keys, 10 values a byte (keyspace 10^7)", note="the digest is of a random key: any value",
               args=[anyvalue("searchDigest0"), anyvalue("searchDigest1"), anyvalue("searchDigest2"),
                     anyvalue("searchDigest3"), i32("keyspace", 10 ** 7), i32("byteLength", 7), i32("valsPerByte", 10),
                     buf("foundIndex", 4), buf("foundKey", 8), buf("foundDigest", 16)]),
    ]


S3D_RATT = ["ratt2", "ratt3", "ratt4", "ratt5", "ratt6", "ratt7", "ratt8", "ratt9"]
S3D_RDWDOT = ["rdwdot", "rdwdot2", "rdwdot3", "rdwdot6", "rdwdot7", "rdwdot8", "rdwdot9", "rdwdot10"]


def shoc_s3d():
    n = 24 ** 3                                  # S3D probSizes_SP[0] = 24: 13,824 grid points
    base = 4 * n
    b = lambda name, count: buf(name, count * base)
    flags = f"-DSINGLE_PRECISION -DDIM=24 -DN_GP={n} "
    k = lambda name, args: Kernel("shoc", "s3d", name if name == "gr_base" else name + "_kernel",
                                  f"src/opencl/level2/s3d/{name}.cl", [n], [128], args=args, flags=flags,
                                  size="24^3 points, single precision")
    t, conv = b("T", 1), f32("TCONV", 1.0)
    ratt = lambda name: k(name, [t, b("RF", 206), b("RB", 206), b("EG", 32), conv])
    ratx = lambda name: k(name, [t, b("C", 22), b("RF", 206), b("RB", 206), b("RKLOW", 21), conv])
    qssa = lambda name: k(name, [b("RF", 206), b("RB", 206), b("A", 121)])
    rdwdot = lambda name: k(name, [b("RKF", 206), b("RKR", 206), b("WDOT", 22), f32("rateconv", 1.0),
                                   buf("molwt", 4 * 22)])
    return ([k("gr_base", [b("P", 1), t, b("Y", 22), b("C", 22), conv, f32("PCONV", 1.0)]),
             k("rdsmh", [t, b("EG", 32), conv]), k("ratt", [t, b("RF", 206), conv])]
            + [ratt(name) for name in S3D_RATT]
            + [k("ratt10", [t, b("RKLOW", 21), conv]), ratx("ratx"), ratx("ratxb"),
               k("ratx2", [b("C", 22), b("RF", 206)]), k("ratx4", [b("C", 22), b("RB", 206)])]
            + [qssa(name) for name in ("qssa", "qssab", "qssa2")] + [rdwdot(name) for name in S3D_RDWDOT])


# ---------------------------------------------------------------------------------------------------------
# Parboil (github:yuhc/gpu-parboil, benchmarks/*/src/opencl*)

def parboil_kernels():
    nx, ny, nz = 512, 512, 64                    # stencil default: -- 512 512 64 100
    grid = 4 * nx * ny * nz
    c0, c1 = fl(1.0 / 6.0), fl(fl(1.0 / 6.0) / 6.0)
    sten = lambda sub: dict(suite="parboil", program="stencil", source=f"benchmarks/stencil/src/{sub}/kernel.cl",
                            flags=f"-I src/{sub}", variant=sub, size="default: 512 x 512 x 64",
                            headers={"common.h": f"benchmarks/stencil/src/{sub}/common.h"})
    st_args = [f32("c0", c0), f32("c1", c1), buf("A0", grid), buf("Anext", grid), i32("nx", nx), i32("ny", ny),
               i32("nz", nz)]
    m, n, kk = 1024, 1056, 992                   # sgemm medium: A 1024 x 992, B^T 1056 x 992
    gemm_args = [buf("A", 4 * m * kk, RO), i32("lda", m), buf("B", 4 * kk * n, RO), i32("ldb", n),
                 buf("C", 4 * m * n, WO), i32("ldc", m), i32("k", kk), f32("alpha", 1.0), f32("beta", 0.0)]
    gemm = lambda sub: dict(suite="parboil", program="sgemm", entry="mysgemmNT", variant=sub,
                            source=f"benchmarks/sgemm/src/{sub}/kernel.cl", size="medium: 1024 x 992 times 992 x 1056")
    lbm_bytes = (120 + 8) * 120 * (150 + 4) * 20 * 4  # PADDED_X * PADDED_Y * PADDED_Z * N_CELL_ENTRIES floats
    lbm_src = "benchmarks/lbm/src/opencl_base/"
    nk, nxq = 2048, 262144                       # mri-q large: 64_64_64_dataset.bin
    mriq = dict(suite="parboil", program="mri-q", source="benchmarks/mri-q/src/opencl/kernels.cl",
                flags="-I src/opencl_nvidia", size="large: numX 262,144, numK 2048",
                headers={"macros.h": "benchmarks/mri-q/src/opencl_nvidia/macros.h"})
    return [
        Kernel(entry="naive_kernel", gsize=[512, ny - 2, nz - 2], lsize=[256, 1, 1], args=st_args,
               **sten("opencl_base")),
        Kernel(entry="block2D_hybrid_coarsen_x", gsize=[(nx + 63) // 64 * 32, (ny + 3) // 4 * 4, 1], lsize=[32, 4, 1],
               args=st_args + [loc("sh_A0", 4 * 64 * 4)], **sten("opencl_nvidia")),
        Kernel(**gemm("opencl_base"), gsize=[m, n], lsize=[16, 16], args=gemm_args),
        Kernel(**gemm("opencl_nvidia"), gsize=[m * 16 // 128, n * 8 // 16], lsize=[16, 8], args=gemm_args,
               flags="-D TILE_N=16 -D TILE_TB_HEIGHT=8 -D TILE_M=128"),
        Kernel("parboil", "lbm", "performStreamCollide_kernel", lbm_src + "kernel.cl", [120 * 120, 150, 1], [120, 1, 1],
               flags="-I src/opencl_base", size="120 x 120 x 150 (compile-time), short: 100 steps",
               headers={"layout_config.h": lbm_src + "layout_config.h", "lbm_macros.h": lbm_src + "lbm_macros.h"},
               args=[buf("srcGrid", lbm_bytes), buf("dstGrid", lbm_bytes)]),
        Kernel(entry="ComputePhiMag_GPU", gsize=[nk], lsize=[256], **mriq, args=[
            buf("phiR", 4 * nk, RO), buf("phiI", 4 * nk, RO), buf("phiMag", 4 * nk, WO), i32("numK", nk)]),
        Kernel(entry="ComputeQ_GPU", gsize=[nxq // 4], lsize=[64], **mriq, args=[
            i32("numK", nk), i32("kGlobalIndex", 0), buf("x", 4 * nxq, RO), buf("y", 4 * nxq, RO),
            buf("z", 4 * nxq, RO), buf("Qr", 4 * nxq), buf("Qi", 4 * nxq), buf("ck", 16 * 1024)],
               note="the first of numK / 1024 = 2 launches"),
    ]


def all_kernels():
    return rodinia_kernels() + shoc_level1() + shoc_level1_more() + shoc_s3d() + parboil_kernels()


SKIPPED = [
    ("rodinia", "b+tree", "the tree's height and node count come from building the B+ tree of data/b+tree/mil.txt, "
     "which is not in the repository"),
    ("rodinia", "bfs", "the edge count comes from data/bfs/graph1MW_6.txt, not in the repository"),
    ("rodinia", "nn", "the record count comes from the hurricane data files, not in the repository"),
    ("rodinia", "heartwall", "frame sizes and the host's parameter structs come from data/heartwall/test.avi, "
     "not in the repository"),
    ("rodinia", "leukocyte", "image sizes come from data/leukocyte/testfile.avi, not in the repository"),
    ("rodinia", "dwt2d, hybridsort", "not attempted (image and input files not in the repository)"),
    ("shoc", "spmv/spmv_ellpackr_kernel", "the padded row length comes from the random matrix the host generates"),
    ("shoc", "gemm", "not attempted"),
    ("parboil", "bfs, cutcp, histo, mri-gridding, sad, spmv, tpacf", "their sizes come from the dataset files "
     "(datasets/ is empty in the repository)"),
]
