# Source this file (`source <prefix>/set_env.sh`) to use aclcpu the way the Ascend toolkit's
# set_env.sh is used: build files then find headers at ${DDK_PATH}/runtime/include and
# libraries at ${NPU_HOST_LIB}, and programs find libascendcl.so and atc.
if [ -n "${BASH_SOURCE:-}" ]; then
  aclcpu_home="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
else
  aclcpu_home="$(cd "$(dirname "$0")" && pwd)"
fi
export ASCEND_TOOLKIT_HOME="$aclcpu_home"
export ASCEND_HOME_PATH="$aclcpu_home"
export DDK_PATH="$aclcpu_home"
export NPU_HOST_LIB="$aclcpu_home/runtime/lib64/stub"
export PATH="$aclcpu_home/bin${PATH:+:$PATH}"
export LD_LIBRARY_PATH="$aclcpu_home/runtime/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CMAKE_PREFIX_PATH="$aclcpu_home${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
unset aclcpu_home
