#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: mlxcli side by side with the tools users run today, in one
# run on one machine, reported as ratios (these machines are shared and
# noisy: a ratio from one run means more than a time).  tests/bench/pairs.py
# runs the commands of a comparison interleaved, round after round (A B,
# then B A), so the load of the moment weighs on both alike, and reports
# per command the median and spread of the wall time, the median CPU time
# (user + system, which other load moves much less) and the peak RSS, and
# the ratios of medians and of CPU times.
#
#   BENCH_QUICK=1   small N and few runs: CI checks the harness runs
#   BENCH_OUT=FILE  JSON results (default bench-results.json)
#
# Comparisons (see tests/bench/BENCHMARKS.md):
#   scale    devices on synthetic hosts of 4/8/16 PFs x 127 VFs vs lspci
#            reading the same tree (lspci -A linux-sysfs -O sysfs.path=)
#   startup  mlxcli --version / --sample devices vs dcb, devlink, ethtool
#   counters mlxcli counters --json over N veth vs ethtool -S per interface
#            vs ip -s -j link, the netdev group alone vs ip, --format
#            prometheus vs the JSON (root, private netns, the timing run
#            inside it), and offline on a captured host of 4/8/16 ports x 500
#            statistics
#   memory   peak RSS of each command above
#
#   BENCH_VETHS=N   only make the counters' namespace with N veth pairs and
#                   stop (tests/kernel/bench-setup.sh tests the set-up this
#                   way); BENCH_NS=NAME uses that namespace, made elsewhere
set -u
MLXCLI=${MLXCLI:?set MLXCLI to the binary}
SRC=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
OUT=${BENCH_OUT:-bench-results.json}
export MLXCLI_SAMPLES_DIR=${MLXCLI_SAMPLES_DIR:-$SRC/tests/data/samples}
WORK=$(mktemp -d)
export MLXCLI_STATE_DIR="$WORK/state"
NS=${BENCH_NS:-}
own_ns=
trap 'rm -rf "$WORK"; [ -n "$own_ns" ] && ip netns del "$NS" 2>/dev/null' EXIT
# A signal ends the bench (the EXIT trap cleans up): a trap that only
# cleaned up let the loop below go on, for ever once the namespace was gone.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# make_ns: the private namespace of the counters comparison ($BENCH_NS if
# given); add_veths N: veth pairs va0/vb0 ... in it up to N.  Bounded: a pair
# the kernel refuses (no veth module, a namespace that cannot be opened) is
# tried 3 times, then the set-up says why and fails.
made=0
make_ns() {
	[ -n "$NS" ] && return 0
	NS=mlxcli-bench-$$
	if ! ip netns add "$NS" 2>"$WORK/ip.err"; then
		echo "bench: cannot create the namespace $NS: $(cat "$WORK/ip.err")" >&2
		NS=
		return 1
	fi
	own_ns=1
}
add_veths() {
	while [ $made -lt "$1" ]; do
		tries=1
		until ip -n "$NS" link add "va$made" type veth peer name "vb$made" 2>"$WORK/ip.err"; do
			if [ $tries -ge 3 ]; then
				echo "bench: cannot add the veth pair va$made/vb$made in namespace $NS" \
					"($tries tries): $(head -n 1 "$WORK/ip.err")" >&2
				return 1
			fi
			tries=$((tries + 1))
			sleep 0.2
		done
		made=$((made + 1))
	done
}
if [ -n "${BENCH_VETHS:-}" ]; then
	make_ns && add_veths "$BENCH_VETHS" || exit 1
	echo "bench: $made veth pairs in namespace $NS"
	exit 0
fi

if [ -n "${BENCH_QUICK:-}" ]; then RUNS=3 WARM=1 SCALES="1" NS_COUNTS="1 10" PORTS="1 4"; else
	RUNS=15 WARM=3 SCALES="4 8 16" NS_COUNTS="1 10 100 1000" PORTS="4 8 16"; fi
command -v python3 >/dev/null || { echo "bench: python3 is not installed" >&2; exit 77; }
PAIRS="$SRC/tests/bench/pairs.py"
echo '{"results": [' >"$OUT"
first=1

