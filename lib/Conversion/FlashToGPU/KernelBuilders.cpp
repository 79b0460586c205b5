//===- KernelBuilders.cpp - What the GPU kernels share ---------------------===//
//
// The flattened problem's operand types, kernel functions and their
// workgroup buffers, the rows a block owns, causal limits, tiles staged in
// workgroup memory, rows split across lanes: the pieces every kernel kind
// builds with.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/GPUKernels.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

/// The sizes and their names in the order of the size arguments: the one
/// place that defines it.
static SmallVector<std::pair<std::string, int64_t>>
sizeSlots(const KernelSpec &s) {
  SmallVector<std::pair<std::string, int64_t>> slots{{"nq", s.nq},
                                                     {"nk", s.nk}};
  for (auto [i, v] : llvm::enumerate(s.lead))
    slots.push_back({"lead" + std::to_string(i), v});
  if (s.mask) {
    for (auto [i, v] : llvm::enumerate(s.maskLeadStrides))
      slots.push_back({"mask_lead_stride" + std::to_string(i), v});
    slots.push_back({"mask_row_stride", s.maskRowStride});
    slots.push_back({"mask_key_stride", s.maskKeyStride});
  }
  for (auto [c, t] : llvm::enumerate(s.captures))
    for (int64_t d = 1; d < t.getRank(); ++d)
      slots.push_back(
          {"capture" + std::to_string(c) + "_dim" + std::to_string(d),
           t.getDimSize(d)});
  return slots;
}

SmallVector<int64_t> KernelSpec::sizeList() const {
  SmallVector<int64_t> sizes;
  for (auto &slot : sizeSlots(*this))
    sizes.push_back(slot.second);
  return sizes;
}

SmallVector<std::string> KernelSpec::sizeArgNames() const {
  SmallVector<std::string> names;
  for (auto &[name, size] : sizeSlots(*this))
    if (ShapedType::isDynamic(size))
      names.push_back(name);
  return names;
}

unsigned KernelSpec::numSizeArgs() const {
  return llvm::count_if(sizeList(), ShapedType::isDynamic);
}

Value KernelSpec::sizeValue(KernelBuilder &kb, unsigned slot,
                            int64_t add) const {
  SmallVector<int64_t> sizes = sizeList();
  if (!ShapedType::isDynamic(sizes[slot]))
    return kb.c(sizes[slot] + add);
  unsigned k = llvm::count_if(ArrayRef<int64_t>(sizes).take_front(slot),
                              ShapedType::isDynamic);
  assert(k < sizeArgs.size() && "size arguments not bound (bindSizes)");
  Value v = sizeArgs[k];
  if (add)
    v = arith::AddIOp::create(kb.b, kb.loc, v, kb.c(add));
  return v;
}

void KernelSpec::bindSizes(gpu::GPUFuncOp fn) const {
  // The function's arguments (its workgroup attributions follow them).
  ArrayRef<BlockArgument> args = fn.getArguments().take_front(
      fn.getFunctionType().getNumInputs());
  args = args.drop_back(tensorMaps.size());
  sizeArgs.assign(args.end() - numSizeArgs(), args.end());
}

