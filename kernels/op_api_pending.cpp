// Loading offline-compiled .om models (issue 6) is not implemented yet: both entry points fail
// with ACL_ERROR_API_NOT_SUPPORT and set the recent error message.
#include "acl/acl.h"
#include "diagnostics.h"

#define ACLCPU_PENDING() \
  ACLCPU_FAIL(ACL_ERROR_API_NOT_SUPPORT, ".om models are not supported yet in aclcpu (see README)")

extern "C" {
aclError aclopSetModelDir(const char *) { return ACLCPU_PENDING(); }
aclError aclopLoad(const void *, size_t) { return ACLCPU_PENDING(); }
}