# pair [--ratio A/B]... NAME=CMD...: the commands interleaved (pairs.py),
# each row of its results appended to $OUT; $PAIRS_IN runs pairs.py itself
# under a prefix (ip netns exec NS: the commands then pay no exec of their
# own).  Fails when a command fails.
pair() {
	rm -f "$WORK/rows"
	${PAIRS_IN:-} python3 "$PAIRS" --rounds "$RUNS" --warmup "$WARM" --json "$WORK/rows" "$@" ||
		return 1
	while IFS= read -r line; do
		[ $first -eq 1 ] || echo "," >>"$OUT"
		first=0
		echo "$line" >>"$OUT"
	done <"$WORK/rows"
}
# ratio A B TEXT: median(A) / median(B) and the same of the CPU time, from
# rows of two different pair runs (growth with scale, not a comparison).
ratio() {
	a=$(sed '$a ]}' "$OUT" | jq -r --arg n "$1" '.results[] | select(.name == $n) | "\(.median_s) \(.cpu_s)"')
	b=$(sed '$a ]}' "$OUT" | jq -r --arg n "$2" '.results[] | select(.name == $n) | "\(.median_s) \(.cpu_s)"')
	[ -n "$a" ] && [ -n "$b" ] && echo "$a $b" | awk -v t="$3" \
		'{ printf "  ratio %s: %.2f (cpu time %.2f)\n", t, $1 / $3, ($4 > 0 ? $2 / $4 : 0) }'
}

