// KernelCompiler: captured OpenCL C → LLVM module in-process, with the capture's flags and pointer width, and
// diagnostics users can click on.
#include "FrontendTestSupport.h"
#include "TestSupport.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <thread>

using namespace clcapture;
using clcapture::test::compileOk;
using clcapture::test::kernelRequest;

namespace {

/// The constant stored by the first store to global memory in `f`, or -1.
long long firstStoredConstant(const llvm::Function &f) {
  for (const llvm::BasicBlock &block : f)
    for (const llvm::Instruction &inst : block)
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        if (store->getPointerAddressSpace() == 1)
          if (const auto *c = llvm::dyn_cast<llvm::ConstantInt>(store->getValueOperand()))
            return c->getSExtValue();
  return -1;
}

std::string compileError(const frontend::CompileRequest &request) {
  auto compiled = frontend::KernelCompiler().compile(request);
  REQUIRE_FALSE(compiled);
  return compiled.error();
}

} // namespace

TEST_CASE("a kernel compiles and its entry is found, with line and column on its accesses", "[frontend]") {
  frontend::CompiledKernel kernel = compileOk(kernelRequest("kernel void other(global int *b) { b[0] = 0; }\n"
                                                            "kernel void k(global int *a) {\n"
                                                            "  a[get_global_id(0)] = 1;\n"
                                                            "}\n"));
  CHECK(kernel.entry().getName() == "k");
  CHECK(kernel.entry().getCallingConv() == llvm::CallingConv::SPIR_KERNEL);
  CHECK(kernel.module().getTargetTriple() == "spir64-unknown-unknown");
  CHECK(kernel.addressBits() == 64);
  CHECK(kernel.messages().empty());
  bool located = false;
  for (const llvm::Instruction &inst : llvm::instructions(kernel.entry()))
    if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
        store && store->getPointerAddressSpace() == 1) {
      REQUIRE(store->getDebugLoc());
      CHECK(store->getDebugLoc().getLine() == 3);
      CHECK(store->getDebugLoc().getCol() == 23);
      CHECK(store->getDebugLoc()->getFilename() == "kernels/k.cl");
      located = true;
    }
  CHECK(located);
}

TEST_CASE("a -D from compiler_flags changes the program", "[frontend]") {
  const std::string source =
      "#ifndef VAL\n#define VAL 7\n#endif\nkernel void k(global int *a) { a[0] = VAL; }\n";
  CHECK(firstStoredConstant(compileOk(kernelRequest(source)).entry()) == 7);
  CHECK(firstStoredConstant(compileOk(kernelRequest(source, "k", "-DVAL=42")).entry()) == 42);
  CHECK(firstStoredConstant(compileOk(kernelRequest(source, "k", "-D 'VAL=(40 + 3)'")).entry()) == 43);
  CHECK(firstStoredConstant(compileOk(kernelRequest(source, "k", "-DVAL=42 -UVAL")).entry()) == 7);
}

TEST_CASE("the -cl-std flag is honoured and OpenCL C 1.2 is the default", "[frontend]") {
  const std::string source = "kernel void k(global int *a) { a[0] = __OPENCL_C_VERSION__; }\n";
  CHECK(firstStoredConstant(compileOk(kernelRequest(source)).entry()) == 120);
  CHECK(firstStoredConstant(compileOk(kernelRequest(source, "k", "-cl-std=CL2.0")).entry()) == 200);
  CHECK(firstStoredConstant(compileOk(kernelRequest(source, "k", "-cl-std=CL3.0")).entry()) == 300);
  CHECK(compileError(kernelRequest(source, "k", "-cl-std=CL9.9")) ==
        "kernels/k.cl: error: invalid value 'CL9.9' in '-cl-std=CL9.9'");
}

TEST_CASE("an include finds headers next to the kernel, in the capture folder and in -I folders",
          "[frontend]") {
  test::TempDir capture;
  test::writeFile(capture / "kernels/k.cl", "#include \"near.h\"\n#include <top.h>\n#include <extra.h>\n"
                                            "kernel void k(global int *a) { a[0] = NEAR + TOP + EXTRA; }\n");
  test::writeFile(capture / "kernels/near.h", "#define NEAR 1\n");
  test::writeFile(capture / "top.h", "#define TOP 10\n");
  test::writeFile(capture / "inc/extra.h", "#define EXTRA 100\n");
  frontend::CompileRequest request;
  request.captureDir = capture.path();
  request.kernelFile = "kernels/k.cl"; // read from the capture folder: no sourceText
  request.compilerFlags = "-I inc";
  request.entryPoint = "k";
  CHECK(firstStoredConstant(compileOk(request).entry()) == 111);

  SECTION("errors in a header name it relative to the capture folder") {
    test::writeFile(capture / "inc/extra.h", "#define EXTRA 100\nint broken(;\n");
    CHECK(compileError(request).rfind("inc/extra.h:2:12: error: ", 0) == 0);
  }
  SECTION("a missing -I folder leaves the include unresolved") {
    request.compilerFlags = "";
    CHECK(compileError(request) == "kernels/k.cl:3:10: error: 'extra.h' file not found");
  }
  SECTION("a missing kernel file is an error naming it") {
    request.kernelFile = "kernels/gone.cl";
    CHECK(compileError(request).rfind("kernels/gone.cl: error: cannot read the kernel file: ", 0) == 0);
  }
}

