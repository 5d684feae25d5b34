#!/usr/bin/env python3
"""Two or more clings binaries on the same command, run in turns: A B, B A, A B, ...

hyperfine runs each command's series one after the other, so a machine that grows busier
or quieter in between (the sandboxes' namespaces of the run before still ending, a build
elsewhere) moves one series and not the other; a difference of 1 ms in 30 then says
nothing. Runs in turns share the machine's moods. Prints each binary's median, mean and
quartiles of the wall time, in milliseconds.

Usage: bench/interleaved.py BINARY[,BINARY...] RUNS [ARGS...]
       (in a course folder; ARGS default to `test check_win`)
Example, the boards of bench/isolation.sh against an earlier revision's build:
       cd "$boards" && python3 bench/interleaved.py /tmp/before,target/release/clings 150
"""
import os
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    binaries = argv[0].split(",")
    runs = int(argv[1])
    args = argv[2:] or ["test", "check_win"]
    times = {binary: [] for binary in binaries}

    def run(binary):
        started = time.perf_counter()
        subprocess.run([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return (time.perf_counter() - started) * 1000

    # Warm: every build made, every sandbox probe remembered.
    for binary in binaries:
        for _ in range(3):
            run(binary)
    for turn in range(runs):
        order = binaries if turn % 2 == 0 else binaries[::-1]
        for binary in order:
            times[binary].append(run(binary))
    for binary in binaries:
        series = sorted(times[binary])
        print(
            f"{binary}: median {statistics.median(series):.2f} ms, "
            f"mean {statistics.mean(series):.2f}, "
            f"quartiles {series[len(series) // 4]:.2f} to {series[3 * len(series) // 4]:.2f} "
            f"({runs} runs)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