echo "== scale: devices on synthetic hosts (PFs x 127 VFs)"
for n in $SCALES; do
	python3 "$SRC/tests/bench/gen-big-host.py" "$WORK/big$n" "$n" 127 >/dev/null
	pair "devices-$n=$MLXCLI --sysroot $WORK/big$n -j devices" \
		"lspci-$n=lspci -A linux-sysfs -O sysfs.path=$WORK/big$n/sys/bus/pci -D -d 15b3:"
	# Syscalls per function, which noise does not move (strace -c).
	if command -v strace >/dev/null; then
		for side in "devices:$MLXCLI --sysroot $WORK/big$n -j devices" \
			"lspci:lspci -A linux-sysfs -O sysfs.path=$WORK/big$n/sys/bus/pci -D -d 15b3:"; do
			calls=$(strace -f -c -o "$WORK/strace" ${side#*:} >/dev/null 2>&1 &&
				awk '$NF == "total" { print $4 }' "$WORK/strace")
			[ -n "$calls" ] || continue
			per=$(awk -v c="$calls" -v f="$((n * 128))" 'BEGIN { printf "%.1f", c / f }')
			echo "  ${side%%:*}-$n: $calls syscalls, $per per function"
			[ $first -eq 1 ] || echo "," >>"$OUT"
			first=0
			echo "{\"name\": \"${side%%:*}-$n-syscalls\", \"value\": $calls, \"per_function\": $per}" >>"$OUT"
		done
	fi
done

echo "== state and diff of captured hosts with every PF's settings (issue 19)"
# B is a copy of A, so diff exits 0 (equal) and compares every setting.
n=${SCALES##* }
python3 "$SRC/tests/bench/gen-big-host.py" "$WORK/st$n" "$n" 127 --state >/dev/null
cp -a "$WORK/st$n" "$WORK/st$n-b"
pair --ratio "state-$n/devices-st$n" --ratio "diff-$n/devices-st$n" \
	"state-$n=$MLXCLI --sysroot $WORK/st$n -j state" "diff-$n=$MLXCLI diff $WORK/st$n $WORK/st$n-b" \
	"devices-st$n=$MLXCLI --sysroot $WORK/st$n -j devices"

echo "== apply --check of a full profile (issue 19): every section of every port"
# The host's own state (plans every setting, changes none) and one that
# changes a setting of each subsystem, beside `state` of the same host; and
# the 2,048-function host's own state (16 PFs x 127 VFs' settings).
for h in cx5-ofed cx6dx-upstream; do
	"$MLXCLI" --sample="$h" -j state >"$WORK/$h.json"
	pair "apply-check-$h=$MLXCLI --sample=$h -j apply --check $WORK/$h.json" \
		"state-$h=$MLXCLI --sample=$h -j state"
done
jq '.ports[0].pfc.enabled_priorities = [3,4] | .ports[0].sriov.vfs[1].vlan = 7
	| (.ports[0].dcqcn.rp.parameters[] | select(.name == "rpg_ai_rate") | .value) = 7
	| .ports[0].roce.default_roce_tos = 96 | .ports[1].trust = "pcp" | .ports[1].dscp2prio = []' \
	"$WORK/cx5-ofed.json" >"$WORK/cx5-changes.json"
pair "apply-check-changes-cx5-ofed=$MLXCLI --sample=cx5-ofed -j apply --check $WORK/cx5-changes.json" \
	"state-cx5-ofed-b=$MLXCLI --sample=cx5-ofed -j state"
"$MLXCLI" --sysroot "$WORK/st$n" -j state >"$WORK/st$n.json"
pair "apply-check-$n=$MLXCLI --sysroot $WORK/st$n -j apply --check $WORK/st$n.json" \
	"state-$n-b=$MLXCLI --sysroot $WORK/st$n -j state"

echo "== counters on a captured host scaled to P ports x 500 ethtool statistics"
# Offline (--sysroot): the replayed ethtool replies plus the netdev,
# hw_counters and counters/ files of each port, some 576 counters a port.
# No other tool reads a capture, so this one reports how cost grows.
for p in $PORTS; do
	python3 "$SRC/tests/bench/gen-big-host.py" "$WORK/cnt$p" "$p" 0 --counters=500 >/dev/null
	pair "counters-sample-$p=$MLXCLI --sysroot $WORK/cnt$p -j counters"
done
ratio "counters-sample-$(echo $PORTS | awk '{print $NF}')" "counters-sample-$(echo $PORTS | awk '{print $1}')" \
	"counters at $(echo $PORTS | awk '{print $NF}') ports / at $(echo $PORTS | awk '{print $1}') ports"

echo "== CR-space dump through the emulated gateway (tests/unit/test-vsec)"
# Config-space accesses per dword read: the measure the protocol bounds
# (3 per dword + 8 per semaphore hold); dwords/s is hardware-bound and
# is not measured on an in-memory emulator.
VSEC=${TOP_BUILDDIR:-.}/tests/unit/test-vsec
if [ -x "$VSEC" ]; then
	apd=$("$VSEC" 2>/dev/null | sed -n 's/^accesses per dword: \([0-9.]*\).*/\1/p')
	if [ -n "$apd" ]; then
		echo "  accesses per dword: $apd (= the protocol minimum for this dump: 3 per dword + 8 per semaphore hold)"
		[ $first -eq 1 ] || echo "," >>"$OUT"
		first=0
		echo "{\"name\": \"crspace-accesses-per-dword\", \"value\": $apd, \"minimum\": 3}" >>"$OUT"
	fi
else
	echo "  skipped: $VSEC is not built (make check builds it)"
fi

echo "== startup"
pair --ignore-exit --ratio version/ethtool-i --ratio sample-devices/devlink-dev \
	"version=$MLXCLI --version" "sample-devices=$MLXCLI --sample devices" \
	"dcb-ets=dcb ets show dev lo" "devlink-dev=devlink -j dev" "ethtool-i=ethtool -i lo"
command -v mlnx_qos >/dev/null && pair "mlnx_qos=mlnx_qos -i lo"

if "$MLXCLI" help counters >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null; then
	echo "== counters of N veth (private netns)"
	make_ns 2>&1 || { NS_COUNTS=; echo "  skipped: no namespace"; }
	for n in $NS_COUNTS; do
		add_veths "$n" 2>&1 || { echo "  skipped the rest: no veth pairs"; break; }
		ip -n "$NS" link set dev lo up
		# All inside the namespace: pairs.py itself runs there, so
		# no command pays an `ip netns exec` of its own (some 20 ms).
		PAIRS_IN="ip netns exec $NS" pair \
			--ratio "mlxcli-counters-$n/ip-s-link-$n" \
			--ratio "mlxcli-counters-netdev-$n/ip-s-link-$n" \
			--ratio "mlxcli-prometheus-$n/mlxcli-counters-$n" \
			"mlxcli-counters-$n=$MLXCLI counters --any-netdev -j" \
			"ip-s-link-$n=ip -s -j link" \
			"mlxcli-counters-netdev-$n=$MLXCLI counters --any-netdev -j -g netdev" \
			"mlxcli-prometheus-$n=$MLXCLI counters --any-netdev --format prometheus"
		# The loop forks ethtool once per interface (seconds at N=1000):
		# fewer rounds there.
		r0=$RUNS w0=$WARM
		[ "$n" -ge 100 ] && RUNS=3 WARM=1
		PAIRS_IN="ip netns exec $NS" pair --ratio "ethtool-S-loop-$n/mlxcli-counters-b-$n" \
			"ethtool-S-loop-$n=for i in \$(ls /sys/class/net); do ethtool -S \$i; done" \
			"mlxcli-counters-b-$n=$MLXCLI counters --any-netdev -j"
		RUNS=$r0 WARM=$w0
		if command -v strace >/dev/null; then
			for side in "mlxcli:$MLXCLI counters --any-netdev -j" "ip:ip -s -j link"; do
				calls=$(ip netns exec "$NS" strace -f -c -o "$WORK/strace" ${side#*:} >/dev/null 2>&1 &&
					awk '$NF == "total" { print $4 }' "$WORK/strace")
				[ -n "$calls" ] && echo "  ${side%%:*} counters of $((2 * n + 1)) interfaces: $calls syscalls"
			done
		fi
	done
else
	echo "== counters: skipped (needs root and the counters command)"
fi
# rdma (issue 24): `rdma qp -j` on a captured host with 10,000 QPs (5,000
# CM IDs, 100 owners; tests/bench/gen-rdma-qps.py), text and JSON, and
# `rdma -j resource show qp` live beside it where the machine has RDMA
# devices (rdma_rxe in the kernel lab; these build machines have none).
echo "== rdma"
NQP=10000
[ -n "${BENCH_QUICK:-}" ] && NQP=1000
python3 "$SRC/tests/bench/gen-rdma-qps.py" "$MLXCLI_SAMPLES_DIR" "$WORK/rdmaq" "$NQP" >/dev/null
pair "rdma-qp-json=$MLXCLI --sysroot $WORK/rdmaq -j rdma qp" \
	"rdma-qp-text=$MLXCLI --sysroot $WORK/rdmaq rdma qp"
if command -v rdma >/dev/null && [ -n "$(rdma -j dev show 2>/dev/null | tr -d '[] \n')" ]; then
	pair --ratio rdma-qp-live/iproute2-rdma-qp-live \
		"rdma-qp-live=$MLXCLI -j rdma qp" "iproute2-rdma-qp-live=rdma -j resource show qp"
fi

# params (issue 17): the sample host (2 PFs + 4 VFs) offline, and live in
# the namespace: mlxcli's host-wide dumps (every veth's replies collected
# for one -d) beside the five ethtool reads and devlink a user would run
# for 18 ports
echo "== params"
pair "params-sample=$MLXCLI --sample=cx5-ofed -j params"
# the issue's host: 2 PFs with 8 VFs each (18 ports), every knob replayed
# from one dump per ethtool message type and one devlink dump
python3 "$SRC/tests/bench/gen-big-host.py" "$WORK/par" 2 8 --params >/dev/null
pair "params-2pf16vf=$MLXCLI --sysroot $WORK/par -j params" \
	"devices-2pf16vf=$MLXCLI --sysroot $WORK/par -j devices"
if [ -n "$NS" ] && [ "$made" -ge 18 ] && command -v ethtool >/dev/null; then
	PAIRS_IN="ip netns exec $NS" pair --ratio ethtool-params-loop-18/params-live-18 \
		"params-live-18=$MLXCLI -j params --any-netdev -d va0" \
		"ethtool-params-loop-18=for i in \$(seq 0 17); do for o in -k -g -c -l --show-priv-flags; do ethtool \$o va\$i; done; done; devlink dev param show; true"
fi
echo ']}' >>"$OUT"
jq -e '.results | length > 0' "$OUT" >/dev/null && echo "bench: results in $OUT"
