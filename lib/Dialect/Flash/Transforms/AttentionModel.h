//===- AttentionModel.h - Tensor programs as scalar expressions -*- C++ -*-===//
//
// The semantic model behind --flash-raise-attention: every tensor value of a
// candidate's slice is read as one scalar expression of its element at an
// index, over one index space of affine dims. Leaves are tensors the model
// does not look into, read through affine index expressions; inner nodes are
// arithmetic, reductions over a bound dim, selects and compares.
//
// Expressions are interned in an ExprContext and kept in a normal form, so
// two algebraically equal spellings are one pointer:
//   - sums and products are n-ary and sorted, constants folded into one
//     coefficient, like terms combined, products distributed over sums;
//   - x / y is x * recip(y); recip folds through constants and products;
//   - exp2(x) is exp(ln2 * x); -FLT_MAX is -inf; a + select(c, x, y) is
//     select(c, a + x, a + y); exp(select(c, x, -inf)) is select(c, exp x, 0);
//   - a sum reduction pulls out the factors that do not depend on its dim
//     and distributes over sums (linearity);
//   - casts between float types are transparent (attention accumulates in
//     f32 whatever the program rounds to);
//   - bound dims are named by the binder's height (the deepest reduction in
//     its body), so alpha-equivalent reductions are one node.
//
// Upstream has nothing like it (a linalg op's payload is a region, not a
// term); it is what linalg generalization + elementwise fusion + reshape
// propagation would produce for one output element, computed without
// materializing any IR.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_LIB_DIALECT_FLASH_TRANSFORMS_ATTENTIONMODEL_H
#define FLASH_LIB_DIALECT_FLASH_TRANSFORMS_ATTENTIONMODEL_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

namespace mlir {
namespace flash {
namespace model {

enum class Kind {
  Const,  // value
  NegInf, // -inf (and the lowest finite float, under masking)
  Read,   // tensor[index...]
  Gather, // tensor[ops...]: a read at integer expressions that are not
          // affine (a clamped or log-bucketed relative position)
  Index,  // an integer index value: index[0]
  IndexF, // an integer index value converted to float: index[0]
  Add,    // sum of ops[k] * coefs[k] (+ value)
  Mul,    // value * product of ops
  Recip,  // 1 / ops[0]
  Max,    // max of ops
  Exp,    // exp(ops[0])
  Log,    // log(ops[0])
  Select, // ops[0] ? ops[1] : ops[2]
  CmpF,   // aux = arith::CmpFPredicate, ops[0] <pred> ops[1]
  CmpI,   // aux = arith::CmpIPredicate, index[0] <pred> 0
  And,    // all of ops
  Not,    // !ops[0]
  Reduce, // aux = ReduceKind, bound dim index[0], body ops[0]
  Opaque, // name(ops...): an op the model does not interpret
};

enum class ReduceKind { Sum, Max };

struct Expr {
  explicit Expr(Kind kind) : kind(kind) {}
  Kind kind;
  double value = 0;
  int64_t aux = 0;
  Value tensor;
  SmallVector<AffineExpr, 4> index;
  SmallVector<const Expr *, 4> ops;
  SmallVector<double, 4> coefs;
  std::string name;
  /// Creation order: the canonical order of n-ary operands.
  unsigned id = 0;
  /// 1 + the height of the deepest reduction inside (0 without any).
  unsigned height = 0;
  unsigned hash = 0;
  /// Dims that occur free (not bound by a reduction inside).
  llvm::SmallDenseSet<unsigned, 8> freeDims;
  /// Whether -inf occurs inside.
  bool hasNegInf = false;
  /// Leaf tensors read anywhere inside.
  llvm::SmallDenseSet<Value, 4> reads;

  bool dependsOn(unsigned dim) const { return freeDims.contains(dim); }
  bool isConst(double v) const { return kind == Kind::Const && value == v; }
};

/// Dim numbering: the free dims of a model are 0..kFirstBound-1; bound dims
/// are named kFirstBound + height; fresh (not yet canonical) dims are
/// kFirstFresh and up.
constexpr unsigned kFirstBound = 16;
constexpr unsigned kFirstFresh = 64;
/// Affine symbols stand for tensor sizes (tensor.dim of a value).
constexpr unsigned kMaxSymbols = 8;

/// The static extent of every dim of a linear affine expression's range, as
/// a helper for simplification: `extentOf(dim)` or nullopt.
using ExtentFn = std::function<std::optional<int64_t>(unsigned)>;

/// Owns and interns expressions.
class ExprContext {
public:
  explicit ExprContext(MLIRContext *ctx) : ctx(ctx) {}
  MLIRContext *getContext() const { return ctx; }

