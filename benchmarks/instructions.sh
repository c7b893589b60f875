#!/bin/bash
# Instructions a game under valgrind (cachegrind): the speed figure that does not move with the host's load.
#
#   bash benchmarks/instructions.sh [TREE] [RANDOM_GAMES] [GREEDY_GAMES]
#
# Prints the instructions of one 4-player random game and of one 2-player greedy game of the checkout TREE (default:
# this one), each the difference between a run that plays the games and one that only loads the content, so the
# load is not counted. Deterministic: fixed hash seed, no address randomisation, no validation cache, bytecode
# compiled first. Compare two commits by running it on a worktree of each (`git worktree add /tmp/old <commit>`).
# Needs valgrind (`apt install valgrind`); a few minutes of CPU.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "${1:-$here}" && pwd)
random_games=${2:-40}
greedy_games=${3:-6}
py=${PYTHON:-$here/.venv/bin/python}
cd "$tree"
# The tree's own code, whatever the venv's editable install points at: `kcd` (interpreter/ under its import name,
# first on the path) for a checkout since the rename, `interpreter` for an older one.
shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
ln -s "$tree/interpreter" "$shim/kcd"
export KCD_NO_CACHE=1 PYTHONHASHSEED=0 PYTHONPATH="$shim:$tree"
unset PYTHONDONTWRITEBYTECODE
"$py" -m compileall -q interpreter benchmarks >/dev/null
# (an older checkout's benchmark may stop with an error after its load when asked for 0 games: still counted)
refs() { { setarch -R valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$py" "$@" 2>&1 || true; } \
           | awk '/I *refs/ {gsub(",", "", $4); print $4}'; }
a=$(refs benchmarks/bench_engine.py --games "$random_games")
b=$(refs benchmarks/bench_engine.py --games 0)
c=$(refs benchmarks/bench_greedy.py --games "$greedy_games" --jobs 1)
d=$(refs benchmarks/bench_greedy.py --games 0 --jobs 1)
echo "$tree: $(( (a - b) / random_games / 1000000 )).$(( (a - b) / random_games / 100000 % 10 )) M instructions a 4-player random game ($random_games games), $(( (c - d) / greedy_games / 1000000 )) M a 2-player greedy game ($greedy_games games)"