Value KernelSpec::nqValue(KernelBuilder &kb, int64_t add) const {
  return sizeValue(kb, 0, add);
}
Value KernelSpec::nkValue(KernelBuilder &kb, int64_t add) const {
  return sizeValue(kb, 1, add);
}
Value KernelSpec::leadValue(KernelBuilder &kb, unsigned i) const {
  return sizeValue(kb, 2 + i, 0);
}
Value KernelSpec::bhValue(KernelBuilder &kb) const {
  if (!ShapedType::isDynamic(bh))
    return kb.c(bh);
  Value v = kb.c(1);
  for (unsigned i = 0; i < lead.size(); ++i)
    v = arith::MulIOp::create(kb.b, kb.loc, v, leadValue(kb, i));
  return v;
}
Value KernelSpec::maskLeadStrideValue(KernelBuilder &kb, unsigned i) const {
  return sizeValue(kb, 2 + lead.size() + i, 0);
}
Value KernelSpec::maskRowStrideValue(KernelBuilder &kb) const {
  return sizeValue(kb, 2 + 2 * lead.size(), 0);
}
Value KernelSpec::maskKeyStrideValue(KernelBuilder &kb) const {
  return sizeValue(kb, 3 + 2 * lead.size(), 0);
}
Value KernelSpec::captureDimValue(KernelBuilder &kb, unsigned c,
                                  unsigned d) const {
  std::string name = "capture" + std::to_string(c) + "_dim" + std::to_string(d);
  auto slots = sizeSlots(*this);
  auto it =
      llvm::find_if(slots, [&](auto &slot) { return slot.first == name; });
  assert(it != slots.end() && "no such captured operand dim");
  return sizeValue(kb, it - slots.begin(), 0);
}
Value KernelSpec::causalOffsetValue(KernelBuilder &kb, int64_t add) const {
  assert(causalOffset && "not causal");
  if (!ShapedType::isDynamic(*causalOffset))
    return kb.c(*causalOffset + add);
  return arith::SubIOp::create(
      kb.b, kb.loc, nkValue(kb, add),
      packedQueries ? kb.c(packedQueries) : nqValue(kb));
}

Value gpukernels::maskLeadBase(KernelBuilder &kb, const KernelSpec &s,
                               Value bh) {
  Value off = kb.c(0), rest = bh;
  for (int64_t i = static_cast<int64_t>(s.lead.size()) - 1; i >= 0; --i) {
    Value size = s.leadValue(kb, i);
    Value idx = arith::RemUIOp::create(kb.b, kb.loc, rest, size);
    rest = arith::DivUIOp::create(kb.b, kb.loc, rest, size);
    if (s.maskLeadStrides[i])
      off = arith::AddIOp::create(
          kb.b, kb.loc, off,
          arith::MulIOp::create(kb.b, kb.loc, idx,
                                s.maskLeadStrideValue(kb, i)));
  }
  return off;
}

Value gpukernels::addMask(KernelBuilder &kb, const KernelSpec &s, Value s2,
                          Value mask, Value leadBase, Value row, Value key,
                          bool natural) {
  Value idx = leadBase;
  if (s.maskRowStride)
    idx = arith::AddIOp::create(
        kb.b, kb.loc, idx,
        arith::MulIOp::create(kb.b, kb.loc, row, s.maskRowStrideValue(kb)));
  if (s.maskKeyStride)
    idx = arith::AddIOp::create(
        kb.b, kb.loc, idx,
        arith::MulIOp::create(kb.b, kb.loc, key, s.maskKeyStrideValue(kb)));
  Value m = memref::LoadOp::create(kb.b, kb.loc, mask, ValueRange{idx});
  if (natural)
    return arith::AddFOp::create(kb.b, kb.loc, s2, m);
  return fmac(kb.b, kb.loc, m, kb.f(kLog2e), s2);
}

Value gpukernels::exp2OnFma(OpBuilder &b, Location loc, Value x) {
  auto f32 = [&](float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  };
  Type i32 = b.getI32Type();
  // (maximumf: NaN in, NaN out.)
  x = arith::MaximumFOp::create(b, loc, x, f32(-127.0f));
  // t's low mantissa bits are round(x) in two's complement.
  Value magic = f32(12582912.0f);
  Value t = arith::AddFOp::create(b, loc, x, magic);
  Value j = arith::SubFOp::create(b, loc, t, magic);
  Value f = arith::SubFOp::create(b, loc, x, j);
  // 2^f on [-1/2, 1/2], the constant term exactly 1 (so that 2^-127 is 0
  // and 2^j exact): fitted for the least maximal relative error.
  static constexpr float kCoefficients[] = {
      0.0013264556182548404f, 0.009671447798609734f, 0.05550733581185341f,
      0.24022242426872253f,   0.6931470036506653f,   1.0f};
  Value p = f32(kCoefficients[0]);
  for (float c : ArrayRef<float>(kCoefficients).drop_front())
    p = fmac(b, loc, p, f, f32(c));
  Value shift = arith::ShLIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32, t),
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(23)));
  Value bits = arith::AddIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32, p), shift);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