  /// The distinct finite values a model read as -inf (masks written with
  /// finfo.min of a type, -1e9): equal under masking unless a row masks
  /// every key.
  SmallVector<double, 2> lowestFiniteFills;
  /// Whether products cancel x recip(x) for x a sum of exponentials (a
  /// softmax's row sum, > 0): set while a backward is proven through P
  /// (ProveAttentionGrad.cpp), whose autodiff divides by it twice. Not in
  /// the forward's proof, where sum_j P = 1 would turn a product with V
  /// read at the query axis into V itself, without a remark.
  bool cancelSumsOfExp = false;

  const Expr *constant(double v);
  const Expr *negInf();
  const Expr *read(Value tensor, ArrayRef<AffineExpr> index);
  /// `tensor` read at integer expressions (positions, integer opaque ops).
  const Expr *gather(Value tensor, ArrayRef<const Expr *> index);
  const Expr *index(AffineExpr e);
  const Expr *indexToFloat(AffineExpr e);
  const Expr *add(const Expr *a, const Expr *b);
  const Expr *sub(const Expr *a, const Expr *b);
  const Expr *mul(const Expr *a, const Expr *b);
  const Expr *scale(const Expr *a, double c);
  const Expr *div(const Expr *a, const Expr *b);
  const Expr *recip(const Expr *a);
  const Expr *max(const Expr *a, const Expr *b);
  const Expr *exp(const Expr *a);
  const Expr *log(const Expr *a);
  /// select(c, k y, 0) as (k, select(c, y, 0)) (expand's products).
  std::pair<double, const Expr *> selectFactor(const Expr *e);
  const Expr *select(const Expr *c, const Expr *t, const Expr *f);
  const Expr *cmpf(int64_t pred, const Expr *a, const Expr *b);
  /// `a <pred> b` on integer indices.
  const Expr *cmpi(int64_t pred, AffineExpr a, AffineExpr b);
  const Expr *land(const Expr *a, const Expr *b);
  const Expr *lnot(const Expr *a);
  const Expr *opaque(StringRef name, ArrayRef<const Expr *> ops);
  /// A reduction over fresh dim `dim` (renamed to its canonical name).
  const Expr *reduce(ReduceKind kind, unsigned dim, const Expr *body);

  /// `e` with every product of sums distributed (a sum of products), for
  /// comparing forms that differ by distributivity.
  const Expr *expand(const Expr *e);

  /// `e` with every read of tensor `from` reading `to` instead.
  const Expr *replaceTensor(const Expr *e, Value from, Value to);

  /// `e` (an arithmetic, select, compare or opaque node) rebuilt in normal
  /// form from `f` of each operand.
  const Expr *rebuild(const Expr *e, function_ref<const Expr *(const Expr *)> f);
  /// `e` with every occurrence of the node `from` replaced by `to` (renormalized).
  const Expr *replace(const Expr *e, const Expr *from, const Expr *to);
  /// d e / d x for a leaf-like node `x` (sums, products, reciprocals, exp,
  /// log, selects (on conditions of `x` too: piecewise functions), tanh); null
  /// `e` has no rule here.
  const Expr *derivative(const Expr *e, const Expr *x);
  /// Whether the node `x` occurs in `e`.
  static bool contains(const Expr *e, const Expr *x);
  /// Whether `a` and `b` are one expression up to the rounding of their
  /// constants (a few f32 ulps: 0.35355339 / 5 * 5 against 0.35355339),
  /// with the operands of sums, products, maxima and conjunctions matched
  /// in any order. Interning already makes exactly equal forms one pointer.
  static bool equalUpToRounding(const Expr *a, const Expr *b);

  /// `e` with free dim `from` replaced by `to`; with `extents`, the
  /// indices are simplified by the dims' ranges (simplifyDivMod).
  const Expr *substitute(const Expr *e, unsigned from, AffineExpr to,
                         const ExtentFn *extents = nullptr);
  /// A new fresh dim.
  unsigned freshDim() { return nextFresh++; }

