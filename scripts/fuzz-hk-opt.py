#!/usr/bin/env python3
"""Mutation fuzzing of hk-opt: random token edits of an input file, each run
through verification, convert-hk-to-amdgpu and the binary pipeline. Any exit
other than 0 (success) or 1 (diagnosed error) is a crash; the input is kept
as crashN.mlir in the current directory.

    scripts/fuzz-hk-opt.py <input.mlir> [seed] [iterations]
"""
import os, random, subprocess, sys

HK_OPT = os.environ.get('HK_OPT', os.path.join(os.path.dirname(__file__), '..', 'build', 'bin', 'hk-opt'))
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
src = open(sys.argv[1]).read()
toks = src.split(' ')
crashes = 0
for it in range(int(sys.argv[3]) if len(sys.argv) > 3 else 200):
    t = list(toks)
    for _ in range(random.randint(1, 3)):
        i = random.randrange(len(t))
        op = random.random()
        if op < 0.3: del t[i]
        elif op < 0.6: t[i] = random.choice(toks)
        elif op < 0.8: t[i] = str(random.choice([0, 1, -1, 3, 7, 1<<40, 65537]))
        else: t.insert(i, random.choice(toks))
    text = ' '.join(t)
    for args in (['--verify-each'], ['--convert-hk-to-amdgpu'], ['--hk-to-binary-pipeline=chip=gfx950']):
        try:
            p = subprocess.run([HK_OPT, '-', '-o', '/dev/null'] + args, input=text.encode(), capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            crashes += 1
            open(f'crash{crashes}.mlir', 'w').write(text)
            print('HANG', args)
            continue
        if p.returncode < 0 or p.returncode > 1:
            crashes += 1
            open(f'crash{crashes}.mlir', 'w').write(text)
            print('CRASH', args, p.returncode, p.stderr.decode()[-300:])
print('crashes', crashes)
