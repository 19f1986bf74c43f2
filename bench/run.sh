#!/bin/sh
# bench/run.sh HERALD DATADIR - `make bench`: the speed of full validation.
#
# For every game herald knows: generate a corpus with `herald gen` (fixed
# seeds; BENCH_GAMES games, 100000 by default), then time, in the same run,
# a plain `cat` of the corpus and `herald check -q` of it with -j 1 and -j 2,
# and print games/s, actions/s, MB/s and peak resident size.  Nothing here is
# a pass/fail test: the figures go into the notes of the work they measure.
set -eu
herald=${1:?usage: run.sh HERALD DATADIR}
export HERALD_DATA_PATH=${2:?usage: run.sh HERALD DATADIR}
games_per_corpus=${BENCH_GAMES:-100000}
dir=${BENCH_DIR:-$(mktemp -d)}
keep=${BENCH_KEEP:-no}
[ "$keep" = yes ] || trap 'rm -rf "$dir"' EXIT INT TERM
here=$(cd "$(dirname "$0")" && pwd)

echo "herald bench: $games_per_corpus games per corpus, in $dir"
for game in $("$herald" games --ids); do
	corpus="$dir/$game.hgn"
	if [ ! -s "$corpus" ]; then
		echo "generating $game ..."
		"$herald" gen --game "$game" --seed "bench-$game" --count "$games_per_corpus" -o "$corpus"
	fi
	python3 "$here/measure.py" "$game" "$corpus" "$herald"
done
