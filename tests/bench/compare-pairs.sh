#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An old binary and a new one side by side through pairs.py (interleaved,
# rounds alternating old-new and new-old; ratios new/old of the medians
# and of the CPU times), on the 2,048-function captured host
# (gen-big-host.py 16 127 --state) and the sample host: `devices -j`,
# `state -j`, `apply --check` of the host's own state, `diff` of two hosts
# and of their state files, and the start-up of `--version` and
# `--sample devices` (issue 28: "nothing else slower by more than 5%").
# Not a test of `make check` (it needs a binary built from another commit):
#
#     sh tests/bench/compare-pairs.sh OLD_MLXCLI NEW_MLXCLI [ROUNDS]
set -u
old=${1:?old binary}
new=${2:?new binary}
rounds=${3:-15}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MLXCLI_STATE_DIR="$tmp/state"
export MLXCLI_SAMPLES_DIR=${MLXCLI_SAMPLES_DIR:-$top/tests/data/samples}
H=$tmp/host
python3 "$top/tests/bench/gen-big-host.py" "$H" 16 127 --state >/dev/null
cp -a "$H" "$H-b"
"$old" --sysroot "$H" -j state >"$tmp/a.json"
cp "$tmp/a.json" "$tmp/b.json"

# one NAME ARGS: ARGS with each binary, interleaved
one() {
	name=$1
	shift
	echo "== $name"
	python3 "$top/tests/bench/pairs.py" --rounds "$rounds" --warmup 3 --ratio new/old \
		"old=$old $*" "new=$new $*"
}
one "devices -j (2,048 functions)" --sysroot "$H" -j devices
one "state -j" --sysroot "$H" -j state
one "apply --check (the host's own state)" --sysroot "$H" -j apply --check "$tmp/a.json"
one "diff (two hosts)" diff "$H" "$H-b"
one "diff (two state files)" diff "$tmp/a.json" "$tmp/b.json"
one "--version" --version
one "--sample devices" --sample devices
