// A result that reaches its destination memref through tensor.expand_shape is computed in the
// destination: it is materialized into the destination's collapsed view instead, and the
// tensor.empty it is written into (or the collapse_shape of an empty of the destination's type
// that its chain starts from) becomes that view. No expand_shape is left. A result of the
// destination's type whose chain starts at a tensor.empty (one written in parts) has that empty
// made the destination. A result that reaches it through tensor.collapse_shape is computed in its
// expanded view. A part inserted into a tensor and computed in an empty is computed in its slice
// of the destination, outermost insertion first. An empty that something else also writes is
// first copied for the chain. Anything else is left to eliminate-empty-tensors.
// RUN: %op-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(aclop-eliminate-expanded-empty-tensors))' | FileCheck %s
// RUN: %op-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(aclop-eliminate-expanded-empty-tensors),eliminate-empty-tensors)' | FileCheck %s --check-prefix=PARTS

// Through a fill and a generic into [image, pixels, channels]; the dynamic batch carries over.
// CHECK-LABEL: func @through_fill_and_generic
// CHECK-NOT: tensor.empty
// CHECK: %[[VIEW:.*]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2], [3]] : memref<?x4x5x8xf32> into memref<?x20x8xf32>
// CHECK: %[[START:.*]] = bufferization.to_tensor %[[VIEW]] restrict writable : memref<?x20x8xf32> to tensor<?x20x8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[START]] : tensor<?x20x8xf32>)
// CHECK: %[[RESULT:.*]] = linalg.generic
// CHECK-NOT: tensor.expand_shape
// CHECK: bufferization.materialize_in_destination %[[RESULT]] in restrict writable %[[VIEW]] : (tensor<?x20x8xf32>, memref<?x20x8xf32>) -> ()
func.func @through_fill_and_generic(%x: tensor<?x20x8xf32>, %out: memref<?x4x5x8xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x20x8xf32>
  %e = tensor.empty(%n) : tensor<?x20x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x20x8xf32>) -> tensor<?x20x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<?x20x8xf32>) outs(%f : tensor<?x20x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x20x8xf32>
  %r = tensor.expand_shape %g [[0], [1, 2], [3]] output_shape [%n, 4, 5, 8] : tensor<?x20x8xf32> into tensor<?x4x5x8xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x4x5x8xf32>, memref<?x4x5x8xf32>) -> ()
  return
}

// -----

