#!/bin/sh
# setup.sh: install what herald needs on a fresh Debian machine, build it, and
# run one of the two quick-start jobs.
#
#   ./setup.sh check   build, then check every record under records/
#   ./setup.sh test    build, then run the whole test suite (make check,
#                      distcheck under ASan and UBSan, check -j 4 under
#                      TSan, the fuzzers)
#   ./setup.sh build   build only
#
# Only missing Debian packages are installed (apt-get, non-interactive).
# Environment: CONFIGURE_FLAGS is passed to ./configure; MAKEFLAGS as usual.
set -eu

cd "$(dirname "$0")"

packages="build-essential autoconf automake libtool pkg-config \
libyaml-dev libpcre2-dev libjansson-dev libsodium-dev check \
python3 libxml2-utils libgmime-3.0-dev"
# The message catalogues (po/): autoreconf -fi runs autopoint.
packages="$packages gettext autopoint"
# For `./setup.sh test`: the validators of the report formats, GNU parallel
# and GNU time (tests/scale.test), clang's libFuzzer (make fuzz), the
# headless browser the replay page is tested in (tests/replay-html.test).
if [ "${1:-build}" = test ]; then
	packages="$packages python3-jsonschema parallel time bsdutils clang libclang-rt-14-dev chromium"
	# tests/manpages.test formats every manual page with groff -ww.
	packages="$packages groff-base"
	# tests/spanish.test runs herald under the es_ES.UTF-8 locale.
	packages="$packages locales"
fi

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing
fi

# tests/spanish.test needs the es_ES.UTF-8 locale (it skips without it).
if [ "${1:-build}" = test ] && ! locale -a 2>/dev/null | grep -qi '^es_ES\.utf-\?8$'; then
	echo "setup: generating the es_ES.UTF-8 locale"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo sed -i 's/^# *\(es_ES\.UTF-8 UTF-8\)/\1/' /etc/locale.gen
	grep -q '^es_ES\.UTF-8 UTF-8' /etc/locale.gen ||
		echo 'es_ES.UTF-8 UTF-8' | $sudo tee -a /etc/locale.gen >/dev/null
	$sudo locale-gen
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
	autoreconf -fi
fi
if [ ! -f Makefile ] || [ configure -nt config.status ]; then
	# shellcheck disable=SC2086
	./configure ${CONFIGURE_FLAGS:---enable-werror}
fi
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs"

case "${1:-build}" in
build) ;;
check)
	# records/*/illegal and records/malformed hold deliberately broken games:
	# herald reports them and exits 1. Exit 2 (usage or I/O error) is a failure.
	status=0
	# An uninstalled herald is told where the data is (nothing of the build
	# tree is compiled in).
	HERALD_DATA_PATH=data ./herald check records || status=$?
	if [ "$status" -ge 2 ]; then exit "$status"; fi
	echo "setup: the illegal and malformed records above are broken on purpose."
	;;
test)
	# Every report format is validated against its schema (a missing
	# validator fails the run): SARIF against the official SARIF 2.1.0
	# schema, fetched once from the npm registry and kept outside the tree.
	export HERALD_REQUIRE_VALIDATORS=1
	SARIF_SCHEMA=$(tests/sarif-schema.sh || tests/sarif-schema.sh) || {
		echo "setup: cannot fetch the SARIF 2.1.0 schema (tests/sarif-schema.sh)" >&2
		exit 1
	}
	export SARIF_SCHEMA
	# VERBOSE: a failing test's log is printed, so that a CI run shows why
	# (a random game that failed once cannot be replayed from the summary).
	make -j"$jobs" check VERBOSE=1
	# The same suite again from the distribution tarball, built with ASan
	# and UBSan (LeakSanitizer on: tests/leaks.test proves it would fail on
	# a leak): proves the tarball complete and the code clean.  It is built
	# --disable-simd, so that the portable lexer path passes the suite too
	# (make check above ran the SIMD one; make fuzz fuzzes it).
	make -j"$jobs" distcheck VERBOSE=1 \
		DISTCHECK_CONFIGURE_FLAGS="--enable-werror --enable-sanitizers --disable-simd"
	# `herald check -j 4` built with ThreadSanitizer from the tarball
	# distcheck left: a data race between the worker threads fails the run.
	version=$(sed -n 's/^PACKAGE_VERSION = //p' Makefile)
	sh tests/tsan-check.sh "herald-$version.tar.gz"
	# Each libFuzzer target for a minute under ASan and UBSan.
	make fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
	;;
*)
	echo "usage: $0 [build|check|test]" >&2
	exit 2
	;;
esac
