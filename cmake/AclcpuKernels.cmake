# Builds CPU kernels the way an application's build would: a plain compiler call against
# include/aclcpu/kernel.h, with none of this project's flags (no sanitizers, no warnings-as-errors).
set(ACLCPU_KERNEL_OUTPUT_DIR ${CMAKE_BINARY_DIR}/kernels)

# aclcpu_kernel_object(<target> <source>): <dir>/<target>.o
function(aclcpu_kernel_object target source)
  set(output ${ACLCPU_KERNEL_OUTPUT_DIR}/${target}.o)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${ACLCPU_KERNEL_OUTPUT_DIR}
    COMMAND ${CMAKE_CXX_COMPILER} -O2 -c -fPIC -I${PROJECT_SOURCE_DIR}/include ${source} -o ${output}
    DEPENDS ${source} ${PROJECT_SOURCE_DIR}/include/aclcpu/kernel.h
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "Compiling CPU kernel ${target}.o")
  add_custom_target(${target}_kernel_object ALL DEPENDS ${output})
endfunction()

# aclcpu_kernel_shared_object(<target> <sources...>): <dir>/<target>.so
function(aclcpu_kernel_shared_object target)
  set(output ${ACLCPU_KERNEL_OUTPUT_DIR}/${target}.so)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${ACLCPU_KERNEL_OUTPUT_DIR}
    COMMAND ${CMAKE_CXX_COMPILER} -O2 -shared -fPIC -I${PROJECT_SOURCE_DIR}/include ${ARGN} -o ${output}
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/include/aclcpu/kernel.h
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "Linking CPU kernels ${target}.so")
  add_custom_target(${target}_kernel_shared_object ALL DEPENDS ${output})
endfunction()
