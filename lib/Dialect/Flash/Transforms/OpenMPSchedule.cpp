//===- OpenMPSchedule.cpp - dynamic schedules for the CPU pipeline --------===//
//
// flash-openmp-schedule: `schedule(dynamic)` on the omp.wsloop ops that
// convert-scf-to-openmp created (see Passes.td for why). Upstream's
// conversion has no schedule option and no pass sets one.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHOPENMPSCHEDULE
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct FlashOpenMPSchedulePass
    : flash::impl::FlashOpenMPScheduleBase<FlashOpenMPSchedulePass> {
  void runOnOperation() override {
    getOperation().walk([](omp::WsloopOp loop) {
      if (!loop.getScheduleKind())
        loop.setScheduleKind(omp::ClauseScheduleKind::Dynamic);
    });
  }
};
} // namespace
