#!/usr/bin/env python3
"""The figures issue 39 asks of the benchmarks, from hyperfine's JSON exports of one run.

Usage: ratios.py EXPORT.json... -- NAME=NUMERATOR/DENOMINATOR[<=GOAL|>=GOAL]...
Each row names two commands (by the names given to hyperfine, in any export) and prints
the ratio of their mean times (the first's over the second's), its goal, and whether the
run met it. The load averages at the end say how
busy the machine was: only ratios from one run compare.
"""
import json
import os
import re
import sys


def main(argv):
    split = argv.index("--")
    means = {}
    for path in argv[:split]:
        with open(path) as export:
            for result in json.load(export)["results"]:
                means[result["command"]] = result["mean"]
    for row in argv[split + 1:]:
        match = re.fullmatch(r"(.+?)=(.+)/(.+?)(?:(<=|>=)([0-9.]+))?", row)
        if not match:
            sys.exit(f"ratios.py: not NAME=A/B[<=GOAL]: {row}")
        name, top, bottom, sense, goal = match.groups()
        if top not in means or bottom not in means:
            print(f"{name}: not measured ({top if top not in means else bottom})")
            continue
        ratio = means[top] / means[bottom]
        text = f"{ratio:.1f}x" if ratio >= 10 else f"{ratio:.2f}x"
        verdict = ""
        if goal:
            met = ratio >= float(goal) if sense == ">=" else ratio <= float(goal)
            verdict = f"  (goal {sense} {goal}: {'met' if met else 'NOT met'})"
        print(f"{name}: {text}  [{means[top] * 1000:.1f} ms against {means[bottom] * 1000:.1f} ms]{verdict}")
    print("load average (1, 5, 15 min): %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main(sys.argv[1:])
