#!/usr/bin/env python3
"""Watch mode: the time from saving an exercise file to its new result on screen.

Runs the release `clings` in tmux (a private server, 120x50) on a copy of the Gomoku course,
saves the file the way an editor does (write in place), and polls capture-pane until the new
verdict shows. Saves alternate between a passing and a failing program, so every save changes
what the screen says.

- cold: each save has new content (a counter in a comment), so gcc compiles it;
- warm: the same two contents again and again, both already in the build cache.

Usage: bench/watch_latency.py [SAVES]   (default 9 per exercise and mode; needs tmux)
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAVES = int(sys.argv[1]) if len(sys.argv) > 1 else 9
# exercise: (passing program, failing program, text when passed, text when failed)
EXERCISES = {
    "print_board": (
        "solutions/print_board.c",
        "exercises/print_board.c",
        "1/1 cases passed",
        "0/1 cases passed",
    ),
    "check_win": (
        "solutions/check_win.c",
        "solutions/wrong/check_win/missing_anti_diagonal.c",
        "44/44 cases passed",
        "cases passed",  # with "44/44" absent
    ),
}


def tmux(socket, *args):
    return subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def shows(screen, wanted, passing):
    if passing:
        return wanted in screen
    return wanted in screen and "44/44 cases passed" not in screen and "1/1 cases passed" not in screen


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    clings = os.path.join(ROOT, "target/release/clings")
    course = tempfile.mkdtemp(prefix="clings-latency-")
    socket = f"clings-latency-{os.getpid()}"
    socket_path = None
    try:
        for item in ["info.toml", "exercises", "solutions", "fixtures"]:
            source = os.path.join(ROOT, item)
            (shutil.copytree if os.path.isdir(source) else shutil.copy)(
                source, os.path.join(course, item)
            )
        tmux(socket, "new-session", "-d", "-x", "120", "-y", "50", "-c", course,
             "-e", "LANG=C", clings)
        socket_path = tmux(socket, "display-message", "-p", "#{socket_path}").strip()
        print(f"{SAVES} saves per row; milliseconds from the write to the verdict on screen")
        print(f"{'exercise':<12} {'mode':<5} {'median':>7} {'min':>6} {'max':>6}")
        for name, (good, bad, passed_text, failed_text) in EXERCISES.items():
            # Show this exercise: it is the current one once the ones before it pass.
            path = os.path.join(course, f"exercises/{name}.c")
            contents = [open(os.path.join(ROOT, good)).read(), open(os.path.join(ROOT, bad)).read()]
            for mode in ["cold", "warm"]:
                times = []
                # Uncounted saves first: one to settle, and for warm one of each content,
                # so both are in the build cache.
                skip = 2 if mode == "warm" else 1
                for save in range(SAVES + skip):
                    passing = save % 2 == 0
                    text = contents[0 if passing else 1]
                    if mode == "cold":
                        text += f"/* save {time.time_ns()} */\n"
                    start = time.monotonic()
                    with open(path, "w") as file:
                        file.write(text)
                    wanted = passed_text if passing else failed_text
                    while not shows(tmux(socket, "capture-pane", "-p"), wanted, passing):
                        if time.monotonic() - start > 30:
                            sys.exit(f"no result after 30 s:\n{tmux(socket, 'capture-pane', '-p')}")
                        time.sleep(0.002)
                    elapsed = (time.monotonic() - start) * 1000
                    if save >= skip:
                        times.append(elapsed)
                    # Let the screen settle: no run pending when the next save comes.
                    time.sleep(0.3)
                print(f"{name:<12} {mode:<5} {statistics.median(times):7.0f} "
                      f"{min(times):6.0f} {max(times):6.0f}")
            # On to the next exercise: `n` works once this one passes.
            with open(path, "w") as file:
                file.write(contents[0])
            time.sleep(0.5)
            tmux(socket, "send-keys", "n")
            time.sleep(0.5)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        # tmux leaves the socket file behind.
        if socket_path and os.path.exists(socket_path):
            os.unlink(socket_path)
        shutil.rmtree(course, ignore_errors=True)


if __name__ == "__main__":
    main()
