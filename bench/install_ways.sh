#!/usr/bin/env bash
# Each way's script is expanded by the shell of its run (env -i), not by this one:
# shellcheck disable=SC2016
# Each way a CI job could install the wheel of clings (docs/grading-and-ci.md, the table of
# ways): timed RUNS times each, in a fresh folder, every variable cleared but a PATH of the
# system's folders, pip given the wheel in WHEELS instead of PyPI (PIP_NO_INDEX,
# PIP_FIND_LINKS). pipx and uv are timed where they are installed (UV names the uv binary).
# Prints, per run: the way, its exit status, its seconds.
# Usage: bench/install_ways.sh WHEELS [RUNS]   (WHEELS: a folder holding the .whl; RUNS 3)
set -uo pipefail
wheels=$(cd "$1" && pwd)
runs=${2:-3}
uv=${UV:-$(command -v uv || true)}
system=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
way() {
  local name=$1 script=$2
  for _ in $(seq "$runs"); do
    dir=$(mktemp -d)
    mkdir "$dir/home"
    start=$(date +%s.%N)
    env -i PATH="$system" HOME="$dir/home" LANG=C RUNNER_TEMP="$dir" UV="$uv" \
      PIP_NO_INDEX=1 PIP_FIND_LINKS="$wheels" bash -e -c "$script" >"$dir/log" 2>&1
    status=$?
    end=$(date +%s.%N)
    printf '%s\t%d\t%.2f s\n' "$name" "$status" "$(echo "$end - $start" | bc)"
    rm -rf "$dir"
  done
}
way 'pip --target' 'python3 -m pip install --disable-pip-version-check --target "$RUNNER_TEMP/clings" clings-gomoku'
way 'venv --without-pip, pip --python' 'python3 -m venv --without-pip "$RUNNER_TEMP/clings" && python3 -m pip --python "$RUNNER_TEMP/clings/bin/python" install --disable-pip-version-check clings-gomoku'
way 'venv, its pip' 'python3 -m venv "$RUNNER_TEMP/clings" && "$RUNNER_TEMP/clings/bin/pip" install --disable-pip-version-check clings-gomoku'
way 'pip --user' 'python3 -m pip install --user --disable-pip-version-check clings-gomoku'
if command -v pipx >/dev/null; then
  way pipx 'PIPX_HOME="$RUNNER_TEMP/pipx" PIPX_BIN_DIR="$RUNNER_TEMP/clings/bin" pipx install clings-gomoku'
fi
if [ -n "$uv" ]; then
  way 'uv venv, uv pip' 'export UV_CACHE_DIR="$RUNNER_TEMP/uv-cache"; "$UV" venv -q "$RUNNER_TEMP/clings" && "$UV" pip install -q --python "$RUNNER_TEMP/clings/bin/python" --no-index --find-links "$PIP_FIND_LINKS" clings-gomoku'
fi
