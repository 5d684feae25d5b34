#!/usr/bin/env python3
"""Two players against each other through the referee's battle mode, as clings would route them.

    bench/battle_router.py REFEREE CASE.in FEEDBACK_DIR -- PLAYER_A_CMD... -- PLAYER_B_CMD...

A plays X, B plays O. The referee's stdout carries "to A <text>" (a line for A's stdin) and
"close A" (close A's stdin); its stdin gets "A <text>" for each line A writes and "eof A" when
A's stdout ends (protocol in referees/README.md). Once the referee has exited, a player still
running gets 1 s, then is killed (clings stops it the same way). Prints the referee's status
and result.txt; exits with the referee's status.
"""
import os
import subprocess
import sys
import threading

TAGS = ("A", "B")


def main():
    args = sys.argv[1:]
    if len(args) < 7 or args[3] != "--" or "--" not in args[5:]:
        sys.exit("usage: battle_router.py REFEREE CASE.in FEEDBACK_DIR -- PLAYER_A... -- PLAYER_B...")
    referee, case_in, feedback = args[:3]
    rest = args[4:]
    split = rest.index("--")
    commands = {"A": rest[:split], "B": rest[split + 1:]}
    if not commands["A"] or not commands["B"]:
        sys.exit("a player's command is empty")
    os.makedirs(feedback, exist_ok=True)
    answer = case_in[:-3] + ".out" if case_in.endswith(".in") else os.devnull
    if not os.path.exists(answer):
        answer = os.devnull

    ref = subprocess.Popen([referee, case_in, answer, feedback],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    players = {tag: subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
               for tag, cmd in commands.items()}
    to_referee = threading.Lock()

    def tell_referee(data):
        with to_referee:
            try:
                ref.stdin.write(data)
                ref.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass  # the referee has ended: nothing more to judge

    # One thread a player: each line it writes goes to the referee, tagged; then its eof.
    def pump(tag):
        out = players[tag].stdout
        while True:
            line = out.readline()
            if not line:
                break
            if line.endswith(b"\n"):
                line = line[:-1]
            tell_referee(tag.encode() + b" " + line + b"\n")
        tell_referee(b"eof " + tag.encode() + b"\n")

    pumps = [threading.Thread(target=pump, args=(tag,), daemon=True) for tag in TAGS]
    for thread in pumps:
        thread.start()

    # The referee's commands, in order.
    for command in iter(ref.stdout.readline, b""):
        command = command.rstrip(b"\n")
        words = command.split(b" ", 2)
        tag = words[1].decode(errors="replace") if len(words) > 1 else ""
        if words[0] == b"to" and tag in TAGS and len(words) == 3:
            try:
                players[tag].stdin.write(words[2] + b"\n")
                players[tag].stdin.flush()
            except (BrokenPipeError, ValueError):
                pass  # a player that has gone: the referee hears its eof
        elif words[0] == b"turn" and tag in TAGS and len(words) == 2:
            pass  # both players run here: clings stops the one not to move
        elif words[0] == b"close" and tag in TAGS and len(words) == 2:
            try:
                players[tag].stdin.close()
            except BrokenPipeError:
                pass
        else:
            print("router: the referee said %r" % command, file=sys.stderr)
    status = ref.wait()
    with to_referee:
        try:
            ref.stdin.close()
        except BrokenPipeError:
            pass
    for tag in TAGS:
        player = players[tag]
        try:
            player.wait(timeout=1)
        except subprocess.TimeoutExpired:
            player.kill()
            player.wait()
        if player.stdin and not player.stdin.closed:
            try:
                player.stdin.close()
            except BrokenPipeError:
                pass
    print("referee exit %d; player A exit %s, player B exit %s"
          % (status, players["A"].returncode, players["B"].returncode))
    try:
        with open(os.path.join(feedback, "result.txt")) as result:
            sys.stdout.write(result.read())
    except OSError:
        print("(no result.txt)")
    sys.exit(status)


if __name__ == "__main__":
    main()
