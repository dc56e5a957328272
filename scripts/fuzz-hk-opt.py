#!/usr/bin/env python3
"""Mutation fuzzing of hk-opt: random token edits of an input file, each run
through verification, hk-verify-lds, hk-check-bank-conflicts,
convert-hk-to-amdgpu and the binary pipeline. Any exit
other than 0 (success) or 1 (diagnosed error) is a crash; the input is kept
as crashN.mlir in the current directory.

    scripts/fuzz-hk-opt.py <input.mlir> [seed] [iterations]
"""
import os, random, re, subprocess, sys

HK_OPT = os.environ.get('HK_OPT', os.path.join(os.path.dirname(__file__), '..', 'build', 'bin', 'hk-opt'))
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
src = open(sys.argv[1]).read()
# Tokens split at spaces and punctuation (kept), so a mutation can change a
# single number inside `array<i32: 512, 1, 1>` or a shape.
toks = re.split(r'(\s+|[,<>()\[\]:=x])', src)
words = [i for i, t in enumerate(toks) if t and not re.fullmatch(r'\s+|[,<>()\[\]:=x]', t)]
crashes = 0
for it in range(int(sys.argv[3]) if len(sys.argv) > 3 else 200):
    t = list(toks)
    for _ in range(random.randint(1, 3)):
        i = random.choice(words)
        op = random.random()
        if op < 0.2: t[i] = ''
        elif op < 0.5: t[i] = toks[random.choice(words)]
        else: t[i] = str(random.choice([0, 1, -1, 3, 7, 1<<40, 65537, -256]))
    text = ''.join(t)
    for args in (['--verify-each'], ['--hk-verify-lds'], ['--hk-check-bank-conflicts=max-ways=1'], ['--convert-hk-to-amdgpu'], ['--hk-to-binary-pipeline=chip=gfx950']):
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
