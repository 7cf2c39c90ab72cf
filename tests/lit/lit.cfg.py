# lit configuration for aclop: every .mlir file under this directory is a test.
import os

import lit.formats

config.name = "aclop"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.aclcpu_binary_dir, "tests", "lit")
config.substitutions.append(("%op-opt", config.op_opt))
config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
