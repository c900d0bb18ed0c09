#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every read command with -j (and in text) on both sample hosts, run by an
# old binary and a new one: the outputs must be byte-identical (issue 26:
# "JSON byte-identical on both sample hosts for every read command").  Not
# a test of `make check` (it needs a binary built from another commit):
#
#     sh tests/bench/compare-json.sh OLD_MLXCLI NEW_MLXCLI
#
# prints one line per command that differs (JSON, stderr and exit status;
# text too, reported apart) and exits 1 when any JSON does.
set -u
old=${1:?old binary}
new=${2:?new binary}
top=$(cd "$(dirname "$0")/../.." && pwd)
S=${MLXCLI_SAMPLES_DIR:-$top/tests/data/samples}
# both binaries find the same sample hosts (an old build knows its own tree)
MLXCLI_SAMPLES_DIR=$S
export MLXCLI_SAMPLES_DIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MLXCLI_STATE_DIR="$tmp/state"
n=0 bad=0 badtext=0

run() {   # BIN OUT ARGS...: stdout, stderr with the run's own paths masked, status
	b=$1 o=$2
	shift 2
	"$b" "$@" >"$o.out" 2>"$o.err"
	echo "exit $?" >>"$o.err"
	sed -i "s#$tmp#TMP#g" "$o.err" "$o.out"
}

cmp_one() {   # NAME ARGS...
	name=$1
	shift
	n=$((n + 1))
	run "$old" "$tmp/a" -j "$@"
	run "$new" "$tmp/b" -j "$@"
	if ! cmp -s "$tmp/a.out" "$tmp/b.out" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
		echo "JSON DIFFERS: $name: mlxcli -j $*"
		diff "$tmp/a.out" "$tmp/b.out" | head -5
		diff "$tmp/a.err" "$tmp/b.err" | head -5
		bad=$((bad + 1))
	fi
	run "$old" "$tmp/a" "$@"
	run "$new" "$tmp/b" "$@"
	if ! cmp -s "$tmp/a.out" "$tmp/b.out" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
		echo "text differs: $name: mlxcli $*"
		diff "$tmp/a.out" "$tmp/b.out" | head -5
		diff "$tmp/a.err" "$tmp/b.err" | head -5
		badtext=$((badtext + 1))
	fi
}

for s in cx5-ofed cx6dx-upstream; do
	R="--sysroot $S/$s"
	nd=$("$new" $R -j ports 2>/dev/null | tr ',' '\n' | sed -n 's/.*"netdev":"\([^"]*\)".*/\1/p' | head -1)
	pf=$("$new" $R -j devices 2>/dev/null | tr ',' '\n' | sed -n 's/.*"pci_address":"\([^"]*\)".*/\1/p' | head -1)
	# shellcheck disable=SC2086
	for c in "devices" "ports" "show devices" "show ports" "show qos" "show qos --check" \
		"qosconfig show" "qosconfig dcqcn get" "qosconfig dcqcn get --names linux" \
		"qosconfig dcqcn defaults" "qosconfig dcqcn describe" \
		"qosconfig default-untagged-priority get -d $nd" \
		"sriov show" "sriov eswitch" "sriov eswitch -d $pf" "fw" "fw query" "pci" "pci show" \
		"params" "params show" "params info" "params --diff" "params regkeys" "params features" \
		"show regkeys" "show driverparams $nd" \
		"counters" "counters cc" "counters prio" "counters errors" "show perfstats" \
		"module" "link" "show selfhealing port" "dbg get-state" "dbg pddrinfo" "dbg cmd-stats" \
		"state" "state -d $pf" "state -d $nd" "dump-me-now list" "sample list"; do
		# shellcheck disable=SC2086
		cmp_one "$s" $R $c
	done
	# diff: of a system with itself, in every form, and with a changed copy
	"$new" $R -j state >"$tmp/$s.json"
	cp -a "$S/$s" "$tmp/w-$s"
	cmp_one "$s" diff "$S/$s" "$S/$s"
	cmp_one "$s" diff "$tmp/$s.json" "$S/$s"
	"$new" --sysroot "$tmp/w-$s" qosconfig pfc -d "$nd" 3,4 >/dev/null 2>&1
	"$new" --sysroot "$tmp/w-$s" qosconfig trust -d "$nd" pcp >/dev/null 2>&1
	"$new" --sysroot "$tmp/w-$s" qosconfig dcqcn set -d "$nd" rpg_ai_rate 7 >/dev/null 2>&1
	"$new" --sysroot "$tmp/w-$s" params set -d "$nd" rx_ring=4096 >/dev/null 2>&1
	cmp_one "$s" diff "$S/$s" "$tmp/w-$s"
	cmp_one "$s" diff "$tmp/$s.json" "$tmp/w-$s"
	cmp_one "$s" diff --match netdev "$tmp/w-$s" "$S/$s"
done
cmp_one both diff "$S/cx5-ofed" "$S/cx6dx-upstream"
cmp_one both diff --match position "$S/cx5-ofed" "$S/cx6dx-upstream"
cmp_one both diff --match netdev "$tmp/cx5-ofed.json" "$tmp/cx6dx-upstream.json"
echo "$n read commands (JSON and text) on both samples: $bad JSON outputs differ, $badtext text outputs differ"
[ "$bad" -eq 0 ]
