#!/bin/sh
# fuzz/run.sh SRCDIR BUILDDIR SECONDS - `make fuzz`: build each libFuzzer
# target with clang, ASan and UBSan, and run it for SECONDS seconds on a
# corpus seeded from records/ and data/.  A crash stops with a non-zero exit
# and leaves the input as fuzz/out/crash-*: turn it into a regression file
# under records/malformed/ (with its .expect) or a unit test.
set -eu
src=${1:?usage: run.sh SRCDIR BUILDDIR SECONDS}
build=${2:?usage: run.sh SRCDIR BUILDDIR SECONDS}
seconds=${3:-60}
cc=${FUZZ_CC:-clang}
out="$build/fuzz/out"
mkdir -p "$out"

command -v "$cc" >/dev/null || { echo "fuzz: $cc not found (apt-get install clang)"; exit 2; }
deps="yaml-0.1 libpcre2-8 jansson libsodium"
cflags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
-I$src/src -I$src/src/lib -I$build \
-DHERALD_PKGDATADIR=\"/nonexistent\" -DHERALD_SRCDATADIR=\"$src/data\" \
$(pkg-config --cflags $deps)"
libs="$(pkg-config --libs $deps) -lpthread"
sources=$(find "$src/src/lib" "$src/src/games" -name '*.c' | LC_ALL=C sort)

for target in hgn yaml check; do
	bin="$out/fuzz-$target"
	echo "fuzz: building $bin"
	# shellcheck disable=SC2086
	$cc $cflags -o "$bin" "$src/fuzz/fuzz-$target.c" $sources $libs
	corpus="$out/corpus-$target"
	seeds="$out/seeds-$target"
	mkdir -p "$corpus" "$seeds"
	case $target in
	yaml) find "$src/data" "$src/records" -name '*.yaml' -exec cp {} "$seeds" \; ;;
	*) find "$src/records" -name '*.hgn' -size -64k -exec cp {} "$seeds" \; ;;
	esac
	echo "fuzz: running fuzz-$target for $seconds s"
	(cd "$out" && "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 \
		-timeout=10 -print_final_stats=1 "$corpus" "$seeds")
done
echo "fuzz: no crash"