TEST_CASE("the device's address bits choose spir or spir64", "[frontend]") {
  const std::string source = "kernel void k(global ulong *a) { a[0] = sizeof(size_t); }\n";
  frontend::CompiledKernel narrow = compileOk(kernelRequest(source, "k", "", 32));
  CHECK(narrow.module().getTargetTriple() == "spir-unknown-unknown");
  CHECK(narrow.module().getDataLayout().getPointerSizeInBits(1) == 32);
  CHECK(narrow.addressBits() == 32);
  CHECK(firstStoredConstant(narrow.entry()) == 4);
  frontend::CompiledKernel wide = compileOk(kernelRequest(source, "k", "", 64));
  CHECK(wide.module().getDataLayout().getPointerSizeInBits(1) == 64);
  CHECK(firstStoredConstant(wide.entry()) == 8);
  CHECK(compileOk(kernelRequest(source, "k", "", 0)).addressBits() == 64); // unknown: 64
  CHECK(compileError(kernelRequest(source, "k", "", 16)) ==
        "kernels/k.cl: error: unsupported device address bits 16 (expected 32 or 64)");
}

TEST_CASE("a compile error is reported with file, line and column", "[frontend]") {
  std::string error = compileError(kernelRequest("kernel void k(global int *a) {\n"
                                                 "  int y = 0;\n"
                                                 "  a[y] = x;\n"
                                                 "}\n"));
  CHECK(error == "kernels/k.cl:3:10: error: use of undeclared identifier 'x'");
  error = compileError(kernelRequest("kernel void k(global int *a) {\n  a[0] = 1\n}\n"));
  CHECK(error == "kernels/k.cl:2:11: error: expected ';' after expression");
}

TEST_CASE("an unknown entry point is an error naming the program's kernels", "[frontend]") {
  const std::string source =
      "void helper(void) {}\nkernel void b(void) {}\nkernel void a(void) { helper(); }\n";
  CHECK(compileError(kernelRequest(source, "nope")) ==
        "kernels/k.cl: error: no kernel named 'nope'; the program's kernels are 'a', 'b'");
  CHECK(compileError(kernelRequest(source, "helper")) ==
        "kernels/k.cl: error: no kernel named 'helper'; the program's kernels are 'a', 'b'");
  CHECK(compileError(kernelRequest("void f(void) {}\n", "k")) ==
        "kernels/k.cl: error: no kernel named 'k'; the program defines no kernel");
}

TEST_CASE("vendor flags are ignored with notes and warnings are kept", "[frontend]") {
  frontend::CompiledKernel kernel = compileOk(
      kernelRequest("kernel void k(global int *a) { a[0] = 10000000000L; }\n", "k",
                    "-cl-nv-verbose -cl-kernel-arg-info -w -Werror -cl-mad-enable -cl-fast-relaxed-math"));
  std::vector<std::string> messages;
  for (const auto &m : kernel.messages())
    messages.push_back(m.str());
  REQUIRE(messages.size() == 5);
  CHECK(messages[0] == "note: ignored compiler flag '-cl-nv-verbose': vendor-specific");
  CHECK(messages[1].rfind("note: ignored compiler flag '-cl-kernel-arg-info'", 0) == 0);
  CHECK(messages[2].rfind("note: ignored compiler flag '-w'", 0) == 0);
  CHECK(messages[3].rfind("note: ignored compiler flag '-Werror'", 0) == 0);
  // -Werror was ignored, so Clang's warning stays a warning.
  CHECK(messages[4].rfind("kernels/k.cl:1:39: warning: implicit conversion from", 0) == 0);
}

TEST_CASE("compilations on several threads at once are independent", "[frontend]") {
  constexpr int kThreads = 4;
  std::vector<long long> stored(kThreads, -2);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &stored] {
      auto compiled = frontend::KernelCompiler().compile(
          kernelRequest("kernel void k(global int *a) { a[0] = V; }\n", "k", "-DV=" + std::to_string(t)));
      stored[static_cast<std::size_t>(t)] = compiled ? firstStoredConstant(compiled->entry()) : -3;
    });
  for (auto &thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t)
    CHECK(stored[static_cast<std::size_t>(t)] == t);
}
