#!/bin/sh
# tsan-check.sh TARBALL: builds herald from the distribution tarball with
# ThreadSanitizer, in a directory of its own, and runs `herald check -j 4`
# over the bundled records and a generated archive.  A data race fails the
# run (halt_on_error: TSan's exit status 66); the records' own verdicts
# (exit 1 for the illegal ones) do not.  `./setup.sh test` runs it after
# `make distcheck`, which leaves the tarball.
set -eu

tarball=${1:?usage: tsan-check.sh herald-VERSION.tar.gz}
jobs=$(nproc 2>/dev/null || echo 2)
work=$(mktemp -d "${TMPDIR:-/tmp}/herald-tsan.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'rm -rf "$work"; exit 1' INT TERM HUP

tar -xzf "$tarball" -C "$work"
src=$(echo "$work"/herald-*)
(
	cd "$src"
	./configure --disable-shared CFLAGS="-O1 -g -fsanitize=thread" \
		LDFLAGS="-fsanitize=thread" >"$work/configure.log"
	make -j"$jobs" herald >"$work/make.log"
) || {
	cat "$work/configure.log" "$work/make.log" >&2 2>/dev/null || true
	echo "tsan-check: the ThreadSanitizer build failed" >&2
	exit 1
}

herald="$src/herald"
HERALD_DATA_PATH="$src/data"
export HERALD_DATA_PATH
"$herald" gen --game=crusader-kingdoms --count=600 -o "$work/ck.hgn"
"$herald" gen --game=kingdoms-of-crusaders --count=300 -o "$work/koc.hgn"

# check -j 4 both ways: many small files (a batch of games at a time) and
# a file cut into pieces that the threads parse at once (small pieces, so
# that every thread opens a lexer while the others do).
tsan_check() {	# ARG...
	status=0
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" \
		"$herald" check -q -j 4 "$@" >/dev/null || status=$?
	if [ "$status" -ge 2 ]; then
		echo "tsan-check: herald check -j 4 $* under ThreadSanitizer failed (exit $status)" >&2
		exit 1
	fi
}
tsan_check "$src/records" "$work/koc.hgn"
tsan_check --piece-size=65536 "$work/ck.hgn"
echo "tsan-check: no data race in herald check -j 4"
