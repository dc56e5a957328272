"""Runs a command, prints what it wrote (stderr, then stdout) and exits 0 if
its exit status is STATUS, 1 otherwise (lit's `not` accepts any failure).
Test helper:  exit_status.py 2 hk-run ... | FileCheck ...
"""
import subprocess, sys

want = int(sys.argv[1])
run = subprocess.run(sys.argv[2:], capture_output=True, text=True)
sys.stdout.write(run.stderr + run.stdout)
if run.returncode != want:
    sys.stdout.write("exit status %d, expected %d\n" % (run.returncode, want))
    sys.exit(1)