void gpukernels::stageTile(OpBuilder &b, Location loc, Value src, Value dst,
                           Value bh, Value row0, int64_t rows, Value n,
                           int64_t width, Value tid, int64_t threads,
                           Value mul) {
  KernelBuilder kb{b, loc};
  scf::ForOp::create(
      b, loc, tid, kb.c(rows * width), kb.c(threads), ValueRange{},
      [&](OpBuilder &sb, Location sl, Value idx, ValueRange) {
        KernelBuilder ks{sb, sl};
        Value r = arith::DivUIOp::create(sb, sl, idx, ks.c(width));
        Value c = arith::RemUIOp::create(sb, sl, idx, ks.c(width));
        Value row = arith::AddIOp::create(sb, sl, row0, r);
        Value inb = arith::CmpIOp::create(sb, sl, arith::CmpIPredicate::ult,
                                          row, n);
        Value rowc = arith::MinUIOp::create(
            sb, sl, row, arith::SubIOp::create(sb, sl, n, ks.c(1)));
        Value x = ks.toF32(memref::LoadOp::create(
            sb, sl, src, ValueRange{rowOf(ks, bh, n, rowc), c}));
        if (mul)
          x = arith::MulFOp::create(sb, sl, x, mul);
        x = arith::SelectOp::create(sb, sl, inb, x, ks.f(0.0f));
        memref::StoreOp::create(sb, sl, x, dst, ValueRange{r, c});
        scf::YieldOp::create(sb, sl);
      });
}

Value gpukernels::kvBatchHeads(KernelBuilder &kb, const KernelSpec &s) {
  if (!ShapedType::isDynamic(s.bh))
    return kb.c(s.bh / (s.hq / s.hkv));
  return arith::DivUIOp::create(kb.b, kb.loc, s.bhValue(kb),
                                kb.c(s.hq / s.hkv));
}

Value gpukernels::byBatchHead(KernelBuilder &kb, Value rows, Value bh,
                              Value n) {
  // A view with explicit sizes and strides (not memref.expand_shape): the
  // buffer's own extent is a placeholder under flash-static-kernel-buffers,
  // and folding it into a reshape would make up a static length.
  auto ty = cast<MemRefType>(rows.getType());
  OpBuilder &b = kb.b;
  OpFoldResult width = b.getIndexAttr(ty.getRank() == 2 ? ty.getDimSize(1) : 1);
  OpFoldResult nf = getAsOpFoldResult(n);
  auto mul = [&](OpFoldResult x, OpFoldResult y) -> OpFoldResult {
    std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
    if (cx && cy)
      return b.getIndexAttr(*cx * *cy);
    return getAsOpFoldResult(arith::MulIOp::create(
        b, kb.loc, getValueOrCreateConstantIndexOp(b, kb.loc, x),
        getValueOrCreateConstantIndexOp(b, kb.loc, y)));
  };
  SmallVector<OpFoldResult> sizes{getAsOpFoldResult(bh), nf};
  SmallVector<OpFoldResult> strides{mul(nf, width)};
  if (ty.getRank() == 2) {
    sizes.push_back(width);
    strides.push_back(width);
  }
  strides.push_back(b.getIndexAttr(1));
  auto [staticSizes, dynSizes] = decomposeMixedValues(sizes);
  auto [staticStrides, dynStrides] = decomposeMixedValues(strides);
  auto layout = StridedLayoutAttr::get(b.getContext(), 0, staticStrides);
  auto resTy = MemRefType::get(staticSizes, ty.getElementType(),
                               ShapedType::isDynamic(staticStrides[0])
                                   ? MemRefLayoutAttrInterface(layout)
                                   : MemRefLayoutAttrInterface());
  return memref::ReinterpretCastOp::create(b, kb.loc, resTy, rows,
                                           b.getIndexAttr(0), sizes, strides)
      .getResult();
}

