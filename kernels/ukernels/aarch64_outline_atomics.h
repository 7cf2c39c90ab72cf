// libgcc's outline atomics: on AArch64 GCC compiles every atomic to a call of one of these
// (-moutline-atomics, its default), which picks LSE or exclusive loads at run time. They exist
// only in the static libgcc.a, which no JIT searches, so a g++-compiled kernel's atomics would
// not resolve; the library links its own copies and ukernelSymbols hands them to loaded kernels.
#pragma once

#if defined(__aarch64__)

// X(name) for each helper __aarch64_<name>: cas of 1-16 bytes, the others of 1-8, in every
// memory order libgcc has.
#define ACLCPU_OUTLINE_ATOMIC_ORDERS(X, operation) \
  X(operation##_relax) X(operation##_acq) X(operation##_rel) X(operation##_acq_rel) X(operation##_sync)
#define ACLCPU_OUTLINE_ATOMIC_SIZES(X, operation)                                            \
  ACLCPU_OUTLINE_ATOMIC_ORDERS(X, operation##1) ACLCPU_OUTLINE_ATOMIC_ORDERS(X, operation##2) \
  ACLCPU_OUTLINE_ATOMIC_ORDERS(X, operation##4) ACLCPU_OUTLINE_ATOMIC_ORDERS(X, operation##8)
#define ACLCPU_FOR_EACH_OUTLINE_ATOMIC(X)                                                          \
  ACLCPU_OUTLINE_ATOMIC_SIZES(X, cas) ACLCPU_OUTLINE_ATOMIC_ORDERS(X, cas16)                       \
  ACLCPU_OUTLINE_ATOMIC_SIZES(X, swp) ACLCPU_OUTLINE_ATOMIC_SIZES(X, ldadd)                        \
  ACLCPU_OUTLINE_ATOMIC_SIZES(X, ldclr) ACLCPU_OUTLINE_ATOMIC_SIZES(X, ldeor)                      \
  ACLCPU_OUTLINE_ATOMIC_SIZES(X, ldset)

// Declared only to take their addresses: their argument types vary and no call is made here.
#define ACLCPU_DECLARE_OUTLINE_ATOMIC(name) void __aarch64_##name();
extern "C" {
ACLCPU_FOR_EACH_OUTLINE_ATOMIC(ACLCPU_DECLARE_OUTLINE_ATOMIC)
}
#undef ACLCPU_DECLARE_OUTLINE_ATOMIC

#endif
