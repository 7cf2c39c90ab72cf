# find_package(aclcpu): imported targets for an installed aclcpu (see AclcpuInstall.cmake):
# aclcpu::ascendcl, aclcpu::acl_cblas, aclcpu::acl_op_compiler (with the ACL headers), and
# aclcpu::kernel (the kernel ABI header, for hand-written kernels).
get_filename_component(_aclcpu_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(aclcpu_INCLUDE_DIRS "${_aclcpu_prefix}/runtime/include")
set(aclcpu_LIBRARY_DIR "${_aclcpu_prefix}/runtime/lib64")
foreach(_aclcpu_library ascendcl acl_cblas acl_op_compiler)
  if(NOT TARGET aclcpu::${_aclcpu_library})
    add_library(aclcpu::${_aclcpu_library} SHARED IMPORTED)
    set_target_properties(aclcpu::${_aclcpu_library} PROPERTIES
      IMPORTED_LOCATION "${aclcpu_LIBRARY_DIR}/lib${_aclcpu_library}.so"
      INTERFACE_INCLUDE_DIRECTORIES "${aclcpu_INCLUDE_DIRS}")
  endif()
endforeach()
if(NOT TARGET aclcpu::kernel)
  add_library(aclcpu::kernel INTERFACE IMPORTED)
  set_target_properties(aclcpu::kernel PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_aclcpu_prefix}/include")
endif()
set(ACLCPU_ATC "${_aclcpu_prefix}/bin/atc")
set(aclcpu_FOUND TRUE)
unset(_aclcpu_prefix)
