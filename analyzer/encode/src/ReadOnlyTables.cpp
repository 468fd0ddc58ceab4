//===- ReadOnlyTables.cpp - Which memory is written, and what read-only memory holds ----===//
//
// setUpReadOnlyTables, in four steps: the objects some write may reach (and the counters nothing else
// writes); program-scope constants and captured read-only arguments as exact byte tables; read-only memory
// whose bytes the launch does not give (or gives beyond maxCapturedTableBytes) as open arrays.
//
//===----------------------------------------------------------------------===//

#include "ArgumentNames.h"
#include "CapturedWordRanges.h"
#include "LaunchSetUp.h"
#include "PointerRoots.h"
#include "clcapture/format/CaptureBlobs.h"
#include "clcapture/frontend/ProgramVariables.h"
#include "clcapture/model/Builtins.h"

#include <algorithm>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clcapture::encode::detail {

namespace {

/// An array term (offset → byte) holding `bytes` at `origin` and onwards, over `base`.
cvc5::Term storeBytes(TermFactory &tf, cvc5::Term base, std::uint64_t origin,
                      const std::vector<unsigned char> &bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i)
    base = tf.op(cvc5::Kind::STORE, {base, tf.constant(64, origin + i), tf.constant(8, bytes[i])});
  return base;
}

/// Whether the launch gives no bytes for memory object `object`: local memory (never initialised) or a
/// buffer whose capture has no data (docs/contract.md §5: its contents are open).
bool contentsOpen(const EncodingState &s, std::uint64_t object) {
  if (object >= kLocalArgumentObject && object < kConstantVariableObject)
    return true; // __local arguments and variables
  if (object >= kGlobalVariableObject)
    return false; // program-scope variables: their initialisers, or what earlier launches left (open)
  if (object >= kConstantVariableObject)
    return false;
  bool argument = false;
  for (const model::ArgumentFact &fact : s.launch.arguments)
    if (fact.kind == model::ArgumentFact::Kind::Buffer && fact.root == object) {
      if (fact.data)
        return false;
      argument = true;
    }
  return argument || object >= (1ull << 47); // (1 << 47) + n: a pointer argument without a capture
}

/// The objects some write may reach (EncodingState::writtenObjects) and the counter calls that alone write
/// memory whose contents start open (openCounterCalls). False, with anyObjectMayBeWritten set, when some
/// write's objects cannot be told.
bool findWrittenObjects(EncodingState &s) {
  // Counters (CounterResult::exactWithGuard): objects written by exactly one counter call and nothing else.
  std::map<std::uint64_t, std::vector<const llvm::Instruction *>> writersOf;
  bool unknownWriter = false;
  for (const auto &[inst, pointer] : writtenPointers(s.kernel)) {
    auto roots = rootsOf(pointer);
    if (!roots) {
      unknownWriter = true;
      break;
    }
    for (const llvm::Value *root : *roots)
      if (auto it = s.sharedPointers.find(root);
          it != s.sharedPointers.end() && it->second.object.isBitVectorValue())
        writersOf[std::stoull(it->second.object.getBitVectorValue(10))].push_back(inst);
  }
  if (unknownWriter) {
    s.anyObjectMayBeWritten = true;
    return false;
  }
  for (const auto &[object, writers] : writersOf) {
    s.writtenObjects.insert(object);
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(writers.front());
        call && call->getCalledFunction() &&
        std::all_of(writers.begin(), writers.end(), [&](auto *w) { return w == call; }) &&
        counterStep(*call, model::classifyBuiltin(*call->getCalledFunction())) && contentsOpen(s, object))
      s.openCounterCalls.insert(call);
  }
  return true;
}

/// Program-scope `constant` variables (OpenCL 1.2 §6.5.3: initialised at compile time, read-only) and the
/// `global` ones no function of the program writes (frontend/ProgramVariables.h): their initialisers are
/// their bytes in every launch, in the device's order (the module's data layout).
void tableConstantVariables(EncodingState &s, const cvc5::Sort &array) {
  TermFactory &tf = s.tf;
  for (llvm::GlobalVariable &g : s.kernel.getParent()->globals()) {
    auto shared = s.sharedPointers.find(&g);
    bool unwritten =
        g.getAddressSpace() == 2 || frontend::isUnwrittenVariable(g); // constant, global or Clang's private
    if (!unwritten || shared == s.sharedPointers.end() || !g.hasDefinitiveInitializer() ||
        !shared->second.object.isBitVectorValue())
      continue;
    std::uint64_t size = s.layout.getTypeAllocSize(g.getValueType()).getFixedValue();
    if (size == 0 || size > s.options.maxCapturedTableBytes)
      continue;
    std::vector<unsigned char> bytes(size);
    llvm::Type *byteType = llvm::Type::getInt8Ty(g.getContext());
    bool known = true;
    for (std::uint64_t i = 0; i < size && known; ++i) {
      llvm::Constant *c =
          llvm::ConstantFoldLoadFromConst(g.getInitializer(), byteType, llvm::APInt(64, i), s.layout);
      auto *ci = llvm::dyn_cast_or_null<llvm::ConstantInt>(c);
      known = ci != nullptr;
      if (known)
        bytes[i] = static_cast<unsigned char>(ci->getZExtValue());
    }
    if (!known)
      continue; // an initialiser the folder cannot read bytewise (an address): its values stay open
    std::uint64_t object = std::stoull(shared->second.object.getBitVectorValue(10));
    s.capturedTables[object] =
        storeBytes(tf, tf.fresh(array, "constant_" + std::to_string(object)), 0, bytes);
    s.capturedRanges[object].push_back({0, bytes.size()});
    s.capturedBytes[object] = {0, std::move(bytes)};
  }
}

