/* aclcpu kernel ABI: how a CPU kernel is called by the aclcpu runtime.
 *
 * Versioned like a file format: a change to anything below bumps ACLCPU_KERNEL_ABI_VERSION.
 * This header is standalone (C99 or C++14; no other aclcpu header) so kernels build with a
 * plain `g++ -O2 -c -fPIC -I<prefix>/include kernel.cpp -o kernel.o`.
 *
 * Entry point: extern "C" int32_t name(const void *args, const aclcpuBlockCtx *ctx);
 *   args  the packed argument block exactly as aclrtKernelArgsAppend builds it: parameters in
 *         append order, each at the next offset aligned to min(8, the largest power of two that
 *         divides its size); a placeholder is an 8-byte pointer slot the runtime fills at launch.
 *   ctx   this block's index and count, the worker running it, and per-worker scratch memory.
 *   A non-zero return is a kernel fault: the stream reports ACL_ERROR_RT_AICORE_EXCEPTION at
 *   the next synchronize and the launch's remaining blocks are skipped.
 * Kernels must not have global constructors or thread-local variables (.o files are linked by
 * a JIT without a C++ runtime platform); the runtime rejects .o files with constructors. */
#ifndef ACLCPU_KERNEL_H_
#define ACLCPU_KERNEL_H_

#include <stddef.h>
#include <stdint.h>

#define ACLCPU_KERNEL_ABI_VERSION 1u

typedef struct aclcpuBlockCtx {
    uint32_t abiVersion;  /* ACLCPU_KERNEL_ABI_VERSION of the runtime calling the kernel */
    uint32_t blockIdx;    /* [0, blockNum) */
    uint32_t blockNum;    /* numBlocks of the launch */
    uint32_t workerIdx;   /* distinct for blocks that run at the same time in one launch */
    uint32_t workerNum;   /* upper bound of workerIdx + 1 */
    uint32_t reserved0;
    void *scratch;        /* per-worker memory, 64-byte aligned (ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE) */
    uint64_t scratchSize; /* bytes at scratch */
    uint64_t reserved[3];
} aclcpuBlockCtx;

typedef int32_t (*aclcpuKernelEntry)(const void *args, const aclcpuBlockCtx *ctx);

/* Layout checks (C99 has no static_assert). */
typedef char aclcpuBlockCtxSizeCheck[(sizeof(aclcpuBlockCtx) == 64) ? 1 : -1];
typedef char aclcpuBlockCtxScratchOffsetCheck[(offsetof(aclcpuBlockCtx, scratch) == 24) ? 1 : -1];

/* A kernel may export `const uint32_t <name>__aclcpu_abi = ACLCPU_KERNEL_ABI_VERSION;` (the
 * ACLCPU_KERNEL macro does); the runtime then refuses it if the version differs from its own. */
#define ACLCPU_KERNEL_ABI_SUFFIX "__aclcpu_abi"

#if defined(__GNUC__)
#define ACLCPU_KERNEL_EXPORT __attribute__((visibility("default")))
#else
#define ACLCPU_KERNEL_EXPORT
#endif

#ifdef __cplusplus
#if __cplusplus < 201402L
#error "ACLCPU_KERNEL needs C++14 or later"
#endif
#include <utility>

namespace aclcpu_kernel_abi {

/* The alignment aclrtKernelArgsAppend gives a parameter of `size` bytes. */
constexpr size_t paramAlignment(size_t size) {
    size_t alignment = 1;
    while (alignment < 8 && size % (alignment * 2) == 0) alignment *= 2;
    return alignment;
}

template <typename... Params>
constexpr size_t paramOffset(size_t index) {
    const size_t sizes[] = {sizeof(Params)..., 0};
    size_t at = 0;
    for (size_t i = 0;; ++i) {
        size_t alignment = paramAlignment(sizes[i]);
        at = (at + alignment - 1) / alignment * alignment;
        if (i == index) return at;
        at += sizes[i];
    }
}

template <typename T>
inline T loadParam(const void *args, size_t offset) {
    T value;
    __builtin_memcpy(&value, static_cast<const char *>(args) + offset, sizeof(T));
    return value;
}

template <typename... Params, size_t... Index>
inline void callBody(void (*body)(const aclcpuBlockCtx *, Params...), const void *args, const aclcpuBlockCtx *ctx,
                     std::index_sequence<Index...>, int32_t &status) {
    body(ctx, loadParam<Params>(args, paramOffset<Params...>(Index))...);
    status = 0;
}

template <typename... Params, size_t... Index>
inline void callBody(int32_t (*body)(const aclcpuBlockCtx *, Params...), const void *args,
                     const aclcpuBlockCtx *ctx, std::index_sequence<Index...>, int32_t &status) {
    status = body(ctx, loadParam<Params>(args, paramOffset<Params...>(Index))...);
}

template <typename Result, typename... Params>
inline int32_t invoke(Result (*body)(const aclcpuBlockCtx *, Params...), const void *args,
                      const aclcpuBlockCtx *ctx) {
    int32_t status = 0;
    callBody(body, args, ctx, std::index_sequence_for<Params...>{}, status);
    return status;
}

}  // namespace aclcpu_kernel_abi

/* Defines the entry point `name` with typed parameters, e.g.
 *   ACLCPU_KERNEL(add_custom, float *x, float *y, float *z, uint32_t n) {
 *     for (uint32_t i = GetBlockIdx(); i < n; i += GetBlockNum()) z[i] = x[i] + y[i];
 *   }
 * ACLCPU_KERNEL_WITH_STATUS is the same with an int32_t body result (non-zero = fault). */
#define ACLCPU_KERNEL_DEFINE(result, name, ...)                                                   \
    static result name##__aclcpu_body(const aclcpuBlockCtx *aclcpu_block_ctx, ##__VA_ARGS__);    \
    extern "C" ACLCPU_KERNEL_EXPORT const uint32_t name##__aclcpu_abi = ACLCPU_KERNEL_ABI_VERSION; \
    extern "C" ACLCPU_KERNEL_EXPORT int32_t name(const void *args, const aclcpuBlockCtx *ctx) {  \
        return ::aclcpu_kernel_abi::invoke(name##__aclcpu_body, args, ctx);                      \
    }                                                                                             \
    static result name##__aclcpu_body(__attribute__((unused)) const aclcpuBlockCtx *aclcpu_block_ctx, ##__VA_ARGS__)
#define ACLCPU_KERNEL(...) ACLCPU_KERNEL_DEFINE(void, __VA_ARGS__)
#define ACLCPU_KERNEL_WITH_STATUS(...) ACLCPU_KERNEL_DEFINE(int32_t, __VA_ARGS__)

/* Ascend C style accessors, valid inside an ACLCPU_KERNEL body. */
#define GetBlockIdx() (aclcpu_block_ctx->blockIdx)
#define GetBlockNum() (aclcpu_block_ctx->blockNum)
#define GetWorkerIdx() (aclcpu_block_ctx->workerIdx)
#define GetScratch() (aclcpu_block_ctx->scratch)
#define GetScratchSize() (aclcpu_block_ctx->scratchSize)

#ifndef __gm__
#define __gm__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t *
#endif

#endif /* __cplusplus */

#endif /* ACLCPU_KERNEL_H_ */
