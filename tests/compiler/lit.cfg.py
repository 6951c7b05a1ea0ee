# lit configuration of the poc++ compiler tests.
import os
import lit.formats

config.name = "poc++"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp"]
config.excludes = ["Inputs", "cmake-project", "cmake-plain", "compare"]
config.substitutions.append(("%pocxx", config.pocxx))
# The Clang poc++ compiles with: plain C++ must come out as it makes it.
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
# The generated code contains the test's own comments; drop the FileCheck
# directives from it so that they cannot match themselves.
config.substitutions.append(("%nochecks", "grep -v -e '// CHECK' -e '// RUN'"))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
