# `cmake --install` lays out a CANN-style toolkit, so that build files written for the Ascend
# toolkit find headers and libraries where they look for them:
#   <prefix>/runtime/include/acl/...         headers (also via include/acl and compiler/include)
#   <prefix>/runtime/lib64/                  libascendcl.so, libacl_cblas.so, libacl_op_compiler.so
#   <prefix>/runtime/lib64/stub/             links to them (NPU_HOST_LIB; also compiler/lib64/stub)
#   <prefix>/bin/atc, <prefix>/bin/op-opt    the offline compiler and the dialect driver
#   <prefix>/include/aclcpu/kernel.h         the kernel ABI for hand-written kernels
#   <prefix>/lib/cmake/aclcpu/               find_package(aclcpu): aclcpu::ascendcl, ...
#   <prefix>/set_env.sh                      ASCEND_TOOLKIT_HOME, DDK_PATH, NPU_HOST_LIB, PATH, ...
set(ACLCPU_LIBRARIES ascendcl acl_cblas acl_op_compiler)

# Installed libraries find each other ($ORIGIN) and LLVM/MLIR (their link directories).
set_target_properties(${ACLCPU_LIBRARIES} PROPERTIES INSTALL_RPATH "\$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(atc op-opt PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)

install(DIRECTORY include/acl DESTINATION runtime/include)
install(FILES include/aclcpu/kernel.h DESTINATION include/aclcpu)
install(TARGETS ${ACLCPU_LIBRARIES} LIBRARY DESTINATION runtime/lib64)
install(TARGETS atc op-opt RUNTIME DESTINATION bin)
install(FILES cmake/aclcpuConfig.cmake DESTINATION lib/cmake/aclcpu)
install(PROGRAMS cmake/set_env.sh DESTINATION .)

# The other places CANN build files look, as relative links into runtime/.
set(ACLCPU_INSTALL_LINKS
  "../runtime/include/acl:include/acl"
  "../runtime/include:compiler/include"
  "../../runtime/lib64/stub:compiler/lib64/stub")
foreach(library ${ACLCPU_LIBRARIES})
  list(APPEND ACLCPU_INSTALL_LINKS "../lib${library}.so:runtime/lib64/stub/lib${library}.so")
endforeach()
install(CODE "
  set(root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  foreach(link ${ACLCPU_INSTALL_LINKS})
    string(REPLACE \":\" \";\" parts \"\${link}\")
    list(GET parts 0 target)
    list(GET parts 1 name)
    get_filename_component(folder \"\${root}/\${name}\" DIRECTORY)
    file(MAKE_DIRECTORY \"\${folder}\")
    file(REMOVE \"\${root}/\${name}\")
    file(CREATE_LINK \"\${target}\" \"\${root}/\${name}\" SYMBOLIC)
    message(STATUS \"Installing: \${root}/\${name} -> \${target}\")
  endforeach()
")
