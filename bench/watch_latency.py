#!/usr/bin/env python3
"""Watch mode: the time from saving an exercise file to its new result on screen.

Runs the release `clings` in tmux (a private server, 120x50) on a copy of the Gomoku course,
saves the file the way an editor does (write in place), and polls capture-pane until the new
verdict shows. Saves alternate between a passing and a failing program, so every save changes
what the screen says.

- cold: each save has new content (a counter in a comment), so gcc compiles it;
- warm: the same two contents again and again, both already in the build cache.

Usage: bench/watch_latency.py [SAVES]   (default 9 per exercise and mode; needs tmux)
       bench/watch_latency.py --looping [SAVES]
         check_win loops on every case (bench/looping_check_win.c); the fix is saved as
         soon as the run has started: milliseconds from that save to the fix's result.
Environment: CLINGS, another clings binary to measure (an older revision's), and COURSE,
the checkout whose course files it reads (that revision's: the format changes).
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOOPING = "--looping" in sys.argv[1:]
ARGS = [arg for arg in sys.argv[1:] if arg != "--looping"]
SAVES = int(ARGS[0]) if ARGS else 9
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


def looping(socket, course):
    """Saves of the fix while the looping program's run is under way."""
    path = os.path.join(course, "exercises/check_win.c")
    loop = open(os.path.join(ROOT, "bench/looping_check_win.c")).read()
    fix = open(os.path.join(ROOT, "solutions/check_win.c")).read()
    print(f"{SAVES} saves; milliseconds from saving the fix during a looping run to its result")
    times = []
    for save in range(SAVES):
        with open(path, "w") as file:
            file.write(loop + f"/* loop {time.time_ns()} */\n")
        start = time.monotonic()
        while "Running check_win" not in tmux(socket, "capture-pane", "-p"):
            if time.monotonic() - start > 30:
                sys.exit(f"no run after 30 s:\n{tmux(socket, 'capture-pane', '-p')}")
            time.sleep(0.002)
        time.sleep(0.2)  # well into the run: the program has started looping
        start = time.monotonic()
        with open(path, "w") as file:
            file.write(fix + f"/* fix {time.time_ns()} */\n")
        # The fix's result: passed, and no run under way (the previous fix's result stays
        # on screen while the looping program runs).
        while True:
            screen = tmux(socket, "capture-pane", "-p")
            if "44/44 cases passed" in screen and "Running check_win" not in screen:
                break
            if time.monotonic() - start > 120:
                sys.exit(f"no result after 120 s:\n{tmux(socket, 'capture-pane', '-p')}")
            time.sleep(0.002)
        times.append((time.monotonic() - start) * 1000)
        time.sleep(0.3)
    print(f"median {statistics.median(times):.0f}  min {min(times):.0f}  max {max(times):.0f}")


def main():
    clings = os.environ.get("CLINGS")
    if not clings:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        clings = os.path.join(ROOT, "target/release/clings")
    course = tempfile.mkdtemp(prefix="clings-latency-")
    socket = f"clings-latency-{os.getpid()}"
    socket_path = None
    try:
        course_root = os.environ.get("COURSE", ROOT)
        for item in ["info.toml", "exercises", "skeletons", "solutions", "fixtures"]:
            source = os.path.join(course_root, item)
            if not os.path.exists(source):
                continue
            (shutil.copytree if os.path.isdir(source) else shutil.copy)(
                source, os.path.join(course, item)
            )
        if LOOPING:
            # Watch mode opens on check_win, print_board done.
            shutil.copy(os.path.join(ROOT, "solutions/print_board.c"),
                        os.path.join(course, "exercises/print_board.c"))
            with open(os.path.join(course, ".clings-state.json"), "w") as file:
                file.write('{ "current": "check_win", "done": ["print_board"], "hints": {} }\n')
        tmux(socket, "new-session", "-d", "-x", "120", "-y", "50", "-c", course,
             "-e", "LANG=C", clings)
        socket_path = tmux(socket, "display-message", "-p", "#{socket_path}").strip()
        if LOOPING:
            looping(socket, course)
            return
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
