// Shared steps of the operator entry points: the process-wide compile settings, resolving and
// compiling requests, and the handle type.
#pragma once

#include "model_store.h"
#include "op_request.h"

#include "acl/acl_op_compiler.h"

#include <atomic>
#include <memory>

struct aclopHandle {
  std::shared_ptr<aclcpu::Model> model;
  std::vector<std::vector<int64_t>> inputDims, outputDims;  // the handle's concrete shapes
};

namespace aclcpu {

// aclopSetCompileFlag: ACL_OP_COMPILE_FUZZ compiles every dim as dynamic.
std::atomic<int> &compileFlag();

std::vector<std::vector<int64_t>> tensorDims(const std::vector<ResolvedTensor> &tensors);

// Resolves and compiles (or finds compiled) the request's model: under ACL_OP_COMPILE_FUZZ one
// for every shape. `request` is the concrete request, with the dims a launch of it needs.
aclError compileRequest(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                        const aclTensorDesc *const outputDesc[], const aclopAttr *attr,
                        std::shared_ptr<Model> &model, ResolvedRequest &request, const char *caller);

// Builds a handle around a model for the request's concrete shapes.
aclError makeHandle(std::shared_ptr<Model> model, const ResolvedRequest &request, aclopHandle **handle,
                    const char *caller);

}  // namespace aclcpu
