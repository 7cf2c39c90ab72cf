// Tensor descriptions, data buffers and operator attributes.
#include "runtime_fixture.h"

#include <cstring>

using namespace aclcpu_test;

TEST(TensorDesc, CreateAndQuery) {
  int64_t dims[] = {2, -1, 5};
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_NCHW);
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclGetTensorDescType(desc), ACL_FLOAT16);
  EXPECT_EQ(aclGetTensorDescFormat(desc), ACL_FORMAT_NCHW);
  EXPECT_EQ(aclGetTensorDescNumDims(desc), 3u);
  int64_t dim = 0;
  ASSERT_EQ(aclGetTensorDescDimV2(desc, 1, &dim), ACL_SUCCESS);
  EXPECT_EQ(dim, -1);
  EXPECT_EQ(aclGetTensorDescDimV2(desc, 3, &dim), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetTensorDescDimV2(desc, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetTensorDescElementCount(desc), 0u) << "unknown dims have no element count";
  int64_t range[2];
  ASSERT_EQ(aclGetTensorDescDimRange(desc, 1, 2, range), ACL_SUCCESS);
  EXPECT_EQ(range[0], 0);
  EXPECT_EQ(range[1], -1);
  ASSERT_EQ(aclGetTensorDescDimRange(desc, 2, 2, range), ACL_SUCCESS);
  EXPECT_EQ(range[0], 5);
  EXPECT_EQ(range[1], 5);
  EXPECT_EQ(aclGetTensorDescDimRange(desc, 2, 1, range), ACL_ERROR_INVALID_PARAM);
  int64_t ranges[3][2] = {{2, 2}, {1, 64}, {5, 5}};
  ASSERT_EQ(aclSetTensorShapeRange(desc, 3, ranges), ACL_SUCCESS);
  ASSERT_EQ(aclGetTensorDescDimRange(desc, 1, 2, range), ACL_SUCCESS);
  EXPECT_EQ(range[1], 64);
  EXPECT_EQ(aclSetTensorShapeRange(desc, 2, ranges), ACL_ERROR_INVALID_PARAM) << "one range per dim";
  int64_t bad[3][2] = {{3, 4}, {1, 64}, {5, 5}};
  EXPECT_EQ(aclSetTensorShapeRange(desc, 3, bad), ACL_ERROR_INVALID_PARAM) << "static dim outside its range";
  aclDestroyTensorDesc(desc);

  int64_t shape[] = {3, 4};
  aclTensorDesc *fixed = aclCreateTensorDesc(ACL_INT32, 2, shape, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetTensorDescElementCount(fixed), 12u);
  EXPECT_EQ(aclGetTensorDescSize(fixed), 48u);
  int32_t values[12] = {};
  EXPECT_EQ(aclSetTensorConst(fixed, values, sizeof(values)), ACL_SUCCESS);
  EXPECT_EQ(aclSetTensorConst(fixed, values, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclSetTensorPlaceMent(fixed, ACL_MEMTYPE_HOST), ACL_SUCCESS);
  EXPECT_EQ(aclSetTensorPlaceMent(fixed, static_cast<aclMemType>(9)), ACL_ERROR_INVALID_PARAM);
  aclDestroyTensorDesc(fixed);

  aclTensorDesc *scalar = aclCreateTensorDesc(ACL_FLOAT, 0, nullptr, ACL_FORMAT_ND);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(aclGetTensorDescNumDims(scalar), 0u);
  EXPECT_EQ(aclGetTensorDescSize(scalar), 4u);
  aclDestroyTensorDesc(scalar);

  int64_t unknown[] = {-2};
  aclTensorDesc *anyRank = aclCreateTensorDesc(ACL_FLOAT, 1, unknown, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetTensorDescNumDims(anyRank), static_cast<size_t>(ACL_UNKNOWN_RANK));
  aclDestroyTensorDesc(anyRank);

  // An absent optional input: ACL_DT_UNDEFINED, no dims, ACL_FORMAT_UNDEFINED.
  aclTensorDesc *absent = aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED);
  ASSERT_NE(absent, nullptr);
  aclDestroyTensorDesc(absent);
  aclDestroyTensorDesc(nullptr);
}

TEST(TensorDesc, InvalidDescriptionsAreNull) {
  int64_t dims[] = {2, -3};
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND), nullptr);
  EXPECT_NE(recentError().find("dims[1]"), std::string::npos) << recentError();
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND), nullptr);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND), nullptr);
  EXPECT_EQ(aclCreateTensorDesc(static_cast<aclDataType>(5), 1, dims, ACL_FORMAT_ND), nullptr);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 1, dims, static_cast<aclFormat>(77)), nullptr);
  EXPECT_EQ(aclGetTensorDescType(nullptr), ACL_DT_UNDEFINED);
  EXPECT_EQ(aclGetTensorDescNumDims(nullptr), 0u);
  EXPECT_EQ(aclGetTensorDescSize(nullptr), 0u);
}

