/* CHECK(call): exits with the call, its error code and aclGetRecentErrMsg() when an ACL call
 * fails. Shared by the examples (C and C++). */
#ifndef ACLCPU_EXAMPLES_ACL_CHECK_H
#define ACLCPU_EXAMPLES_ACL_CHECK_H

#include "acl/acl.h"

#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    aclError status_ = (call);                                                           \
    if (status_ != ACL_SUCCESS) {                                                        \
      const char *message_ = aclGetRecentErrMsg();                                       \
      fprintf(stderr, "%s failed: %d (%s)\n", #call, status_, message_ ? message_ : ""); \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

#endif
