#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CPU time of an old binary and a new one side by side, in one run, on the
# 2,048-function captured host (tests/bench/gen-big-host.py 16 PFs x 127
# VFs, --state: every PF with the settings `state` reads): `state -j`,
# `apply --check` of the host's own state, `diff` of two such hosts and of
# their two state files, and `devices -j` (issue 26: "no slower: within
# 1.05x of today's CPU time").  Not a test of `make check` (it needs a
# binary built from another commit):
#
#     sh tests/bench/compare-cpu.sh OLD_MLXCLI NEW_MLXCLI [ROUNDS]
#
# Each round runs hyperfine on the two binaries' command one after the
# other (3 warm-ups, 15 runs each), ROUNDS (default 3) times, so a burst
# of other load on this shared machine falls on both; the ratio reported
# is new / old of the summed CPU time (user + system) over the rounds.
set -u
old=${1:?old binary}
new=${2:?new binary}
rounds=${3:-3}
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v hyperfine >/dev/null || { echo "compare-cpu: hyperfine is not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MLXCLI_STATE_DIR="$tmp/state"
export MLXCLI_SAMPLES_DIR=${MLXCLI_SAMPLES_DIR:-$top/tests/data/samples}
H=$tmp/host
python3 "$top/tests/bench/gen-big-host.py" "$H" 16 127 --state >/dev/null
cp -a "$H" "$H-b"
"$new" --sysroot "$H" -j state >"$tmp/a.json"
cp "$tmp/a.json" "$tmp/b.json"

# one NAME ARGS: the command with each binary, ROUNDS rounds
one() {
	name=$1
	shift
	o=0 n=0 om=0 nm=0
	for r in $(seq "$rounds"); do
		hyperfine -N -w 3 -r 15 -i --export-json "$tmp/h.json" "$old $*" "$new $*" >/dev/null 2>&1 ||
			{ echo "compare-cpu: hyperfine failed on: $*" >&2; return 1; }
		v=$(jq -r '[.results[] | (.user + .system), .median] | map(tostring) | join(" ")' "$tmp/h.json")
		o=$(echo "$o $v" | awk '{ print $1 + $2 }')
		om=$(echo "$om $v" | awk '{ print $1 + $3 }')
		n=$(echo "$n $v" | awk '{ print $1 + $4 }')
		nm=$(echo "$nm $v" | awk '{ print $1 + $5 }')
	done
	echo "$o $n $om $nm $rounds" | awk -v name="$name" '{ printf "| %s | %.1f | %.1f | %.3f | %.1f | %.1f |\n",
		name, 1000 * $1 / $5, 1000 * $2 / $5, $2 / $1, 1000 * $3 / $5, 1000 * $4 / $5 }'
}

echo "| command (2,048 functions) | old cpu ms | new cpu ms | cpu new/old | old median ms | new median ms |"
echo "|---|---|---|---|---|---|"
one "state -j" --sysroot "$H" -j state
one "apply --check" --sysroot "$H" -j apply --check "$tmp/a.json"
one "diff (two hosts)" diff "$H" "$H-b"
one "diff (two files)" diff "$tmp/a.json" "$tmp/b.json"
one "devices -j" --sysroot "$H" -j devices