/// [rows * BH-or-BHkv, width]: dynamic when either is.
static MemRefType rowsType(int64_t bh, int64_t n, int64_t width, Type elt) {
  int64_t rows = ShapedType::isDynamic(bh) || ShapedType::isDynamic(n)
                     ? ShapedType::kDynamic
                     : bh * n;
  if (width == 0)
    return MemRefType::get({rows}, elt);
  return MemRefType::get({rows, width}, elt);
}

OperandTypes gpukernels::operandTypes(MLIRContext *ctx, const KernelSpec &s) {
  int64_t bhkv = ShapedType::isDynamic(s.bh) ? s.bh : s.bh / (s.hq / s.hkv);
  return {rowsType(s.bh, s.nq, s.d, s.elt), rowsType(bhkv, s.nk, s.d, s.elt),
          rowsType(bhkv, s.nk, s.dv, s.elt),
          rowsType(s.bh, s.nq, s.dv, s.outElt ? s.outElt : s.elt),
          rowsType(s.bh, s.nq, 0, Float32Type::get(ctx))};
}

SmallVector<Type> gpukernels::withMaskAndCaptures(MLIRContext *ctx,
                                                  const KernelSpec &s,
                                                  ArrayRef<Type> args) {
  SmallVector<Type> all(args);
  if (s.mask)
    all.push_back(maskType(ctx, s));
  for (RankedTensorType t : s.captures)
    all.push_back(captureType(ctx, t));
  if (s.descale)
    all.append(3,
               MemRefType::get({ShapedType::kDynamic}, Float32Type::get(ctx)));
  if (s.hasScratch())
    all.push_back(MemRefType::get(
        {ShapedType::kDynamic}, s.isFloat8() ? s.elt : Float32Type::get(ctx)));
  all.append(s.numSizeArgs(), IndexType::get(ctx));
  all.append(s.tensorMaps.size(), LLVM::LLVMPointerType::get(ctx));
  return all;
}

SmallVector<Type> gpukernels::gradQArgTypes(MLIRContext *ctx,
                                            const KernelSpec &s) {
  OperandTypes t = operandTypes(ctx, s);
  return withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.o, t.lse, t.o, t.q, t.lse});
}

SmallVector<Type> gpukernels::gradKVArgTypes(MLIRContext *ctx,
                                             const KernelSpec &s) {
  OperandTypes t = operandTypes(ctx, s);
  return withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.lse, t.o, t.lse, t.k, t.v});
}

MemRefType gpukernels::tileType(MLIRContext *ctx, int64_t rows, int64_t width) {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return MemRefType::get({rows, width}, Float32Type::get(ctx),
                         MemRefLayoutAttrInterface(), wg);
}

gpu::GPUFuncOp gpukernels::newKernel(OpBuilder &ob, Location loc,
                                     StringRef name, const KernelSpec &s,
                                     TypeRange args, TypeRange workgroup,
                                     int64_t threads) {
  auto fn = gpu::GPUFuncOp::create(ob, loc, name, ob.getFunctionType(args, {}),
                                   workgroup, TypeRange{});
  s.bindSizes(fn);
  fn->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), ob.getUnitAttr());
  fn.setKnownBlockSizeAttr(
      ob.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  return fn;
}

int64_t flash::workgroupBytes(gpu::GPUFuncOp fn) {
  int64_t bytes = 0;
  for (BlockArgument buf : fn.getWorkgroupAttributions()) {
    auto ty = cast<MemRefType>(buf.getType());
    bytes += ty.getNumElements() * ty.getElementTypeBitWidth() / 8;
  }
  return bytes;
}

