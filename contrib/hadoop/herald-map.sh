#!/bin/sh
# herald-map.sh - the mapper of herald-check(1)'s Hadoop Streaming recipe.
#
# With NLineInputFormat, Streaming gives each map task lines
# "offset<TAB>path", one path of a shard of the archive a line.  For each,
# the mapper fetches the shard from HDFS into the task's directory, checks
# it in JSON Lines on standard output (the diagnostics name the shard by its
# base name), and removes the copy.  `herald report --sort` is the reducer.
#
# HDFS is reached through the `hdfs` command; set HERALD to run another
# herald than the one on PATH.
set -u
herald=${HERALD:-herald}
tab=$(printf '\t')
status=0
while IFS="$tab" read -r offset path; do
	[ -n "$path" ] || continue
	name=$(basename "$path")
	if ! hdfs dfs -get "$path" "$name"; then
		echo "herald-map: cannot fetch $path (line at offset $offset)" >&2
		status=2
		continue
	fi
	# check exits 1 for an illegal game: that is a finding, not a failure
	# of the task; 2 and above are.
	"$herald" check --format=jsonl "$name"
	rc=$?
	[ "$rc" -le 1 ] || status=$rc
	rm -f "$name"
done
exit "$status"
