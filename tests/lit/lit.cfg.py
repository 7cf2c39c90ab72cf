# lit configuration for aclop: every .mlir file under this directory is a test, and so is every
# .test file (atc's command line); Inputs/ folders hold their data.
import os

import lit.formats

config.name = "aclop"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.aclcpu_binary_dir, "tests", "lit")
config.substitutions.append(("%op-opt", config.op_opt))
config.substitutions.append(("%atc", config.atc))
config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