TEST(DataBuffer, CreateUpdateDestroy) {
  float data[4];
  aclDataBuffer *buffer = aclCreateDataBuffer(data, sizeof(data));
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), data);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof(data));
  EXPECT_EQ(aclUpdateDataBuffer(buffer, data + 1, 4), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), data + 1);
  EXPECT_EQ(aclUpdateDataBuffer(buffer, nullptr, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  aclDataBuffer *empty = aclCreateDataBuffer(nullptr, 0);  // an absent optional input
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(aclDestroyDataBuffer(empty), ACL_SUCCESS);
  EXPECT_EQ(aclCreateDataBuffer(nullptr, 8), nullptr);
  EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
}

TEST(OpAttr, SettersValidateAndReplace) {
  aclopAttr *attr = aclopCreateAttr();
  ASSERT_NE(attr, nullptr);
  EXPECT_EQ(aclopSetAttrBool(attr, "transpose_a", 1), ACL_SUCCESS);
  EXPECT_EQ(aclopSetAttrBool(attr, "transpose_a", 0), ACL_SUCCESS) << "a later set replaces";
  EXPECT_EQ(aclopSetAttrInt(attr, "dst_type", ACL_FLOAT16), ACL_SUCCESS);
  EXPECT_EQ(aclopSetAttrFloat(attr, "alpha", 0.5f), ACL_SUCCESS);
  EXPECT_EQ(aclopSetAttrString(attr, "data_format", "NHWC"), ACL_SUCCESS);
  EXPECT_EQ(aclopSetAttrDataType(attr, "T", ACL_BF16), ACL_SUCCESS);
  int64_t axes[] = {0, -1};
  EXPECT_EQ(aclopSetAttrListInt(attr, "axes", 2, axes), ACL_SUCCESS);
  float scales[] = {1, 2};
  EXPECT_EQ(aclopSetAttrListFloat(attr, "scales", 2, scales), ACL_SUCCESS);
  uint8_t flags[] = {1, 0, 1};
  EXPECT_EQ(aclopSetAttrListBool(attr, "flags", 3, flags), ACL_SUCCESS);
  const char *names[] = {"a", "b"};
  EXPECT_EQ(aclopSetAttrListString(attr, "names", 2, names), ACL_SUCCESS);
  EXPECT_EQ(aclopSetAttrListInt(attr, "empty", 0, nullptr), ACL_SUCCESS);
  const aclDataType types[] = {ACL_FLOAT, ACL_INT8};
  EXPECT_EQ(aclopSetAttrListDataType(attr, "types", 2, types), ACL_SUCCESS);
  const int64_t first[] = {1, 2}, second[] = {3};
  const int64_t *const lists[] = {first, second, nullptr};
  const int counts[] = {2, 1, 0};
  EXPECT_EQ(aclopSetAttrListListInt(attr, "paddings", 3, counts, lists), ACL_SUCCESS) << "an empty list may be NULL";
  EXPECT_EQ(aclopSetAttrListListInt(attr, "none", 0, nullptr, nullptr), ACL_SUCCESS);

  EXPECT_EQ(aclopSetAttrBool(nullptr, "x", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrBool(attr, nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrBool(attr, "", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrString(attr, "s", nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrListInt(attr, "axes", -1, axes), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrListInt(attr, "axes", 2, nullptr), ACL_ERROR_INVALID_PARAM);
  const char *withNull[] = {"a", nullptr};
  EXPECT_EQ(aclopSetAttrListString(attr, "names", 2, withNull), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrDataType(attr, "T", static_cast<aclDataType>(5)), ACL_ERROR_INVALID_PARAM);
  const aclDataType unknown[] = {ACL_FLOAT, static_cast<aclDataType>(5)};
  EXPECT_EQ(aclopSetAttrListDataType(attr, "types", 2, unknown), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrListDataType(attr, "types", 2, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrListListInt(attr, "paddings", -1, counts, lists), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrListListInt(attr, "paddings", 2, nullptr, lists), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrListListInt(attr, "paddings", 2, counts, nullptr), ACL_ERROR_INVALID_PARAM);
  const int negative[] = {2, -1};
  EXPECT_EQ(aclopSetAttrListListInt(attr, "paddings", 2, negative, lists), ACL_ERROR_INVALID_PARAM);
  const int64_t *const withNullList[] = {first, nullptr};
  EXPECT_EQ(aclopSetAttrListListInt(attr, "paddings", 2, counts, withNullList), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetAttrListListInt(nullptr, "paddings", 1, counts, lists), ACL_ERROR_INVALID_PARAM);
  aclopDestroyAttr(attr);
  aclopDestroyAttr(nullptr);
}
