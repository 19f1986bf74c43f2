#!/bin/sh
# fuzz/run.sh SRCDIR BUILDDIR SECONDS [TARGET...] - `make fuzz`: build the
# libFuzzer targets with clang, ASan and UBSan, and run each for SECONDS
# seconds on a corpus seeded from records/ and data/ (TARGET: some of them
# only, named with or without `fuzz-`; an unknown name exits 2 at once):
#
#   fuzz-hgn            the HGN lexer, parser and writer (fmt idempotence;
#                       the plain path reads as the careful one)
#   fuzz-resume         a parser opened at a resume point (check -j N's
#                       pieces) reads what the whole file's parser reads
#   fuzz-yaml           the YAML tree loader and the JSON/YAML record readers
#   fuzz-check          every game's replay, from whole records
#   fuzz-game-GAME      one game's action parser and engine (move text after
#                       a fixed header), rendering and legal actions
#   fuzz-data-GAME      one game's YAML data loader (a record's own files)
#
# Inputs run up to 1 MiB (the HGN, YAML and data targets; 256 KiB for the
# game targets), and the HGN and record seeds include inputs just under each
# size limit of herald-notation(5) (made here, not kept in git): a larger
# input must cost no more than its size says.  fuzz-hgn also reads every
# input under limits small enough for short inputs to cross.
#
# A crash, a leak, undefined behaviour or an input slower than 30 s (a
# seed of 400000 elements takes a few seconds under the sanitizers, read
# seven ways by fuzz-hgn; a cost out of proportion takes far longer) stops
# the run with exit 1 and leaves the input in BUILDDIR/fuzz/out/ (crash-*,
# leak-*, timeout-*): turn it into a regression file under records/malformed/
# (with its .expect) or a unit test.  The corpora grow in BUILDDIR/fuzz/out
# from run to run.
set -eu
src=${1:?usage: run.sh SRCDIR BUILDDIR SECONDS [TARGET...]}
build=${2:?usage: run.sh SRCDIR BUILDDIR SECONDS [TARGET...]}
seconds=${3:-60}
shift 3 || shift $#
# absolute: the targets run from inside $build/fuzz/out
case $src in /*) ;; *) src=$PWD/$src ;; esac
case $build in /*) ;; *) build=$PWD/$build ;; esac
cc=${FUZZ_CC:-clang}
out="$build/fuzz/out"
objs="$build/fuzz/obj"

# The games and their data tags come from herald itself (`herald games`):
# $HERALD, else the build's.
herald=${HERALD:-$build/herald}
[ -x "$herald" ] || { echo "fuzz: build herald first (make)"; exit 2; }
games=$("$herald" games --ids)
known="hgn resume yaml check"
for g in $games; do
	[ -d "$src/records/$g" ] && known="$known game-$g data-$g"
done
all=$known
if [ $# -gt 0 ]; then
	all=""
	for t in "$@"; do
		t=${t#fuzz-}
		case " $known " in
		*" $t "*) all="$all $t" ;;
		*)
			echo "fuzz: no target '$t'; the targets are: $known" >&2
			exit 2
			;;
		esac
	done
fi

command -v "$cc" >/dev/null || { echo "fuzz: $cc not found (apt-get install clang)"; exit 2; }
mkdir -p "$out" "$objs"
deps="yaml-0.1 libpcre2-8 jansson libsodium"
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
cflags="-g -O1 -fno-omit-frame-pointer $san \
-I$src/src -I$src/src/lib -I$build \
-DHERALD_PKGDATADIR=\"$src/data\" -DHERALD_LOCALEDIR=\"$build/po\" \
$(pkg-config --cflags $deps)"
libs="$(pkg-config --libs $deps) -lpthread"

# The library once, instrumented for coverage, for every target.
echo "fuzz: building the library with $cc"
lib="$objs/libherald-fuzz.a"
rm -f "$lib"
for c in $(find "$src/src/lib" "$src/src/games" -name '*.c' | LC_ALL=C sort); do
	o="$objs/$(echo "${c#"$src"/}" | tr / _).o"
	# shellcheck disable=SC2086
	$cc $cflags -fsanitize=fuzzer-no-link -c -o "$o" "$c"
	ar rc "$lib" "$o"
done

# Seeds just under each limit (herald-notation(5), LIMITS) in DIR: HGN,
# the record formats (JSON, YAML), or YAML data.
limit_seeds() {	# limit_seeds DIR hgn|records|data
	head='[Game "kingdoms-of-crusaders"]
[Date "2026.11.21"]
[Players "Ana; Ben"]
[Result "*"]
'
	case $2 in
	hgn)
		{ printf "$head"; awk 'BEGIN { for (i = 0; i < 1020; i++) printf "[T%d \"v\"]\n", i }'
		  printf '\n1. P1: draw c01\n*\n'; } >"$1/limit-tags.hgn"
		{ printf "$head"; printf '[Event "'; head -c 65535 /dev/zero | tr '\0' x
		  printf '"]\n\n1. P1: draw c01 {'; head -c 65535 /dev/zero | tr '\0' y; printf '}\n*\n'; } >"$1/limit-token.hgn"
		{ printf "$head"; printf '\n1. P1: draw c01'
		  awk 'BEGIN { for (i = 0; i < 17; i++) { printf " {"; for (k = 0; k < 60000; k++) printf "z"; printf "}" } }'
		  printf '\n*\n'; } >"$1/limit-line.hgn"
		{ printf "$head"; printf '\n1. P1: draw c01\n'
		  awk 'BEGIN { for (i = 1; i < 399999; i++) { printf "()"; if (i % 64 == 0) print "" } }'
		  printf '\n*\n'; } >"$1/limit-elements.hgn"
		{ printf "$head"; printf '\n'
		  awk 'BEGIN { for (i = 0; i < 99999; i++) { printf "P1: a "; if (i % 64 == 63) print "" } }'
		  printf '\n*\n'; } >"$1/limit-actions.hgn"
		{ printf "$head"; printf '\n1. P1: draw c01 '
		  awk 'BEGIN { for (i = 0; i < 63; i++) printf "(P1: a "; for (i = 0; i < 63; i++) printf ")"; print "" }'
		  printf '*\n'; } >"$1/limit-nesting.hgn"
		;;
	records)
		tags='{"name": "Game", "value": "kingdoms-of-crusaders"}, {"name": "Date", "value": "2026.11.21"}, {"name": "Players", "value": "Ana; Ben"}, {"name": "Result", "value": "*"}'
		awk -v head="$tags" 'BEGIN { printf "{\"herald\": 1, \"games\": [{\"tags\": [%s", head
			for (i = 0; i < 1020; i++) printf ", {\"name\": \"T%d\", \"value\": \"v\"}", i
			printf "], \"moves\": [{\"nag\": 1}"
			for (i = 0; i < 50000; i++) printf ", {\"variation\": []}"
			print "], \"result\": \"*\"}]}" }' </dev/null >"$1/limit-record.json"
		{ printf 'herald: 1\ngames:\n- tags:\n  - {name: Game, value: kingdoms-of-crusaders}\n'
		  printf '  - {name: Date, value: "2026.11.21"}\n  - {name: Players, value: Ana; Ben}\n'
		  printf '  - {name: Result, value: "*"}\n'
		  awk 'BEGIN { for (i = 0; i < 1020; i++) printf "  - {name: T%d, value: v}\n", i }'
		  printf '  moves:\n'
		  awk 'BEGIN { for (i = 0; i < 50000; i++) print "  - variation: []" }'
		  printf '  result: "*"\n'; } >"$1/limit-record.yaml"
		limit_seeds "$1" data
		;;
	data)	# collections nested just under the data loader's 144
		awk 'BEGIN { for (i = 0; i < 143; i++) printf "["; for (i = 0; i < 143; i++) printf "]"; print "" }' \
			</dev/null >"$1/limit-depth.yaml"
		;;
	esac
}

# game_tags GAME: how many tags name a record's own data files (the game
# class's data_tags, which `herald games` lists).
game_tags() {
	"$herald" games | awk -v game="$1" '
		/^[^ ]/ { id = $1; sub(/:$/, "", id) }
		/^  data tags: / && id == game { print NF - 2 }'
}

for target in $all; do
	bin="$out/fuzz-$target"
	corpus="$out/corpus-$target"
	seeds="$out/seeds-$target"
	rm -rf "$seeds"
	mkdir -p "$corpus" "$seeds"
	case $target in
	game-*)
		game=${target#game-}
		# shellcheck disable=SC2086
		$cc $cflags -fsanitize=fuzzer -DFUZZ_GAME="\"$game\"" -o "$bin" \
			"$src/fuzz/fuzz-game.c" "$lib" $libs
		find "$src/records/$game" -name '*.hgn' -size -64k -exec cp {} "$seeds" \;
		max_len=262144
		;;
	data-*)
		game=${target#data-}
		# shellcheck disable=SC2086
		$cc $cflags -fsanitize=fuzzer -DFUZZ_GAME="\"$game\"" -o "$bin" \
			"$src/fuzz/fuzz-data.c" "$lib" $libs
		# Each data file behind each tag (the first byte picks the tag).
		n=$(game_tags "$game")
		k=0
		for y in $(find "$src/data/$game" "$src/records/$game" -name '*.yaml' | LC_ALL=C sort); do
			i=0
			while [ "$i" -lt "$n" ]; do
				{ printf "\\$(printf '%03o' "$i")"; cat "$y"; } >"$seeds/$k-$i.yaml"
				i=$((i + 1))
			done
			k=$((k + 1))
		done
		limit_seeds "$seeds" data
		{ printf '\000'; cat "$seeds/limit-depth.yaml"; } >"$seeds/limit-depth-0.yaml"
		rm "$seeds/limit-depth.yaml"
		max_len=1048576
		;;
	*)
		# shellcheck disable=SC2086
		$cc $cflags -fsanitize=fuzzer -o "$bin" "$src/fuzz/fuzz-$target.c" "$lib" $libs
		case $target in
		yaml)
			find "$src/data" "$src/records" -name '*.yaml' -exec cp {} "$seeds" \;
			limit_seeds "$seeds" records
			;;
		*)
			find "$src/records" -name '*.hgn' -size -64k -exec cp {} "$seeds" \;
			limit_seeds "$seeds" hgn
			;;
		esac
		max_len=1048576
		;;
	esac
	echo "fuzz: running fuzz-$target for $seconds s"
	(cd "$out" && ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$seconds" \
		-rss_limit_mb=2048 -timeout=30 -max_len="$max_len" -print_final_stats=1 "$corpus" "$seeds" \
		>"$out/fuzz-$target.log" 2>&1) || {
		tail -n 60 "$out/fuzz-$target.log"
		echo "fuzz: fuzz-$target failed: see $out/fuzz-$target.log and the crash-*, leak-* or timeout-* input in $out"
		exit 1
	}
	grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+.*DONE)' \
		"$out/fuzz-$target.log" | sed "s/^/fuzz-$target: /"
done
echo "fuzz: no crash in $(echo $all | wc -w) targets"