/// A struct passed by value: the kernel reads its fields from private memory, and the capture has its bytes
/// (docs/contract.md §3: the scalar value is the struct's bytes in the device's order).
void tableByValue(EncodingState &s, llvm::Argument &arg, const model::ArgumentFact &fact,
                  const cvc5::Sort &array) {
  TermFactory &tf = s.tf;
  unsigned no = arg.getArgNo();
  const std::vector<std::uint8_t> &bytes = *fact.bytes; // in memory order (ScalarCodec)
  std::uint64_t object = std::stoull(s.sharedPointers[&arg].object.getBitVectorValue(10));
  s.capturedTables[object] =
      storeBytes(tf, tf.fresh(array, "byval_" + std::to_string(no)), 0, {bytes.begin(), bytes.end()});
  s.capturedRanges[object].push_back({0, bytes.size()});
}

/// A struct passed by value without captured bytes (not captured, or opened by --open=scalars): any value
/// is a real launch (docs/contract.md §5), the same for every work-item. One open array that both read, so a
/// witness names the fields it needs ("shape[1] = 8"); the kernel's own stores to its copy make the object
/// written, and then its reads are open values as for any private variable.
void openByValue(EncodingState &s, llvm::Argument &arg, const cvc5::Sort &array) {
  TermFactory &tf = s.tf;
  auto shared = s.sharedPointers.find(&arg);
  if (shared == s.sharedPointers.end() || !shared->second.object.isBitVectorValue())
    return;
  std::uint64_t object = std::stoull(shared->second.object.getBitVectorValue(10));
  if (s.writtenObjects.count(object) || s.openContents.count(object))
    return;
  std::uint64_t size = s.layout.getTypeAllocSize(arg.getParamByValType()).getFixedValue();
  EncodingState::OpenContents open;
  open.array = tf.fresh(array, "byval_" + argumentName(arg, s.launch));
  open.ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, size}};
  open.fields = memberNames(arg);
  s.openContents[object] = std::move(open);
}

/// A read-only buffer with captured bytes, up to maxCapturedTableBytes: an exact byte table.
void tableBuffer(EncodingState &s, const model::ArgumentFact &fact, const cvc5::Sort &array) {
  TermFactory &tf = s.tf;
  if (fact.kind != model::ArgumentFact::Kind::Buffer || !fact.data || !fact.size ||
      *fact.size > s.options.maxCapturedTableBytes || s.writtenObjects.count(fact.root))
    return;
  // Several read-only sub-buffers of one buffer each add their own captured bytes to its table (then
  // reads go through the byte table only); one buffer passed twice adds them once.
  bool more = s.capturedTables.count(fact.root) != 0;
  auto raw = s.capturedBytes.find(fact.root);
  if (more && raw != s.capturedBytes.end() && raw->second.first == fact.origin &&
      raw->second.second.size() == *fact.size)
    return;
  // A loose data/<hash>.bin file or a record of the capture's packs (CaptureBlobs.h).
  auto blob = format::readCaptureFile(*fact.data);
  if (!blob)
    return;
  std::vector<unsigned char> bytes(blob->begin(), blob->end());
  // Bytes outside the capture are open: the table starts from an unknown array, not from zeros.
  cvc5::Term table =
      more ? s.capturedTables[fact.root] : tf.fresh(array, "captured_" + std::to_string(fact.root));
  s.capturedTables[fact.root] = storeBytes(tf, table, fact.origin, bytes);
  s.capturedRanges[fact.root].push_back({fact.origin, bytes.size()});
  if (more)
    s.capturedBytes.erase(fact.root);
  else
    s.capturedBytes[fact.root] = {fact.origin, std::move(bytes)};
}