// Written through a collapsed view of an empty of the destination's type: that empty becomes
// the destination.
// CHECK-LABEL: func @through_collapsed_empty
// CHECK-NOT: tensor.empty
// CHECK: %[[VIEW:.*]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2]] : memref<2x3x4xf32> into memref<2x12xf32>
// CHECK: %[[START:.*]] = bufferization.to_tensor %[[VIEW]] restrict writable
// CHECK: %[[RESULT:.*]] = linalg.copy ins(%arg0 : tensor<2x12xf32>) outs(%[[START]] : tensor<2x12xf32>)
// CHECK: bufferization.materialize_in_destination %[[RESULT]] in restrict writable %[[VIEW]]
func.func @through_collapsed_empty(%x: tensor<2x12xf32>, %out: memref<2x3x4xf32>) {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %v = tensor.collapse_shape %e [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  %c = linalg.copy ins(%x : tensor<2x12xf32>) outs(%v : tensor<2x12xf32>) -> tensor<2x12xf32>
  %r = tensor.expand_shape %c [[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<2x3x4xf32>, memref<2x3x4xf32>) -> ()
  return
}

// -----

// The empty is also written elsewhere (CSE merges equal empties): the chain to the output gets
// an empty of its own, which becomes the output's view; the other write keeps the original,
// which becomes its own destination.
// CHECK-LABEL: func @empty_used_twice
// CHECK-NOT: tensor.empty
// CHECK: %[[VIEW:.*]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2]] : memref<2x3x4xf32> into memref<2x12xf32>
// CHECK: %[[START:.*]] = bufferization.to_tensor %[[VIEW]] restrict writable
// CHECK: linalg.copy ins(%arg0 : tensor<2x12xf32>) outs(%[[START]] : tensor<2x12xf32>)
// CHECK: %[[OTHER:.*]] = bufferization.to_tensor %arg2 restrict writable : memref<2x12xf32> to tensor<2x12xf32>
// CHECK: linalg.copy ins(%arg0 : tensor<2x12xf32>) outs(%[[OTHER]] : tensor<2x12xf32>)
// CHECK-NOT: tensor.empty
// CHECK: return
func.func @empty_used_twice(%x: tensor<2x12xf32>, %out: memref<2x3x4xf32>, %other: memref<2x12xf32>) {
  %e = tensor.empty() : tensor<2x12xf32>
  %c = linalg.copy ins(%x : tensor<2x12xf32>) outs(%e : tensor<2x12xf32>) -> tensor<2x12xf32>
  %d = linalg.copy ins(%x : tensor<2x12xf32>) outs(%e : tensor<2x12xf32>) -> tensor<2x12xf32>
  bufferization.materialize_in_destination %d in restrict writable %other : (tensor<2x12xf32>, memref<2x12xf32>) -> ()
  %r = tensor.expand_shape %c [[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<2x3x4xf32>, memref<2x3x4xf32>) -> ()
  return
}

// -----

// Written in parts: the chain of insertions starts at the output's tensor.empty, which becomes
// the destination first; eliminate-empty-tensors then gives the first part, computed in an
// empty of its own, a slice of the destination (taking insertions in order, it would otherwise
// give it a slice of the empty, left to be allocated and copied).
// CHECK-LABEL: func @written_in_parts
// CHECK: %[[OUT:.*]] = bufferization.to_tensor %arg1 restrict writable : memref<2x8xf32> to tensor<2x8xf32>
// CHECK-NOT: tensor.empty() : tensor<2x8xf32>
// CHECK: %[[FIRST:.*]] = tensor.insert_slice %{{.*}} into %[[OUT]][0, 0] [2, 4]
// CHECK: tensor.insert_slice %{{.*}} into %[[FIRST]][0, 4] [2, 4]
// CHECK: bufferization.materialize_in_destination
// PARTS-LABEL: func @written_in_parts
// PARTS: %[[OUT:.*]] = bufferization.to_tensor %arg1 restrict writable
// PARTS-NOT: tensor.empty
// PARTS: %[[PART:.*]] = tensor.extract_slice %[[OUT]][0, 0] [2, 4]
// PARTS: linalg.copy ins(%arg0 : tensor<2x4xf32>) outs(%[[PART]] : tensor<2x4xf32>)
func.func @written_in_parts(%x: tensor<2x4xf32>, %out: memref<2x8xf32>) {
  %e = tensor.empty() : tensor<2x8xf32>
  %p = tensor.empty() : tensor<2x4xf32>
  %a = linalg.copy ins(%x : tensor<2x4xf32>) outs(%p : tensor<2x4xf32>) -> tensor<2x4xf32>
  %first = tensor.insert_slice %a into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %q = tensor.extract_slice %first[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
  %b = linalg.copy ins(%x : tensor<2x4xf32>) outs(%q : tensor<2x4xf32>) -> tensor<2x4xf32>
  %second = tensor.insert_slice %b into %first[0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  bufferization.materialize_in_destination %second in restrict writable %out : (tensor<2x8xf32>, memref<2x8xf32>) -> ()
  return
}

// -----

// Through a collapse_shape ([n, h, w, group, out in group] into [n, h, w, channels], as grouped
// NHWC Conv2D writes): the empty becomes the destination's expanded view, its dynamic sizes
// those of the empty.
// CHECK-LABEL: func @through_collapse
// CHECK: %[[VIEW:.*]] = memref.expand_shape %arg1 {{\[}}[0], [1], [2, 3]] output_shape [%{{.*}}, 3, 2, 4] : memref<?x3x8xf32> into memref<?x3x2x4xf32>
// CHECK: %[[START:.*]] = bufferization.to_tensor %[[VIEW]] restrict writable : memref<?x3x2x4xf32> to tensor<?x3x2x4xf32>
// CHECK: %[[RESULT:.*]] = linalg.generic {{.*}} outs(%[[START]] : tensor<?x3x2x4xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK: bufferization.materialize_in_destination %[[RESULT]] in restrict writable %[[VIEW]] : (tensor<?x3x2x4xf32>, memref<?x3x2x4xf32>) -> ()
func.func @through_collapse(%x: tensor<?x3x2x4xf32>, %out: memref<?x3x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x2x4xf32>
  %e = tensor.empty(%n) : tensor<?x3x2x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<?x3x2x4xf32>) outs(%e : tensor<?x3x2x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<?x3x2x4xf32>
  %r = tensor.collapse_shape %g [[0], [1], [2, 3]] : tensor<?x3x2x4xf32> into tensor<?x3x8xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x3x8xf32>, memref<?x3x8xf32>) -> ()
  return
}

// -----

// A part of a part (a concatenation's part split at a partial tile): the outer part's empty
// becomes its slice of the destination first, then the inner part's empty a slice of that, so
// both are computed in place. (eliminate-empty-tensors, innermost first, gave the inner part a
// slice of the outer part's empty, which was then left to be allocated.)
// CHECK-LABEL: func @part_of_a_part
// CHECK-NOT: tensor.empty
// CHECK: %[[OUT:.*]] = bufferization.to_tensor %arg1 restrict writable : memref<4x43xf32> to tensor<4x43xf32>
// CHECK: %[[PART:.*]] = tensor.extract_slice %[[OUT]][0, 3] [4, 40] [1, 1] : tensor<4x43xf32> to tensor<4x40xf32>
// CHECK: %[[INNER:.*]] = tensor.extract_slice %[[PART]][0, 0] [4, 32] [1, 1] : tensor<4x40xf32> to tensor<4x32xf32>
// CHECK: linalg.generic {{.*}} outs(%[[INNER]] : tensor<4x32xf32>)
func.func @part_of_a_part(%x: tensor<4x32xf32>, %out: memref<4x43xf32>) {
  %e = tensor.empty() : tensor<4x43xf32>
  %p = tensor.empty() : tensor<4x40xf32>
  %q = tensor.empty() : tensor<4x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x32xf32>) outs(%q : tensor<4x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  %inner = tensor.insert_slice %g into %p[0, 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<4x40xf32>
  %outer = tensor.insert_slice %inner into %e[0, 3] [4, 40] [1, 1] : tensor<4x40xf32> into tensor<4x43xf32>
  bufferization.materialize_in_destination %outer in restrict writable %out : (tensor<4x43xf32>, memref<4x43xf32>) -> ()
  return
}
