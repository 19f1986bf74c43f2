#!/bin/sh
# replay-page.sh HERALD - `make bench-replay-page`: how long headless
# chromium takes to open and draw the replay page of a long game
# (Encrucijada, four players, the seed "big": several hundred actions),
# as the page itself measures it (performance.now() when it has drawn,
# from the start of the navigation: data-drawn-ms), five times.  The goal
# (issue 24): under a second.
#
# Environment: CHROMIUM (default: chromium on the PATH).
set -eu
herald=$1
browser=${CHROMIUM:-$(command -v chromium || true)}
[ -n "$browser" ] || { echo "bench-replay-page: no chromium" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/herald-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$herald" gen --game encrucijada --players 4 --seed big > "$tmp/long.hgn"
"$herald" replay --format=html "$tmp/long.hgn" > "$tmp/long.html"
actions=$("$herald" replay --format=json "$tmp/long.hgn" | grep -c '"type":"action"')
echo "page: $actions actions, $(wc -c < "$tmp/long.html") bytes"
for run in 1 2 3 4 5; do
	rm -rf "$tmp/profile"
	mkdir "$tmp/profile"
	"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --dump-dom "file://$tmp/long.html#step=$actions" \
		2>/dev/null > "$tmp/dom.html"
	ms=$(sed -n 's/.*data-drawn-ms="\([0-9]*\)".*/\1/p' "$tmp/dom.html" | head -n 1)
	echo "run $run: drawn after ${ms:-?} ms"
done