/// The kernel's pointer arguments with captured facts: structs passed by value and read-only buffers.
void tableArguments(EncodingState &s, const cvc5::Sort &array) {
  for (llvm::Argument &arg : s.kernel.args()) {
    unsigned no = arg.getArgNo();
    if (no >= s.launch.arguments.size() || !arg.getType()->isPointerTy())
      continue;
    const model::ArgumentFact &fact = s.launch.arguments[no];
    if (arg.hasByValAttr() && fact.kind == model::ArgumentFact::Kind::Scalar && fact.bytes)
      tableByValue(s, arg, fact, array);
    else if (arg.hasByValAttr() && fact.kind == model::ArgumentFact::Kind::Scalar && !fact.bytes)
      openByValue(s, arg, array);
    else
      tableBuffer(s, fact, array);
  }
}

/// Read-only global and constant buffers the tables do not cover: open contents, one array for both
/// work-items (EncodingState::openContents).
void openReadOnlyBuffers(EncodingState &s, const cvc5::Sort &array) {
  TermFactory &tf = s.tf;
  for (llvm::Argument &arg : s.kernel.args()) {
    auto shared = s.sharedPointers.find(&arg);
    if (shared == s.sharedPointers.end() || !shared->second.object.isBitVectorValue() ||
        (shared->second.space != MemorySpace::Global && shared->second.space != MemorySpace::Constant))
      continue;
    std::uint64_t object = std::stoull(shared->second.object.getBitVectorValue(10));
    if (s.writtenObjects.count(object) || s.capturedTables.count(object) || s.openContents.count(object))
      continue;
    EncodingState::OpenContents open;
    open.array = tf.fresh(array, "contents_" + argumentName(arg, s.launch));
    if (!contentsOpen(s, object))
      open.how = Exactness{"the contents of " + argumentName(arg, s.launch) +
                           " (captured, too large to read exactly)"};
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    bool sized = true;
    for (const model::ArgumentFact &fact : s.launch.arguments)
      if (fact.kind == model::ArgumentFact::Kind::Buffer && fact.root == object) {
        if (!fact.size)
          sized = false;
        else
          ranges.push_back({fact.origin, *fact.size});
        // Row 13d: the captured words bound what a read of them gives (an origin the sidecar leaves open
        // says nowhere where the bytes lie).
        if (fact.data && !fact.originOpen)
          if (auto words = capturedWordRanges(*fact.data, fact.origin,
                                              s.launch.endianness == format::Endianness::Little))
            open.capturedWords.push_back(std::move(words));
      }
    if (sized && !ranges.empty())
      open.ranges = std::move(ranges);
    s.openContents[object] = std::move(open);
  }
  // Local memory nothing writes in the launch: what it held before (OpenCL does not initialise it), any
  // bytes, one array per work-group (docs/semantics.md row 37l).
  for (const auto &[object, name] : s.objectNames) {
    if (object < kLocalArgumentObject || object >= kConstantVariableObject ||
        s.writtenObjects.count(object) || s.openContents.count(object))
      continue;
    EncodingState::OpenContents open;
    open.array = tf.fresh(array, "contents_" + name);
    open.arrayOfB = tf.ite(s.sameGroup, open.array, tf.fresh(array, "contents_" + name + "_of_b"));
    if (auto regions = s.objectRegions.find(object); regions != s.objectRegions.end())
      open.ranges = regions->second;
    s.openContents[object] = std::move(open);
  }
  // Program-scope `global` variables this kernel does not write, without a table: what the program's
  // initialiser or earlier launches left, the same for both work-items.
  for (llvm::GlobalVariable &g : s.kernel.getParent()->globals()) {
    auto shared = s.sharedPointers.find(&g);
    if (g.getAddressSpace() != 1 || shared == s.sharedPointers.end() ||
        !shared->second.object.isBitVectorValue())
      continue;
    std::uint64_t object = std::stoull(shared->second.object.getBitVectorValue(10));
    if (s.writtenObjects.count(object) || s.capturedTables.count(object) || s.openContents.count(object))
      continue;
    EncodingState::OpenContents open;
    const std::string &name = s.objectNames.at(object); // setUpSharedValues names every variable
    open.array = tf.fresh(array, "contents_" + name);
    open.how = Exactness{"the contents of the program-scope variable " + name +
                         ", which other launches may have written"};
    open.ranges = {{0, s.layout.getTypeAllocSize(g.getValueType()).getFixedValue()}};
    s.openContents[object] = std::move(open);
  }
}

} // namespace

void setUpReadOnlyTables(EncodingState &s) {
  if (!findWrittenObjects(s))
    return;
  TermFactory &tf = s.tf;
  cvc5::Sort array = s.solver.mkArraySort(tf.bv(64), tf.bv(8));
  tableConstantVariables(s, array);
  tableArguments(s, array);
  openReadOnlyBuffers(s, array);
}

} // namespace clcapture::encode::detail
