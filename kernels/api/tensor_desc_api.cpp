// aclCreateTensorDesc and friends, aclDataBuffer.
#include "diagnostics.h"
#include "tensor_desc.h"
#include "untrusted_enum.h"

#include <cstring>
#include <new>

using namespace aclcpu;

namespace {

constexpr int kMaxDims = 64;

bool knownFormat(long long format) {
  switch (format) {
    case ACL_FORMAT_UNDEFINED: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND:
    case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_NC1HWC0_C04: case ACL_FORMAT_HWCN:
    case ACL_FORMAT_NDHWC: case ACL_FORMAT_FRACTAL_NZ: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NDC1HWC0:
    case ACL_FRACTAL_Z_3D: case ACL_FORMAT_NC: case ACL_FORMAT_NCL:
      return true;
  }
  return false;
}

}  // namespace

extern "C" aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                              aclFormat format) {
  if (!isKnownDataType(static_cast<aclDataType>(untrustedEnumValue(dataType))))
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dataType %lld is not an aclDataType", untrustedEnumValue(dataType)),
           nullptr;
  if (!knownFormat(untrustedEnumValue(format)))
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "format %lld is not an aclFormat", untrustedEnumValue(format)), nullptr;
  if (numDims < 0 || numDims > kMaxDims)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "numDims %d is outside [0, %d]", numDims, kMaxDims), nullptr;
  if (numDims > 0 && dims == nullptr)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dims is NULL but numDims is %d", numDims), nullptr;
  auto *desc = new (std::nothrow) aclTensorDesc();
  if (desc == nullptr) return ACLCPU_FAIL(ACL_ERROR_BAD_ALLOC, "out of memory"), nullptr;
  desc->dataType = dataType;
  desc->format = format;
  if (numDims == 1 && dims[0] == -2) {
    desc->unknownRank = true;
    return desc;
  }
  for (int i = 0; i < numDims; ++i) {
    if (dims[i] < -1) {
      delete desc;
      return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dims[%d] is %lld; dims are >= 0, -1 (unknown) or {-2} (unknown rank)",
                         i, static_cast<long long>(dims[i])),
             nullptr;
    }
    desc->dims.push_back(dims[i]);
  }
  return desc;
}

extern "C" void aclDestroyTensorDesc(const aclTensorDesc *desc) { delete desc; }

extern "C" aclDataType aclGetTensorDescType(const aclTensorDesc *desc) {
  if (desc == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "desc is NULL"), ACL_DT_UNDEFINED;
  return desc->dataType;
}

extern "C" aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc) {
  if (desc == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "desc is NULL"), ACL_FORMAT_UNDEFINED;
  return desc->format;
}

extern "C" size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) {
  if (desc == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "desc is NULL"), 0;
  return desc->unknownRank ? static_cast<size_t>(ACL_UNKNOWN_RANK) : desc->dims.size();
}

extern "C" size_t aclGetTensorDescElementCount(const aclTensorDesc *desc) {
  if (desc == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "desc is NULL"), 0;
  int64_t count = staticElementCount(*desc);
  return count < 0 ? 0 : static_cast<size_t>(count);
}

extern "C" size_t aclGetTensorDescSize(const aclTensorDesc *desc) {
  if (desc == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "desc is NULL"), 0;
  size_t bytes = 0;  // 0 too when the size overflows
  const size_t elements = aclGetTensorDescElementCount(desc);
  return __builtin_mul_overflow(elements, aclDataTypeSize(desc->dataType), &bytes) ? 0 : bytes;
}

extern "C" aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize) {
  ACLCPU_CHECK_NOT_NULL(desc);
  ACLCPU_CHECK_NOT_NULL(dimSize);
  if (desc->unknownRank) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "the description has unknown rank");
  if (index >= desc->dims.size())
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "index %zu is out of range for %zu dims", index, desc->dims.size());
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

