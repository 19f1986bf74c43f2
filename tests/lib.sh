# lib.sh - helpers shared by the shell tests (tests/*.test).  POSIX sh.
#
# Source it, call lib_init, make assertions, end with lib_finish:
#
#	. "$top_srcdir/tests/lib.sh"
#	lib_init
#	run "$HERALD" --version
#	assert_status "--version exits 0" 0
#	assert_match "--version names herald" '^herald ' "$out"
#	lib_finish
#
# Each assertion prints one line, "ok - NAME" or "FAIL - NAME" followed by
# "#"-prefixed details, and counts.  lib_finish exits 0 when every
# assertion passed, 1 when one failed or none was made; skip_all exits 77
# (automake's "skipped").

# lib_init: sets up the counters and $tmp, a fresh directory removed on
# exit (also on interrupt).  Needs nothing from the environment.
lib_init() {
	lib_pass=0
	lib_fail=0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/herald-test.XXXXXX") || {
		echo "FAIL - cannot create a temporary directory"
		exit 99
	}
	trap 'rm -rf "$tmp"' EXIT
	trap 'rm -rf "$tmp"; exit 1' INT TERM HUP
	out="$tmp/.stdout"
	err="$tmp/.stderr"
	status=0
}

# require_env VAR...: skips the whole test (exit 77) unless every VAR is set
# and not empty.
require_env() {
	for lib_var in "$@"; do
		eval "lib_val=\${$lib_var:-}"
		[ -n "$lib_val" ] || skip_all "$lib_var is not set"
	done
}

# skip_all REASON: prints why and exits 77, the automake code for "skipped".
skip_all() {
	echo "SKIP - $1"
	exit 77
}

# pass NAME / fail NAME [DETAIL...]: records one assertion's outcome; the
# details are printed as "#" comment lines.  Every assert_* ends in one of
# these.
pass() {
	lib_pass=$((lib_pass + 1))
	echo "ok - $1"
}
fail() {
	lib_fail=$((lib_fail + 1))
	echo "FAIL - $1"
	shift
	for lib_line in "$@"; do
		printf '%s\n' "$lib_line" | sed 's/^/#   /'
	done
}

# run CMD [ARG...]: runs the command with stdin from /dev/null, its
# standard output in the file $out, its standard error in $err and its exit
# status in $status.  Asserts nothing.  Use run_in FILE CMD... to feed FILE
# as standard input.
run() {
	status=0
	"$@" <"/dev/null" >"$out" 2>"$err" || status=$?
}
run_in() {
	lib_input=$1
	shift
	status=0
	"$@" <"$lib_input" >"$out" 2>"$err" || status=$?
}

# lib_output: the last run's status and output, for failure details (the
# first 20 lines of each stream).
lib_output() {
	printf 'exit status %s\n' "$status"
	head -n 20 "$out" | sed 's/^/stdout: /'
	head -n 20 "$err" | sed 's/^/stderr: /'
}

# assert_status NAME EXPECTED: the last run exited with EXPECTED.
assert_status() {
	if [ "$status" -eq "$2" ]; then
		pass "$1"
	else
		fail "$1" "wanted exit status $2" "$(lib_output)"
	fi
}

# assert_eq NAME EXPECTED ACTUAL: two strings are equal.
assert_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected: $2" "actual:   $3"
	fi
}

# assert_ne NAME UNEXPECTED ACTUAL: two strings differ.
assert_ne() {
	if [ "$2" != "$3" ]; then
		pass "$1"
	else
		fail "$1" "both are: $2"
	fi
}

# assert_match NAME ERE FILE: some line of FILE matches the extended
# regular expression.
assert_match() {
	if grep -Eq -- "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "no line of $(basename "$3") matches: $2" "$(head -n 20 "$3")"
	fi
}

# assert_no_match NAME ERE FILE: no line of FILE matches.
assert_no_match() {
	if grep -Eq -- "$2" "$3"; then
		fail "$1" "a line of $(basename "$3") matches: $2" "$(grep -E -- "$2" "$3" | head -n 5)"
	else
		pass "$1"
	fi
}

# assert_empty NAME FILE / assert_not_empty NAME FILE: the file's size.
assert_empty() {
	if [ -s "$2" ]; then
		fail "$1" "$(basename "$2") is not empty:" "$(head -n 20 "$2")"
	else
		pass "$1"
	fi
}
assert_not_empty() {
	if [ -s "$2" ]; then
		pass "$1"
	else
		fail "$1" "$(basename "$2") is empty or missing"
	fi
}

# assert_same_file NAME EXPECTED ACTUAL: the two files are byte for byte
# equal (a diff of the first lines on failure).
assert_same_file() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff -u "$2" "$3" 2>&1 | head -n 30)"
	fi
}

# assert_differ NAME FILE1 FILE2: the two files differ.
assert_differ() {
	if cmp -s "$2" "$3"; then
		fail "$1" "$(basename "$2") and $(basename "$3") are identical"
	else
		pass "$1"
	fi
}

# assert_exists NAME PATH / assert_missing NAME PATH: whether PATH exists.
assert_exists() {
	if [ -e "$2" ]; then pass "$1"; else fail "$1" "$2 does not exist"; fi
}
assert_missing() {
	if [ -e "$2" ]; then fail "$1" "$2 exists"; else pass "$1"; fi
}

# file_mode FILE: prints the permission bits in octal (e.g. 640).
file_mode() {
	stat -c %a "$1" 2>/dev/null || stat -f %Lp "$1"
}

# file_inode FILE: prints the inode number (a rewrite by rename changes it).
file_inode() {
	ls -i "$1" | awk '{ print $1 }'
}

# count_lines ERE [FILE]: prints how many lines of FILE (default: standard
# input) match.
count_lines() {
	if [ $# -gt 1 ]; then
		grep -Ec -- "$1" "$2" || true
	else
		grep -Ec -- "$1" || true
	fi
}

# ere_quote STRING: prints STRING with the characters special in an
# extended regular expression escaped, to match it literally.
ere_quote() {
	printf '%s\n' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

# have_python: true when python3 can run (for validating JSON).
have_python() {
	command -v python3 >/dev/null 2>&1
}

# lib_finish: prints the totals and exits 0 when every assertion passed
# (and there was at least one), else 1.
lib_finish() {
	echo "$lib_pass passed, $lib_fail failed"
	[ "$lib_fail" -eq 0 ] && [ "$lib_pass" -gt 0 ] && exit 0
	exit 1
}
