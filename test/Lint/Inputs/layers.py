#!/usr/bin/env python3
"""Checks that hk's libraries form the layers docs/Style.md#layers draws.

Each layer is a set of folders (include/HK/<X> and lib/<X>, or a file of
them) and the layers it builds on directly. The table must be a DAG; then
every `#include "HK/..."` of a layer's sources must name its own layer or
one below it, every LINK_LIBS of its add_hk_library one below it, and an
IR-free layer (the runtime and what it stands on) includes no MLIR header
but mlir/Support's and links no MLIR library but MLIRSupport.

Usage: layers.py <source root>. Prints one line per violation and exits 1
when there is any.
"""

import os
import re
import sys

# layer: (paths below the root, layers it builds on, IR-free)
LAYERS = {
    "Utils": (["include/HK/Dialect/HK/Utils", "lib/Dialect/HK/Utils"], [],
              True),
    "Isa": (["include/HK/Isa", "lib/Isa"], [], True),
    "Report": (["include/HK/Report", "lib/Report"], [], True),
    "Target": (["include/HK/Target", "lib/Target"], ["Utils"], True),
    "KernelAbi": (["include/HK/KernelAbi", "lib/KernelAbi"], ["Utils"], True),
    "Runtime": (["include/HK/Runtime", "lib/Runtime"], ["Target"], True),
    "Exec": (["include/HK/Exec", "lib/Exec"], ["Isa", "Report", "Runtime"],
             True),
    "Perf": (["include/HK/Perf", "lib/Perf"], ["Isa"], True),
    "PerfKernel": (["include/HK/Perf/KernelMode.h", "lib/Perf/Kernel"],
                   ["Perf", "KernelAbi", "Report", "Target"], True),
    "ToolSupport": (["include/HK/Tools", "lib/Tools"], [], False),
    "Dialect": (["include/HK/Dialect/HK/IR", "lib/Dialect/HK/IR"], ["Target"],
                False),
    "Analysis": (["include/HK/Dialect/HK/Analysis", "lib/Dialect/HK/Analysis"],
                 ["Dialect", "KernelAbi"], False),
    "Transforms": (["include/HK/Dialect/HK/Transforms",
                    "lib/Dialect/HK/Transforms"], ["Analysis"], False),
    "Conversion": (["include/HK/Conversion", "lib/Conversion/HKToAMDGPU"],
                   ["Dialect"], False),
    "Kernels": (["include/HK/Kernels", "lib/Kernels"], ["Dialect"], False),
    "Pipelines": (["include/HK/Pipelines", "lib/Pipelines"],
                  ["Conversion", "Transforms", "Kernels"], False),
    "LinalgToKernels": (["lib/Conversion/LinalgToKernels"],
                        ["Conversion", "Pipelines"], False),
    "Registration": (["include/HK/InitAllDialects.h",
                      "include/HK/InitAllPasses.h", "lib/Registration"],
                     ["LinalgToKernels"], False),
    "Harness": (["include/HK/Harness", "lib/Harness"],
                ["Registration", "Exec", "ToolSupport"], False),
    "CAPI": (["include/HK-c", "lib/CAPI"], ["Registration"], False),
}

SOURCE = re.compile(r"\.(h|cpp|def|inc)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LIBRARY = re.compile(r"add_hk_library\((\w+)(.*?)\)", re.S)


def layer_of(path):
    """The layer whose longest path holds `path`, or None."""
    best, length = None, -1
    for name, (paths, _, _) in LAYERS.items():
        for p in paths:
            if (path == p or path.startswith(p + "/")) and len(p) > length:
                best, length = name, len(p)
    return best


def below():
    """Each layer's transitive dependencies; exits if the table has a cycle."""
    closure = {}

    def visit(name, stack):
        if name in closure:
            return closure[name]
        if name in stack:
            sys.exit("layers.py: the layer table has a cycle: " +
                     " -> ".join(stack + [name]))
        deps = set()
        for dep in LAYERS[name][1]:
            deps |= {dep} | visit(dep, stack + [name])
        closure[name] = deps
        return deps

    for name in LAYERS:
        visit(name, [])
    return closure


def main(root):
    closure = below()
    errors = []
    libraries = {}  # library -> (layer, LINK_LIBS, MLIR_LIBS, CMakeLists)
    for top in ("include", "lib"):
        for directory, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                path = os.path.relpath(os.path.join(directory, f), root)
                layer = layer_of(path)
                if f == "CMakeLists.txt":
                    text = open(os.path.join(root, path)).read()
                    for m in LIBRARY.finditer(text):
                        words = m.group(2).split()
                        groups, key = {}, None
                        for w in words:
                            if w in ("LINK_LIBS", "MLIR_LIBS", "DEPENDS"):
                                key = w
                            elif key:
                                groups.setdefault(key, []).append(w)
                        libraries[m.group(1)] = (
                            layer, groups.get("LINK_LIBS", []),
                            groups.get("MLIR_LIBS", []), path)
                    continue
                if not SOURCE.search(f):
                    continue
                if layer is None:
                    errors.append(f"{path}: in no layer of layers.py")
                    continue
                irFree = LAYERS[layer][2]
                text = open(os.path.join(root, path)).read()
                for header in INCLUDE.findall(text):
                    if header.startswith("HK/") or header.startswith("HK-c/"):
                        target = layer_of("include/" + header)
                        if target is None or (target != layer and
                                              target not in closure[layer]):
                            errors.append(f"{path}: {layer} includes "
                                          f"{header} ({target})")
                    elif (header.startswith("mlir/") and irFree and
                          not header.startswith("mlir/Support/")):
                        errors.append(f"{path}: {layer} is IR-free but "
                                      f"includes {header}")
    for name, (layer, links, mlirLibs, path) in sorted(libraries.items()):
        if layer is None:
            errors.append(f"{path}: {name} is in no layer of layers.py")
            continue
        for dep in links:
            if dep not in libraries:
                continue
            target = libraries[dep][0]
            if target != layer and target not in closure[layer]:
                errors.append(f"{path}: {name} ({layer}) links {dep} "
                              f"({target})")
        if LAYERS[layer][2]:
            for dep in mlirLibs:
                if dep != "MLIRSupport":
                    errors.append(f"{path}: {name} ({layer}) is IR-free but "
                                  f"links {dep}")
    for e in errors:
        print(e)
    print(f"{len(LAYERS)} layers, {len(libraries)} libraries, "
          f"{len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
