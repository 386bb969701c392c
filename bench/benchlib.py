"""Helpers shared by the Python benchmark drivers (`*_bench.py`)."""
import os
import sys


def die(msg):
    """Stops the benchmark with a message naming the script that failed."""
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    print(f'\n{name}: FAILED: {msg}', file=sys.stderr)
    sys.exit(1)


def loadavg():
    """The 1, 5 and 15 minute load averages, printed beside every timing (a loaded machine
    makes the ratios meaningless)."""
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])
