#!/bin/sh
# screenshots.sh HERALD RECORDS OUTDIR - `make screenshots`: a PNG of one
# position of each game's replay page (herald replay --format=html), drawn
# by headless chromium, for the manual and the README.
#
# Environment: CHROMIUM (default: chromium on the PATH).
set -eu
herald=$1
records=$2
outdir=$3
browser=${CHROMIUM:-$(command -v chromium || true)}
[ -n "$browser" ] || { echo "screenshots: no chromium (Debian package chromium)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/herald-shots.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$outdir"
# game, record, step shown
while read -r game record step; do
	"$herald" replay --format=html "$records/$record" > "$tmp/$game.html"
	rm -rf "$tmp/profile"
	mkdir "$tmp/profile"
	"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1200,1000 \
		--screenshot="$tmp/$game.png" "file://$tmp/$game.html#step=$step" 2>/dev/null
	mv "$tmp/$game.png" "$outdir/$game.png"
	echo "screenshots: $outdir/$game.png ($record, step $step)"
done <<LIST
crusader-kingdoms crusader-kingdoms/valid/worked-combat-example.hgn 11
kingdoms-of-crusaders kingdoms-of-crusaders/valid/levels-two-players.hgn 40
encrucijada encrucijada/valid/example-wear.hgn 30
LIST
