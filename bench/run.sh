#!/bin/sh
# bench/run.sh HERALD DATADIR - `make bench`: the speed of full validation.
#
# For every game herald knows: generate a corpus with `herald gen` (fixed
# seeds; BENCH_GAMES games, 100000 by default), then time, in the same run,
# a plain `cat` of the corpus and `herald check -q` of it with -j 1 and -j 2,
# and print games/s, actions/s, MB/s and peak resident size.  Then the
# start-up time (loading a game's YAML data for one small record), and, with
# BENCH_BIG=MB (e.g. 1024), the peak resident size of checking one file of
# that many megabytes of generated games.  Nothing here is a pass/fail test:
# the figures go into the notes of the work they measure.
#
# With PHASES (bench/phases), each corpus is then checked once more by it,
# which times reading and replaying apart.  With MASTER_MOVE
# (bench/master-move), one `herald move` on a game of 200 actions is timed,
# in the library (a session that keeps its data) and as the command: its
# wall-clock time and its processor time (user and system), the figure that
# other work on a shared machine does not inflate.  Both are of herald's own
# binary, not of libtool's wrapper script (./herald in the build tree),
# which runs a shell before herald.
#
# BENCH_DIR keeps the corpora (generated once, reused while they exist);
# BENCH_GAMES shrinks them for a quick look.
set -eu
herald=${1:?usage: run.sh HERALD DATADIR [PHASES [MASTER_MOVE]]}
export HERALD_DATA_PATH=${2:?usage: run.sh HERALD DATADIR [PHASES [MASTER_MOVE]]}
phases=${3:-}
master_move=${4:-}
games_per_corpus=${BENCH_GAMES:-100000}
dir=${BENCH_DIR:-$(mktemp -d)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT INT TERM
mkdir -p "$dir"
here=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

echo "herald bench: $games_per_corpus games per corpus, in $dir, on $jobs processors"
for game in $("$herald" games --ids); do
	corpus="$dir/$game-$games_per_corpus.hgn"
	if [ ! -s "$corpus" ]; then
		echo "generating $game ..."
		# Generation runs on every processor: $jobs slices of the seeds.
		i=0
		while [ "$i" -lt "$jobs" ]; do
			n=$((games_per_corpus / jobs))
			[ "$i" -lt $((games_per_corpus % jobs)) ] && n=$((n + 1))
			"$herald" gen --game "$game" --seed "bench-$game-$i" --count "$n" \
				-o "$corpus.$i" &
			i=$((i + 1))
		done
		wait
		i=0
		: >"$corpus.tmp"
		while [ "$i" -lt "$jobs" ]; do
			[ "$i" -gt 0 ] && echo >>"$corpus.tmp"
			cat "$corpus.$i" >>"$corpus.tmp"
			rm -f "$corpus.$i"
			i=$((i + 1))
		done
		mv "$corpus.tmp" "$corpus"
	fi
	python3 "$here/measure.py" "$game" "$corpus" "$herald"
	if [ -n "$phases" ]; then
		echo "  one core's time, by phase (bench/phases):"
		"$phases" "$corpus" | sed -n 's/^  /    /p'
	fi
done

# Start-up: one small record, best of 20 runs (the run is mostly loading
# and validating the game's YAML data).
echo "start-up (one small record, best of 20 runs):"
for game in $("$herald" games --ids); do
	"$herald" gen --game "$game" --seed "bench-startup" --count 1 -o "$dir/one-$game.hgn"
	python3 - "$herald" "$dir/one-$game.hgn" "$game" <<'EOF'
import os, sys, time
herald, record, game = sys.argv[1:4]
best = None
devnull = os.open(os.devnull, os.O_WRONLY)
for _ in range(20):
    t = time.perf_counter()
    pid = os.posix_spawnp(herald, [herald, "check", "-q", record], os.environ,
                          file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    os.waitpid(pid, 0)
    e = time.perf_counter() - t
    best = e if best is None else min(best, e)
print(f"  {game:24s} {best * 1000:6.2f} ms")
EOF
done

if [ -n "$master_move" ]; then
	echo "herald move (herald-move(1); lock, replay with the secret, append, fsync):"
	"$master_move" "$dir" >"$dir/master-move.out"
	sed -n 1p "$dir/master-move.out"
	sed -n 2p "$dir/master-move.out" | python3 -c '
import os, sys, time
herald = sys.argv[1]
path, seat, actions, body = sys.stdin.readline().rstrip("\n").split("\t")
saved = open(path, "rb").read()
best = best_cpu = None
devnull = os.open(os.devnull, os.O_WRONLY)
for _ in range(20):
    open(path, "wb").write(saved)
    t = time.perf_counter()
    pid = os.posix_spawnp(herald, [herald, "move", path, "--as", seat, "--after", actions] + body.split(),
                          os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, usage = os.wait4(pid, 0)
    e = time.perf_counter() - t
    if status != 0:
        sys.exit("herald move was refused")
    cpu = usage.ru_utime + usage.ru_stime
    best = e if best is None else min(best, e)
    best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
open(path, "wb").write(saved)
print(f"  herald move, the command (with its start-up), best of 20: {best * 1000:.2f} ms"
      f" ({best_cpu * 1000:.2f} ms of processor time)")
' "$herald"
fi

if [ -n "${BENCH_BIG:-}" ]; then
	big="$dir/big-$BENCH_BIG.hgn"
	first=$(ls "$dir"/kingdoms-of-crusaders-*.hgn | head -n 1)
	if [ ! -s "$big" ]; then
		echo "building a $BENCH_BIG MB file from $first ..."
		want=$((BENCH_BIG * 1000000))
		: >"$big"
		while [ "$(wc -c <"$big")" -lt "$want" ]; do
			cat "$first" >>"$big"
			echo >>"$big"
		done
	fi
	python3 "$here/measure.py" "big file" "$big" "$herald"
fi
