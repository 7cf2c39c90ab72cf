// One single-operator request as the ACL API describes it (op type, tensor descriptions,
// attributes), resolved against the operator library: the CANN type and its aliases, input
// counts, attribute defaults, and the aclop operator (OpSpec) that implements it.
#pragma once

#include "op_spec.h"
#include "tensor_desc.h"

#include <string>
#include <vector>

namespace aclcpu {

struct ResolvedTensor {
  aclDataType dataType = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> dims;                       // -1 unknown
  std::vector<std::array<int64_t, 2>> ranges;      // per dim; [d, d] for static dims
  bool present = true;                             // false: an absent optional input
  bool unknownRank = false;                        // outputs only: the shape is left to inference
  SharedConstValues constValues;                   // a constant input's values, or null
  // Under ACL_OP_COMPILE_FUZZ (every dim made dynamic): the dims the caller gave, so that an
  // operator that needs some of them static can keep them (keepStatic).
  std::vector<int64_t> givenDims;

  // Makes dim `d` static again at the size the caller gave, if it was made dynamic.
  void keepStatic(size_t d);
};

struct ResolvedRequest {
  std::string opType;  // canonical CANN type (aliases resolved)
  std::vector<ResolvedTensor> inputs, outputs;
  std::map<std::string, OpAttrValue> attributes;  // defaults applied
  OpSpec spec;                                   // the aclop operator computing it
  std::vector<int> kernelInputs;                 // which request inputs the kernel takes, in order

  bool isDynamic() const;
  // Canonical text of everything that selects a kernel: the model store's key.
  std::string signature() const;
};

// Resolves a request; on failure returns an ACL error code with the recent error message set.
aclError resolveRequest(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                        const aclTensorDesc *const outputDesc[], const aclopAttr *attr, bool allDimsDynamic,
                        ResolvedRequest &out, const char *caller);

}  // namespace aclcpu
