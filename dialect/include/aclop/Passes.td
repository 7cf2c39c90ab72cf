//===- Passes.td - aclop passes ----------------------------*- tablegen -*-===//
#ifndef ACLOP_PASSES_TD
#define ACLOP_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertAclopToLinalg : Pass<"convert-aclop-to-linalg", "ModuleOp"> {
  let summary = "Lower aclop ops to linalg on tensors";
  let description = [{
    Each op becomes linalg named ops or `linalg.generic`s on tensors: element-wise ops with
    broadcasting indexing maps, products as contractions with f32 (i32 for i8) accumulation,
    reductions over the kept dimensions first, softmax as max / exp / sum / divide. f16 and bf16
    arithmetic is done in f32. `ui8` tensors become `i8` (signedness is carried by the ops).

    ```mlir
    %r = aclop.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    // becomes
    %e = tensor.empty() : tensor<4x8xf32>
    %r = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0, d1)],
                         iterator_types = ["parallel", "parallel"]} ins(%a, %b) outs(%e) {...}
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect"];
}

def AclopSelectStrategy : Pass<"aclop-select-strategy", "ModuleOp"> {
  let summary = "Choose tile and vector sizes per linalg op for the target";
  let description = [{
    Records the choice as an `aclop.strategy` attribute so later passes (and lit tests) see it:
    `{vector_size = 16 : i64, tile_sizes = array<i64: 1, 16>}` for an f32 element-wise op on a
    512-bit vector target; ops the tiling pass does not handle get a strategy without
    `tile_sizes`. A product whose operand types a ukernel the target provides covers (see
    `ukernels`) records `ukernel = "<symbol>"`: its cache tiles become calls to that symbol.
    A product with a static depth also records, on its function, the work of one output element
    in vector FMAs (`aclop.work_per_element`, depth / vector_size): the launch recipe sizes
    blocks by it. A reduction along short rows (trailing dims reduced, inputs read in iteration
    order, a static row of at most 16 vectors) records the row's length, `row_length`. A
    reduction whose innermost dim is kept, a vector or longer, whose inputs are read in rows
    along it (in iteration order, or a leading reduced dim's rows a plane apart) or are rows of
    the kept dims, and whose body is element-wise arithmetic (a column sum; NHWC's global
    average; ArgMax over axis 0; a softmax's sums over axis 0) records `streamed_rows`: tiles of one element of every dim but the innermost, and of a
    vector of that or, for a plain reduction's static row of 1, 2, 4 or 8 whole vectors, the whole row.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the target's vector registers in bits">,
    ListOption<"ukernels", "ukernels", "std::string",
               "Ukernel symbols the target provides (aclcpu_ukernel_gemm_s8s8s32_vnni)">
  ];
}

def AclopTileAndVectorize : Pass<"aclop-tile-and-vectorize", "func::FuncOp"> {
  let summary = "Tile linalg ops by their strategy and vectorize the tiles";
  let description = [{
    Ops with `tile_sizes` in their `aclop.strategy` are tiled into an `scf.forall` (so the tiles
    stay parallel) and each tile is vectorized with the strategy's vector sizes; partial tiles
    at the edges are masked. Ops whose vectorization preconditions fail stay scalar.

    Products (`cache_tiles`): a ukernel's product with GEMM's epilogue becomes an `scf.forall`
    of row tiles each holding fill, product and epilogue (folded into one call later); an f32
    GEMM of whole 8x32 tiles whose B fits 512 x 640 elements becomes 8x32 (12x32 for a larger
    B; the rows left over split off) register tiles with the fill and the epilogue fused in and
    the accumulator carried as a vector through the k loop (empty tensors are eliminated in
    the function first when the GEMM is split); any other product becomes cache tiles (an
    `scf.forall` over row tiles, `scf.for` over column then depth tiles) and, for float and i8
    operands, 8x32 register tiles on packed or widened panels.

    Reductions along short rows (`row_length`): the reduced dims collapse into one, the kept
    dims are tiled by one (the accumulator's fill fused in), and each row is read as one vector
    and reduced across lanes by a `vector.reduction` carrying the combiner's fastmath flags.

    Reductions with `streamed_rows`: an `scf.forall` over the kept dims before the reduced ones,
    `scf.for` loops over the reduced dims, and the row either whole (its accumulators read and
    written once, carried by the loops as vectors) or in vectors along an innermost loop peeled
    of its partial vector (masked where the row's length is dynamic), each combined into its
    part of the accumulator row. Each tile's unit dims are dropped first: an element-wise op
    along the row, vectorized without reductions. The loop along the row (or the innermost row loop) is marked
    `aclop.streamed_rows` for aclop-prefetch-streamed-rows.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::bufferization::BufferizationDialect"];
}

def AclopCallUkernels : Pass<"aclop-call-ukernels", "ModuleOp"> {
  let summary = "Replace product cache tiles marked with a ukernel by calls to it";
  let description = [{
    Runs after bufferization. Each `linalg.generic` on memrefs whose `aclop.strategy` names a
    `ukernel` (a product with dims (batch?, m, k, n), the batch a unit) becomes a call that
    passes, per operand, the aligned base pointer, the element offset and the element strides
    of its two matrix dims, then rows, columns and depth:

    ```mlir
    func.call @aclcpu_ukernel_gemm_s8s8s32_vnni(%a, %aOffset, %aRowStride, %aDepthStride,
        %b, %bOffset, %bDepthStride, %bColumnStride, %c, %cOffset, %cRowStride, %rows, %columns, %depth)
        : (index, ...) -> ()
    ```

    The accumulator must have a unit column stride (a bufferized result always has); a tile
    that does not fit stays a generic, which is slower but correct.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect"];
}

def AclopStreamStores : Pass<"aclop-stream-stores", "func::FuncOp"> {
  let summary = "Store large element-wise outputs with non-temporal stores (x86)";
  let description = [{
    Runs after aclop-map-to-kernel-abi. A top-level `scf.parallel` whose every write is a
    whole-vector `vector.transfer_write` (no mask, in bounds, 16/32/64 bytes) into a statically
    shaped output argument of at least `min-bytes`, with rows of whole vectors, is cloned under
    `scf.if` on the outputs' base alignment: the aligned copy writes with
    `llvm.store {nontemporal, alignment = N}` (f16 and bf16 vectors, for which the x86 backend
    emits no non-temporal store, with a `vmovntdq` `llvm.inline_asm`) and ends with
    `llvm.x86.sse.sfence`.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"33554432",
           "Smallest output (bytes) worth streaming past the caches">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"];
}

def AclopFastBf16Truncation : Pass<"aclop-fast-bf16-truncation", "func::FuncOp"> {
  let summary = "f32 -> bf16 vector truncation with AVX512-BF16, exact on denormals";
  let description = [{
    For hosts with AVX512-BF16: each `arith.truncf` of a `vector<16xf32>` (or `vector<8xf32>`)
    to bf16 becomes `x86vector.avx512.cvt.packed.f32_to_bf16` (vcvtneps2bf16: round to
    nearest even, NaN kept quiet). That instruction treats denormal inputs as zero, so a vector
    holding any denormal takes, under `scf.if`, the exact truncation for those lanes: an
    `arith.truncf` marked `aclop.exact`, which this pass leaves alone and `arith-expand`
    later turns into integer rounding.
  }];
  let dependentDialects = ["::mlir::x86vector::X86VectorDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"];
}

def AclopEliminateExpandedEmptyTensors : Pass<"aclop-eliminate-expanded-empty-tensors", "func::FuncOp"> {
  let summary = "Compute results that reach their destination through a reshape, or in parts, in place";
  let description = [{
    For `bufferization.materialize_in_destination` of a `tensor.expand_shape` whose source is
    computed in place in a `tensor.empty` (through destination-style ops and loops), the empty
    tensor becomes the `tensor.collapse_shape` of the destination with the same reassociation.
    `eliminate-empty-tensors` handles only matching types; without this the result gets a
    buffer of its own and a copy into the output, which makes the kernel single-block.

    A source of the destination's type computed in place in a `tensor.empty` has that empty
    become the destination. `eliminate-empty-tensors` would do the same, but it takes the
    insertions in order: a result written in parts (`tensor.insert_slice` into the empty) would
    have its first part placed in a slice of the empty, allocated and copied, before the empty
    itself was replaced.

    A result that reaches the destination through a `tensor.collapse_shape` (grouped NHWC
    Conv2D's [n, h, w, group, out in group]) is computed in the destination's
    `memref.expand_shape` the same way.

    Each part inserted into a tensor (`tensor.insert_slice`) and computed in a `tensor.empty`
    has that empty become the destination's slice it is inserted at, outermost insertion first:
    `eliminate-empty-tensors`, innermost first, left a part of a part (a split partial tile
    inside a concatenation's part) in a buffer of its own.

    An empty tensor that something else also writes (CSE merges equal empties: a reduction's
    accumulator and its epilogue's result) is first copied for the chain to the output; with
    one empty for both, the result got a buffer of its own and a copy, and the kernel one block.
    Runs before `eliminate-empty-tensors`.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect", "::mlir::tensor::TensorDialect"];
}

def AclopFloatMinMaxToLlvm : Pass<"aclop-float-min-max-to-llvm", "func::FuncOp"> {
  let summary = "arith.maximumf / minimumf as llvm.maximum / llvm.minimum";
  let description = [{
    Runs before `arith-expand`, which would turn them into compare-and-select chains: LLVM
    vectorizes a maximum carried through a loop only as the intrinsic, and folds a store of
    `select(c, x, load p)` back to `p` into a masked store. The semantics are the same (a NaN
    wins, -0 < +0).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AclopLowerStridedGathers : Pass<"aclop-lower-strided-gathers", "func::FuncOp"> {
  let summary = "vector.gather of every s-th element (s = 2 to 4) as a load and a vector.shuffle";
  let description = [{
    Runs after bufferization. A gather from a memref with the identity layout, all its lanes
    read (a constant true mask), whose index vector is lane 0's index plus s x lane (as the
    vectorizer builds for a window read at a stride along the innermost dim: NCHW pooling's) becomes
    a vector.load of s x V elements of the flattened memref and a vector.shuffle of every s-th
    lane. The load reaches up to s - 1 elements past the last one gathered; an scf.if keeps the
    gather for a vector whose load would leave the buffer.

    ```mlir
    %v = vector.gather %m[%c0, %c0] [%idx], %true, %pass : memref<4x16xf32>, vector<8xindex>, ...
    // %idx = %b + 2 x [0, 1, ..., 7] becomes
    %r = scf.if %inside -> (vector<8xf32>) {
      %w = vector.load %flat[%start] : memref<64xf32>, vector<16xf32>
      %s = vector.shuffle %w, %w [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
      scf.yield %s : vector<8xf32>
    } else { ... the gather ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"];
}

def AclopLowerDynamicExpandShapes : Pass<"aclop-lower-dynamic-expand-shapes", "func::FuncOp"> {
  let summary = "memref.expand_shape into two or more dynamic dims of one group as memref.reinterpret_cast";
  let description = [{
    Runs before expand-strided-metadata, which in LLVM 22 assumes at most one dynamic size in
    each reassociation group and, given more (a dynamic convolution's pixels split into a
    dynamic height and width), reads a null size and crashes (llvm-project#186830, fixed for
    LLVM 23 by reading `output_shape`). Such an expand_shape becomes a reinterpret_cast of
    its source's base buffer at the source's offset, with the sizes of its `output_shape`: in a
    group the innermost dim keeps the source dim's stride and each outer one steps over the
    sizes inside it. Other expand_shapes are left to expand-strided-metadata.

    ```mlir
    %e = memref.expand_shape %m [[0], [1, 2]] output_shape [%a, %b, %c]
        : memref<?x?xf32> into memref<?x?x?xf32>
    // becomes
    %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m
    %s = arith.muli %strides#1, %c : index
    %e = memref.reinterpret_cast %base to offset: [0], sizes: [%a, %b, %c],
        strides: [%strides#0, %s, 1] : memref<f32> to memref<?x?x?xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def AclopBf16SelectsAsIntegers : Pass<"aclop-bf16-selects-as-integers", "func::FuncOp"> {
  let summary = "arith.select of bf16 vectors as a select of their bits (i16 vectors)";
  let description = [{
    The choice is the same bits either way, and LLVM 22's x86 backend lowers every i16 vector
    select, but with AVX512-BF16 aborts on a bf16 one of an odd width above 16 (17 or 33
    lanes: a Select operator's row), which it splits into a one-element bf16 select it cannot
    soft-promote.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AclopLowerTransposes : Pass<"aclop-lower-transposes", "func::FuncOp"> {
  let summary = "2-D vector.transpose as shuffles: 16- and 8-bit ones; 512-bit vectors' 32-, 16- and 8-bit tiles";
  let description = [{
    A transpose of 16- or 8-bit elements becomes one vector.shuffle of the flattened vector,
    which LLVM's x86 backend lowers to word and byte unpacks, where convert-vector-to-llvm's
    default (an extract and an insert an element) took 1.5 times the instructions: a 16x16 f16
    transpose, 632 against 406. With `vector-bits` of 512 or more, a 16x16 transpose of 32-bit
    elements takes MLIR's 16x16 shuffle sequence (unpacks and 128-bit lane shuffles, 64 of them),
    where the default left LLVM about 200 two-source permutes, and a square transpose of 16- or
    8-bit elements whose rows are whole vectors (32x32, 64x64) shuffles of its rows (unpacks of 1,
    2, 4... elements within 128-bit lanes, then two rounds of lane selects: 160 or 384) rather
    than the flattened shuffle, which LLVM took 2.7 s to compile for 64x64 bytes. Other 32-bit
    transposes are left to the default. A transpose of higher rank that moves only two dims of
    more than one element (64x1x64) is first made a 2-D one between shape casts: the default
    lowering of that one took LLVM 48 s.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: unknown)">
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::ub::UBDialect"];
}

def AclopApproximateMath : Pass<"aclop-approximate-math", "func::FuncOp"> {
  let summary = "f32 exp, log, tanh, erf and erfc as polynomial or rational approximations";
  let description = [{
    LLVM has no vector form of these (llvm.exp, llvm.log, llvm.tanh; erf and erfc are libm calls):
    a vector of them becomes a libm call per lane. MLIR's polynomial approximations compute
    them in vector registers, scalar code the same way, so an element's value does not depend
    on whether it falls in a vector or a remainder. erf is a rational function fitted here
    (ErfAsRational): MLIR's selects each coefficient between three intervals. exp is MLIR's
    polynomial with k = round(x log2(e)) taken by adding 1.5 * 2^23 and 2^k built from that
    sum's bits, and the polynomial by Estrin's scheme (ExpAsPolynomial): 15 operations against
    20, and a shorter chain. f16 and bf16 are computed in f32 already; f64 keeps libm.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def AclopHoistStaticAllocas : Pass<"aclop-hoist-static-allocas", "func::FuncOp"> {
  let summary = "Static memref.allocas to the function's entry block";
  let description = [{
    `promote-buffers-to-stack` turns small temporaries into `memref.alloca` where they were
    allocated: a softmax row's max and sum inside the loop over rows. Nothing scopes those
    allocations once the loops are lowered, so each iteration grew the stack (64 bytes a row:
    a million rows overflowed it). Each iteration initializes what it uses, and a kernel runs
    its loops in order within a block (blocks are separate calls), so one allocation at the
    function's entry serves every iteration. Allocas with dynamic sizes stay where they are.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def AclopLowerStridedCopies : Pass<"aclop-lower-strided-copies", "func::FuncOp"> {
  let summary = "memref.copy between non-contiguous memrefs as parallel loops";
  let description = [{
    Runs after bufferization. A copy whose source or target is not contiguous (a subview of a
    row, as bufferization makes where a slice is written out of place) would lower to a call of
    MLIR's `memrefCopy` runtime function, which kernels do not link with; it becomes an
    `scf.parallel` of loads and stores instead (blocks then divide it like any other nest).
    Contiguous copies stay `memref.copy` (an `llvm.memcpy`), and a copy onto itself goes away.

    ```mlir
    memref.copy %a, %b : memref<2x3xf32, strided<[43, 1]>> to memref<2x3xf32, strided<[43, 1], offset: 3>>
    // becomes
    scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
      %v = memref.load %a[%i, %j] ...
      memref.store %v, %b[%i, %j] ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def AclopPrefetchTransposedBlocks : Pass<"aclop-prefetch-transposed-blocks", "func::FuncOp"> {
  let summary = "Fetch the rows a transpose's next block reads while it transposes this one";
  let description = [{
    Runs after bufferization. A `vector.transfer_read` that transposes the last two dims of a
    memref (a V x V tile of a transpose, reading V rows a line each) whose rows move only with
    the innermost induction variable of an enclosing `scf.parallel` is preceded by
    `memref.prefetch`es of the lines the same read reads in that loop's next iteration (its
    rows one step further). Rows a whole input row apart are not followed by the hardware
    prefetchers. A prefetch never faults: past the end is harmless.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def AclopPrefetchStreamedRows : Pass<"aclop-prefetch-streamed-rows", "func::FuncOp"> {
  let summary = "Prefetch ahead in the rows a reduction with a kept innermost dim streams through";
  let description = [{
    Runs after bufferization. In an `scf.for` marked `aclop.streamed_rows` by
    aclop-tile-and-vectorize (the loop along a row of such a reduction, or, where a row is one
    tile whose accumulators the loops carry, the innermost loop over rows), each 1-D
    `vector.transfer_read` of a buffer the loop does not write, a view of a contiguous,
    statically shaped one of at least `min-bytes`, is preceded by `memref.prefetch`es of the
    elements 8 KiB further on, one a 64-byte line the read covers (its last index moved on: past
    the row's end those are the next rows', in order). Smaller inputs are read from the caches,
    where the prefetches only cost their issue slots. The mark is removed. A prefetch never
    faults: past the end is harmless.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"4194304",
           "Smallest input (bytes) worth prefetching ahead">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def AclopLowerRegisterTiles : Pass<"aclop-lower-register-tiles", "func::FuncOp"> {
  let summary = "Keep the accumulators of vectorized register tiles in registers";
  let description = [{
    Runs after bufferization. Folds memref subviews into vector transfers (so reads and writes
    of a register tile's accumulator have loop-invariant indices) and hoists those transfers
    out of the loops that do not change them: the k loop of a product's register tile then
    keeps its 8x32 accumulator in registers.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def AclopVersionGemmEpilogue : Pass<"aclop-version-gemm-epilogue", "func::FuncOp"> {
  let summary = "Register tiles store their accumulators alone when alpha = 1 and beta = 0";
  let description = [{
    Runs after aclop-lower-register-tiles. A register tile whose write stores GEMM's epilogue,
    select(beta == 0, alpha * acc, alpha * acc + beta * c) of its k loop's accumulator
    (possibly truncated to f16 or bf16), gets the write under `scf.if` on alpha == 1 and
    beta == 0, read once per tile: the then branch stores the accumulator, the else branch
    the epilogue as before, into which the epilogue's ops and the read of C are sunk.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"];
}

def AclopMapToKernelAbi : Pass<"aclop-map-to-kernel-abi", "ModuleOp"> {
  let summary = "Split the work over kernel blocks and emit the aclcpu kernel entry point";
  let description = [{
    Runs on bufferized functions marked `aclop.kernel = "<name>"` whose last two arguments are
    the block index and block count. Every top-level `scf.parallel` gets its first non-unit
    dimension divided evenly among the blocks; a function with work that cannot be divided
    runs in block 0 only (`aclop.partitioned = false` records it for the launch recipe, and a
    partitioned function's `aclop.blocks_per_worker` and `aclop.work_per_element` beside). Then
    an `llvm.func @<name>(!llvm.ptr args, !llvm.ptr ctx) -> i32` entry is added that reads each
    buffer's pointer (8 bytes each, in argument order) and its dynamic sizes (an i64 each,
    after all pointers) from the argument block, and the block index and count from the
    `aclcpuBlockCtx`, and calls the function.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def AclopVerifyLowered : Pass<"aclop-verify-lowered", "ModuleOp"> {
  let summary = "Fail loudly if anything is left that is not in the LLVM dialect";
  let description = [{
    The end of the `aclop-to-llvm` pipeline: every op must be in the `llvm` dialect (or be the
    module itself); the first leftover is reported with its name and location.
  }];
}

#endif // ACLOP_PASSES_TD