QueryRows gpukernels::queryRows(KernelBuilder &kb, const KernelSpec &s) {
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  QueryRows r;
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  r.bh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  r.tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  int64_t rows = s.threads / s.lanes;
  r.rowBase = arith::MulIOp::create(b, loc, bx, kb.c(rows));
  Value inBlock = r.tid;
  if (s.lanes > 1) {
    inBlock = arith::DivUIOp::create(b, loc, r.tid, kb.c(s.lanes));
    r.lane = arith::RemUIOp::create(b, loc, r.tid, kb.c(s.lanes));
  }
  r.row = arith::AddIOp::create(b, loc, r.rowBase, inBlock);
  r.active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r.row,
                                   s.nqValue(kb));
  r.rowc = arith::MinUIOp::create(b, loc, r.row, s.nqValue(kb, -1));
  r.kvbh = kvHeadOf(kb, s, r.bh);
  r.kvEnd = blockKvEnd(kb, s, r.rowBase, rows);
  if (s.causalOffset)
    r.rowLimit = arith::AddIOp::create(b, loc, r.row, s.causalOffsetValue(kb));
  return r;
}

Value gpukernels::kvHeadOf(KernelBuilder &kb, const KernelSpec &s, Value bh) {
  OpBuilder &b = kb.b;
  Value bIdx = arith::DivUIOp::create(b, kb.loc, bh, kb.c(s.hq));
  Value hIdx = arith::RemUIOp::create(b, kb.loc, bh, kb.c(s.hq));
  return arith::AddIOp::create(
      b, kb.loc, arith::MulIOp::create(b, kb.loc, bIdx, kb.c(s.hkv)),
      arith::DivUIOp::create(b, kb.loc, hIdx, kb.c(s.hq / s.hkv)));
}

Value gpukernels::blockKvEnd(KernelBuilder &kb, const KernelSpec &s,
                             Value rowBase, int64_t rows) {
  if (!s.causalOffset)
    return s.nkValue(kb);
  OpBuilder &b = kb.b;
  Value lastRow = arith::MinUIOp::create(
      b, kb.loc, arith::AddIOp::create(b, kb.loc, rowBase, kb.c(rows - 1)),
      s.nqValue(kb, -1));
  Value end =
      arith::AddIOp::create(b, kb.loc, lastRow, s.causalOffsetValue(kb, 1));
  return arith::MinSIOp::create(
      b, kb.loc, arith::MaxSIOp::create(b, kb.loc, end, kb.c(0)),
      s.nkValue(kb));
}

Value gpukernels::visibleKeyEnd(KernelBuilder &kb, const KernelSpec &s,
                                Value rowLimit) {
  Value end = s.nkValue(kb);
  if (!rowLimit)
    return end;
  return arith::MinSIOp::create(
      kb.b, kb.loc, end,
      arith::AddIOp::create(kb.b, kb.loc, rowLimit, kb.c(1)));
}

Value gpukernels::relativeBound(KernelBuilder &kb, Value bound, Value base,
                                int64_t tile) {
  // In i32, the bound and the base truncated before the subtraction and
  // the clamp: clamped in index, or truncated after the subtraction, LLVM
  // proved the range and widened the compares back to i64 (two
  // instructions each; window-compares.mlir).
  OpBuilder &b = kb.b;
  Type i32 = b.getI32Type();
  Value x = arith::SubIOp::create(
      b, kb.loc, arith::IndexCastOp::create(b, kb.loc, i32, bound),
      arith::IndexCastOp::create(b, kb.loc, i32, base));
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, kb.loc, i32, v).getResult();
  };
  return arith::MinSIOp::create(
      b, kb.loc, arith::MaxSIOp::create(b, kb.loc, x, c(0)), c(tile));
}

Value gpukernels::roundToTile(KernelBuilder &kb, Value x, int64_t tile,
                              bool up) {
  OpBuilder &b = kb.b;
  x = arith::MaxSIOp::create(b, kb.loc, x, kb.c(0));
  Value n =
      up ? arith::CeilDivSIOp::create(b, kb.loc, x, kb.c(tile)).getResult()
         : arith::FloorDivSIOp::create(b, kb.loc, x, kb.c(tile)).getResult();
  return arith::MulIOp::create(b, kb.loc, n, kb.c(tile));
}

