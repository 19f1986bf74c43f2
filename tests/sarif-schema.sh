#!/bin/sh
# sarif-schema.sh [DIR] - prints the path of the official SARIF 2.1.0 JSON
# schema (the 2.1.0 "rtm.5" schema that SchemaStore publishes), fetching it
# once into DIR (default: ~/.cache/herald) from the npm registry, where the
# package @microsoft/jest-sarif ships it.  The schema is third-party text: it
# is kept out of the source tree and only read by tests/formats.test
# ($SARIF_SCHEMA).  Exits 1, printing nothing, when it cannot be had (no npm,
# no registry).
set -eu
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/herald}
schema="$dir/sarif-schema-2.1.0.json"
package="@microsoft/jest-sarif@1.0.0-beta.0"
member="package/lib/schemas/sarif-2.1.0-rtm.5.json"
if [ ! -s "$schema" ]; then
	command -v npm >/dev/null 2>&1 || exit 1
	mkdir -p "$dir"
	work=$(mktemp -d "$dir/fetch.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	# npm checks the tarball against the registry's integrity hash.
	(cd "$work" && npm pack --silent "$package" >/dev/null 2>&1) || exit 1
	tar -xzf "$work"/*.tgz -C "$work" "$member" || exit 1
	grep -q '"title": "Static Analysis Results Format (SARIF) Version 2.1.0' "$work/$member" || exit 1
	mv "$work/$member" "$schema"
fi
echo "$schema"
