#!/usr/bin/env python3
"""Checks the lists of hk's passes in the documentation against hk-opt's.

Reads `hk-opt --help` and takes every registered pass and pipeline of hk
(--hk-*, --convert-hk-*). README.md's table of the tree must name each
(`name`), and the paragraph of README.md describing the pipeline ("The pipeline is:") and
the comment of buildHKToROCDLPipeline in include/HK/Pipelines/Pipelines.h
must name each pass the pipeline can run: every pass but those below.

Usage: pass-lists.py <hk-opt --help output> <source root>. Prints what a
list misses, one line each, then a count.
"""

import re
import sys

# Registered passes hk's pipelines never run, and why.
NOT_IN_PIPELINE = {
    # A report on request (hk-opt, hk-compile --check-bank-conflicts).
    "hk-check-bank-conflicts",
    # Runs on host code, before the pipeline compiles the kernels it outlines.
    "hk-linalg-to-kernels",
}


def main(help_path, root):
    names = sorted(set(re.findall(r"^\s+--((?:hk|convert-hk)-[a-z0-9-]+)\s",
                                  open(help_path).read(), re.M)))
    pipelines = [n for n in names if n.endswith("-pipeline")]
    passes = [n for n in names if n not in pipelines]
    readme = open(f"{root}/README.md").read()
    paragraph = re.search(r"The pipeline is:(.*?)\n\n", readme, re.S)
    header = open(f"{root}/include/HK/Pipelines/Pipelines.h").read()
    comment = re.search(r"((?:///.*\n)+)void buildHKToROCDLPipeline", header)
    missing = []
    table = "\n".join(l for l in readme.splitlines() if l.startswith("|"))
    for name in names:
        if f"`{name}`" not in table:
            missing.append(f"README.md's table of the tree misses {name}")
    for name in passes:
        if name in NOT_IN_PIPELINE:
            continue
        if not paragraph or f"`{name}`" not in paragraph.group(1):
            missing.append(f"README.md's pipeline paragraph misses {name}")
        if not comment or not re.search(rf"(?<![\w-]){re.escape(name)}"
                                        rf"(?![\w-])", comment.group(1)):
            missing.append(f"Pipelines.h's buildHKToROCDLPipeline comment "
                           f"misses {name}")
    for name in pipelines:
        if name not in header:
            missing.append(f"Pipelines.h does not name {name}")
    for unknown in NOT_IN_PIPELINE - set(passes):
        missing.append(f"pass-lists.py names {unknown}, not a registered pass")
    for m in missing:
        print(m)
    print(f"{len(passes)} passes, {len(pipelines)} pipelines; "
          f"{len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