Value gpukernels::inRange(KernelBuilder &kb, Value lo, Value hi, int64_t c) {
  Type i32 = kb.b.getI32Type();
  Value k = arith::ConstantIntOp::create(kb.b, kb.loc, i32, c);
  Value above =
      lo ? arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::sle, lo, k)
               .getResult()
         : Value();
  Value below =
      hi ? arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::sgt, hi, k)
               .getResult()
         : Value();
  assert((above || below) && "a range with neither side");
  if (!above || !below)
    return above ? above : below;
  return arith::AndIOp::create(kb.b, kb.loc, above, below);
}

Value gpukernels::keyVisible(KernelBuilder &kb, const KernelSpec &s,
                             Value rowLimit, Value key) {
  // In i32 (positions fit): a 64-bit compare is two instructions, and the
  // checks run once per score in the masked tiles.
  OpBuilder &b = kb.b;
  auto i32 = [&](Value x) {
    return arith::IndexCastOp::create(b, kb.loc, b.getI32Type(), x).getResult();
  };
  Value k = i32(key);
  Value vis = arith::CmpIOp::create(b, kb.loc, arith::CmpIPredicate::ult, k,
                                    i32(s.nkValue(kb)));
  if (rowLimit)
    vis = arith::AndIOp::create(b, kb.loc, vis,
                                arith::CmpIOp::create(b, kb.loc,
                                                      arith::CmpIPredicate::sle,
                                                      k, i32(rowLimit)));
  return vis;
}

Value gpukernels::keyVisible(KernelBuilder &kb, const KernelSpec &s,
                             const QueryRows &r, Value key) {
  return keyVisible(kb, s, r.rowLimit, key);
}

Value gpukernels::laneColumn(KernelBuilder &kb, Value lane, int64_t lanes,
                             int64_t i) {
  if (!lane)
    return kb.c(i);
  return arith::AddIOp::create(kb.b, kb.loc, lane, kb.c(lanes * i));
}

Value gpukernels::sumOverLanes(KernelBuilder &kb, Value x, int64_t lanes) {
  OpBuilder &b = kb.b;
  for (int64_t off = lanes / 2; off >= 1; off /= 2) {
    Value o = arith::ConstantOp::create(b, kb.loc, b.getI32IntegerAttr(off));
    Value w = arith::ConstantOp::create(b, kb.loc, b.getI32IntegerAttr(32));
    Value y = gpu::ShuffleOp::create(b, kb.loc, x, o, w, gpu::ShuffleMode::XOR)
                  .getShuffleResult();
    x = arith::AddFOp::create(b, kb.loc, x, y);
  }
  return x;
}

void gpukernels::storeFromFirstLane(KernelBuilder &kb, Value x, Value dst,
                                    ValueRange idx, Value lane) {
  if (!lane) {
    memref::StoreOp::create(kb.b, kb.loc, x, dst, idx);
    return;
  }
  Value first = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::eq,
                                      lane, kb.c(0));
  scf::IfOp::create(kb.b, kb.loc, first, [&](OpBuilder &ib, Location il) {
    memref::StoreOp::create(ib, il, x, dst, idx);
    scf::YieldOp::create(ib, il);
  });
}

SmallVector<Value> gpukernels::loadRow(KernelBuilder &kb, Value src,
                                       Value row, int64_t width, Value mul,
                                       Value lane, int64_t lanes) {
  SmallVector<Value> r;
  for (int64_t d = 0; d < width / lanes; ++d) {
    Value x = kb.toF32(memref::LoadOp::create(
        kb.b, kb.loc, src, ValueRange{row, laneColumn(kb, lane, lanes, d)}));
    r.push_back(mul ? arith::MulFOp::create(kb.b, kb.loc, x, mul).getResult()
                    : x);
  }
  return r;
}