  /// Readable form, for remarks and debugging.
  std::string str(const Expr *e);

private:
  const Expr *intern(Expr &&e);
  const Expr *makeAdd(double c0, SmallVector<std::pair<const Expr *, double>>);
  const Expr *makeMul(double c, SmallVector<const Expr *>);
  const Expr *makeIdempotent(Kind kind, SmallVector<const Expr *> ops,
                             const Expr *identity);
  const Expr *reduceCanonical(ReduceKind kind, unsigned dim, const Expr *body);

  MLIRContext *ctx;
  llvm::SpecificBumpPtrAllocator<Expr> alloc;
  llvm::DenseMap<unsigned, SmallVector<const Expr *, 1>> table;
  llvm::DenseMap<const Expr *, const Expr *> expanded;
  unsigned nextId = 0;
  unsigned nextFresh = kFirstFresh;
};

/// Reads IR values as expressions. Looks through linalg ops (named ones by
/// their indexing maps and payload), tensor.collapse_shape/expand_shape,
/// tensor.cast, constants, and linalg.softmax (through its upstream
/// decomposition, made on a scratch copy); everything else is a leaf.
class ModelBuilder {
public:
  ModelBuilder(ExprContext &ec);
  ~ModelBuilder();

  /// The element of `v` at `index` (affine exprs over model dims). `extents`
  /// gives the static extent of each free dim where known.
  const Expr *eval(Value v, ArrayRef<AffineExpr> index);
  /// The element of `v` at its own dims 0..rank-1.
  const Expr *evalAtIdentity(Value v);

  /// Values the builder must treat as leaves.
  llvm::DenseSet<Value> stopAt;
  /// Values read as another value (the forms of one tensor: casts of P).
  llvm::DenseMap<Value, Value> aliases;
  /// Static extents of dims (free and fresh), when known.
  llvm::DenseMap<unsigned, int64_t> extents;
  /// `extents` as an ExtentFn (nullopt where unknown or dynamic).
  ExtentFn extentOf() const;
  /// The sizes affine symbols stand for: (tensor, dim).
  SmallVector<std::pair<Value, int64_t>> symbols;
  /// An integer value computed outside any payload (constants, tensor.dim,
  /// arithmetic) as an affine expression, or null.
  AffineExpr indexExprOf(Value v);
  /// Every non-leaf value evaluated, with one index it was read at.
  llvm::MapVector<Value, SmallVector<AffineExpr, 4>> visited;

  /// A Read of the value whose model (at some index) is `x`: how the proof
  /// names a computed tensor (a projection, a rotary embedding) as a leaf.
  /// `x` itself when it is a Read (unless `ofViews`: then a view read
  /// through whose model `x` is, dO[b, 2 k + g, i, e] as its expand_shape
  /// [b, k, g, i, e]); null when no value evaluated so far is.
  const Expr *asLeaf(const Expr *x, bool ofViews = false);

  /// Whether float arithmetic is read as written, op by op (opaque nodes),
  /// instead of in normal form: under a conversion to an integer (fptosi,
  /// floor), where reassociating or folding constants could move a value
  /// across an integer boundary (T5's log buckets).
  bool exact = false;

  /// Whether an expand_shape is read through even where its source's reads
  /// stay combined (leaf[G hk + g]): the backward of grouped K/V heads,
  /// whose sum over each group is such a read (ProveAttentionGrad.cpp).
  /// Otherwise such a view is itself a leaf, as a layout the proof can name
  /// (asLeaf with `ofViews` names it where it was read through).
  bool foldLinearViews = false;

  /// Forgets what was evaluated (after stopAt changed).
  void resetMemo() {
    memo.clear();
    memoKeys.clear();
    visited.clear();
    complexCache.clear();
  }

  /// Drops the scratch copies; the builder reads no value made there after.
  void releaseScratch();

