# -*- Python -*-
# lit configuration of the hk test suite.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "hk"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hk_obj_root, "test")
# Unit/ is its own suite (GoogleTest format, found through its site config
# in the build tree); Embedding/consumer is the
# source of the out-of-tree consumer, not tests.
config.excludes = ["consumer", "Inputs", "MockRocm", "lit.cfg.py",
                   "CMakeLists.txt"]

llvm_config.use_default_substitutions()
config.substitutions.append(("%hk_src_root", config.hk_src_root))
config.substitutions.append(("%hk_obj_root", config.hk_obj_root))
config.substitutions.append(("%hk_mlir_dir", config.hk_mlir_dir))
# The stand-in libamdhip64.so and librocblas.so (test/MockRocm).
config.substitutions.append(("%mock_rocm_lib", config.hk_mock_rocm_lib_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%generator", config.cmake_generator))
config.substitutions.append(("%cxx_flags", config.cxx_flags))
config.substitutions.append(("%exe_linker_flags", config.exe_linker_flags))
config.substitutions.append(("%cxx", config.cxx_compiler))
# The consumer build reuses ccache when the project found it.
config.substitutions.append(("%ccache", config.ccache or ""))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.hk_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["hk-opt", "hk-lsp-server", "hk-compile", "hk-report", "hk-run", "hk-gen",
     "hk-capi-test", "llvm-readelf", "hk-perf"],
    tool_dirs)

# Real-GPU tests run only where a HIP runtime and the GPU are present:
# features hip-gpu and hip-<chip> (from the KFD topology).
def detect_hip_chips():
    import ctypes, glob
    try:
        ctypes.CDLL("libamdhip64.so")
    except OSError:
        return []
    versions = {90500: "gfx950", 120001: "gfx1201"}
    chips = []
    for path in glob.glob("/sys/class/kfd/kfd/topology/nodes/*/properties"):
        try:
            for line in open(path):
                key, _, value = line.partition(" ")
                if key == "gfx_target_version" and int(value) in versions:
                    chips.append(versions[int(value)])
        except (OSError, ValueError):
            pass
    return chips

hip_chips = detect_hip_chips()
if hip_chips:
    config.available_features.add("hip-gpu")
    for chip in hip_chips:
        config.available_features.add("hip-" + chip)

# The suite's second run, under AddressSanitizer (scripts/sanitize.sh):
# feature asan. It checks hk's memory on each code path once: a RUN line
# that repeats a path its file already ran (the same kernel at another
# shape, format, routing or schedule variant, and the kernels broken on
# purpose, whose point is the check, not hk's memory) is written
# `%if !asan %{ ... %}` and runs in the plain suite only; a file that
# only repeats is UNSUPPORTED: asan.
if "-fsanitize=address" in getattr(config, "cxx_flags", ""):
    config.available_features.add("asan")