extern "C" aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index, size_t dimRangeNum,
                                             int64_t *dimRange) {
  ACLCPU_CHECK_NOT_NULL(desc);
  ACLCPU_CHECK_NOT_NULL(dimRange);
  if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dimRangeNum %zu is less than %d", dimRangeNum,
                       ACL_TENSOR_SHAPE_RANGE_NUM);
  if (desc->unknownRank || index >= desc->dims.size())
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "index %zu is out of range", index);
  if (index < desc->shapeRange.size()) {
    dimRange[0] = desc->shapeRange[index][0];
    dimRange[1] = desc->shapeRange[index][1];
  } else if (desc->dims[index] >= 0) {
    dimRange[0] = dimRange[1] = desc->dims[index];
  } else {
    dimRange[0] = 0;
    dimRange[1] = -1;  // unbounded
  }
  return ACL_SUCCESS;
}

extern "C" aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
                                           int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  ACLCPU_CHECK_NOT_NULL(desc);
  if (dimsCount > 0 && dimsRange == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dimsRange is NULL");
  if (desc->unknownRank || dimsCount != desc->dims.size())
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dimsCount %zu differs from the %zu dims of the description",
                       dimsCount, desc->dims.size());
  std::vector<std::array<int64_t, 2>> ranges;
  for (size_t i = 0; i < dimsCount; ++i) {
    int64_t lo = dimsRange[i][0], hi = dimsRange[i][1];
    if (lo < 0 || (hi != -1 && hi < lo))
      return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "range %zu [%lld, %lld] is not [lo >= 0, hi >= lo or -1]", i,
                         static_cast<long long>(lo), static_cast<long long>(hi));
    if (desc->dims[i] >= 0 && (desc->dims[i] < lo || (hi != -1 && desc->dims[i] > hi)))
      return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dim %zu is %lld, outside its range [%lld, %lld]", i,
                         static_cast<long long>(desc->dims[i]), static_cast<long long>(lo), static_cast<long long>(hi));
    ranges.push_back({lo, hi});
  }
  desc->shapeRange = std::move(ranges);
  return ACL_SUCCESS;
}

extern "C" aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, size_t length) {
  ACLCPU_CHECK_NOT_NULL(desc);
  ACLCPU_CHECK_NOT_NULL(dataBuffer);
  if (length == 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "length is 0");
  size_t expected = aclGetTensorDescSize(desc);  // 0 for unknown dims or a size that overflows
  if (length != expected)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "length %zu differs from the description's %zu bytes", length, expected);
  // A new object: earlier holders (models, the request memo) keep theirs.
  desc->constValues = std::make_shared<const ConstValues>(dataBuffer, length);
  desc->isConst = true;
  return ACL_SUCCESS;
}

extern "C" aclError aclSetTensorPlaceMent(aclTensorDesc *desc, aclMemType memType) {
  ACLCPU_CHECK_NOT_NULL(desc);
  long long value = untrustedEnumValue(memType);
  if (value < ACL_MEMTYPE_DEVICE || value > ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "memType %lld is not an aclMemType", value);
  desc->placement = memType;
  return ACL_SUCCESS;
}

extern "C" aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  if (data == nullptr && size != 0)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "data is NULL but size is %zu", size), nullptr;
  auto *buffer = new (std::nothrow) aclDataBuffer();
  if (buffer == nullptr) return ACLCPU_FAIL(ACL_ERROR_BAD_ALLOC, "out of memory"), nullptr;
  buffer->data = data;
  buffer->size = size;
  return buffer;
}

extern "C" aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  ACLCPU_CHECK_NOT_NULL(dataBuffer);
  delete dataBuffer;
  return ACL_SUCCESS;
}

extern "C" aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size) {
  ACLCPU_CHECK_NOT_NULL(dataBuffer);
  if (data == nullptr && size != 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "data is NULL but size is %zu", size);
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

extern "C" void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  if (dataBuffer == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL"), nullptr;
  return dataBuffer->data;
}

extern "C" size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
  if (dataBuffer == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL"), 0;
  return dataBuffer->size;
}
