#!/usr/bin/env bash
# Writes a synthetic class of the Gomoku course into DIR: one folder per student with
# the reference solutions, and per student number a mix of correct, wrong (a known-wrong
# program), non-compiling and looping submissions. Used by class.sh and class_report.sh.
# Usage: bench/make_class.sh STUDENTS DIR   (run from the repository's root)
set -euo pipefail
students=$1
class=$2
wrong=(solutions/wrong/*/*.c)
for i in $(seq -w 1 "$students"); do
  dir="$class/student$i/exercises"
  mkdir -p "$dir"
  cp solutions/print_board.c solutions/check_win.c solutions/gomoku.c "$dir"
  case $((10#$i % 10)) in
    0|1|2|3) ;;                                              # correct
    4|5|6)                                                   # one known mistake
      pick=${wrong[$((10#$i % ${#wrong[@]}))]}
      cp "$pick" "$dir/$(basename "$(dirname "$pick")").c" ;;
    7|8)                                                     # does not compile
      sed -i '0,/return 0;/s//return 0/' "$dir/check_win.c" ;;
    9)                                                       # loops at EOF after a draw
      sed -i -e 's/return 0;             \/\* end of input.*/while (1) { }/' \
             -e 's/if (board_full()) {/if (board_full() \&\& turn > 999) {/' "$dir/gomoku.c" ;;
  esac
done
