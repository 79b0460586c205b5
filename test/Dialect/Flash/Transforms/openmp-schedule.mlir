// flash-openmp-schedule: dynamic schedules on the wsloops that have none;
// a schedule already there stays.
// RUN: flash-opt %s --flash-openmp-schedule | FileCheck %s

// CHECK-LABEL: func @unscheduled
// CHECK: omp.wsloop schedule(dynamic)
func.func @unscheduled(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// CHECK-LABEL: func @scheduled
// CHECK: omp.wsloop schedule(static)
func.func @scheduled(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop schedule(static) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