  /// Whether `e` (a Read) reads a value made on a scratch copy.
  bool isScratch(Value v);
  bool isScratch(Operation *op);

private:
  const Expr *evalOp(Value v, ArrayRef<AffineExpr> index);
  Value lowerTosa(Value v);
  const Expr *throughView(Value view, Value src, ArrayRef<AffineExpr> idx,
                          ArrayRef<AffineExpr> srcIdx);
  bool readsComplex(const Expr *e);
  llvm::DenseMap<const Expr *, bool> complexCache;
  const Expr *evalLinalg(Operation *op, unsigned result,
                         ArrayRef<AffineExpr> index);
  /// A tensor.generate's element at `index`: its body with the indices for
  /// its arguments (a mask built by tensor.generate is an index predicate).
  const Expr *evalGenerate(Operation *generate, ArrayRef<AffineExpr> index);
  /// A dense constant whose elements are a band of its last two dims (a
  /// causal or sliding-window mask stored as data: GPT-2's `bias` buffer,
  /// TOSA's and ONNX's constant masks) at `index`: a select of its two
  /// values by position compares. Null for any other constant.
  const Expr *constantBand(Value v, ArrayRef<AffineExpr> index);
  AffineExpr simplify(AffineExpr e);
  bool isSimple(ArrayRef<AffineExpr> index);

  ExprContext &ec;
  /// constantBand's analysis of each constant: the value inside the band
  /// and the other one, its upper offset k (j <= i + k) and lower offset w
  /// (j >= i - w).
  struct Band {
    double inside, outside;
    std::optional<int64_t> upper, lower;
  };
  std::optional<Band> findBand(DenseElementsAttr d);
  llvm::DenseMap<Attribute, std::optional<Band>> bands;
  llvm::DenseMap<std::pair<Value, unsigned>, const Expr *> memo;
  llvm::DenseMap<std::pair<Value, unsigned>, SmallVector<AffineExpr, 4>>
      memoKeys;
  OwningOpRef<ModuleOp> scratch;
  llvm::DenseMap<Operation *, SmallVector<Value>> decomposed;
  /// Original TOSA values -> their lowering on the scratch copy.
  llvm::DenseMap<Value, Value> tosaMap;
  /// Scratch function arguments -> the original values they stand for.
  llvm::DenseMap<Value, Value> scratchArgs;
};

/// Whether `e` is non-negative for every value of its dims and symbols
/// (positions and sizes, all >= 0).
bool knownNonNegative(AffineExpr e);

/// Whether `op` is a constant with nothing to read (arith.constant): a leaf
/// the raise may clone wherever it needs it.
bool isConstantLeafOp(Operation *op);

/// Every distinct Read in `e`.
void collectReads(const Expr *e, SmallVectorImpl<const Expr *> &out);
/// Every tensor `e` reads, by a Read or a Gather.
void collectTensors(const Expr *e, SmallVectorImpl<Value> &out);

/// Simplifies floordiv/mod of a linear form by a constant when the
/// remainder's range is known to lie in [0, n).
AffineExpr simplifyDivMod(AffineExpr e, const ExtentFn &extentOf);

/// The value a narrower integer type gives `x` (an i64): truncated to
/// `width` bits and sign- or zero-extended back, an opaque "wrap.s8" /
/// "wrap.u32" that the regions rebuild so (Materialize.cpp) and the proofs
/// evaluate (ProveAttention.cpp).
const Expr *wrapInteger(ExprContext &ec, unsigned width, bool zeroExtend,
                        const Expr *x);
struct Wrap {
  unsigned width;
  bool zeroExtend;
};
/// The wrap `e` is (wrapInteger), or nullopt.
std::optional<Wrap> asWrap(const Expr *e);

/// Whether an integer of `width` bits holding the position expression `e`
/// holds its value exactly, at every position (the ranges of decideCmpI):
/// it fits the signed range, and with `nonNegative` (read unsigned) is
/// >= 0. Where the range is unbounded (dynamic sizes), 32 bits and more
/// are taken to suffice.
bool fitsInteger(AffineExpr e, unsigned width, bool nonNegative,
                 const ExtentFn &extentOf);
/// Whether converting `e` to a float of `precision` significant bits is
/// exact at every position (|e| <= 2^precision); unbounded: f32 and wider.
bool exactInFloat(AffineExpr e, unsigned precision, const ExtentFn &extentOf);

/// The value of `a <pred> b` (an arith::CmpIPredicate on positions and
/// sizes) when the ranges of its dims decide it (dims and symbols are
/// >= 0, dims below their extent where `extentOf` knows it): `i >= 0` is
/// true, `j < Nk` too. Nullopt when it depends on the positions.
std::optional<bool> decideCmpI(int64_t pred, AffineExpr a, AffineExpr b,
                               const ExtentFn &extentOf);

} // namespace model
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_DIALECT_FLASH_TRANSFORMS_ATTENTIONMODEL_H
