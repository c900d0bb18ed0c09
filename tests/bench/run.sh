#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: mlxcli side by side with the tools users run today, in one
# run on one machine, reported as ratios (these machines are shared and
# noisy: a ratio from one run means more than a time).  hyperfine does the
# warm-up, the repetitions and the statistics; /usr/bin/time the peak RSS.
#
#   BENCH_QUICK=1   small N and few runs: CI checks the harness runs
#   BENCH_OUT=FILE  JSON results (default bench-results.json)
#
# Comparisons (see tests/bench/BENCHMARKS.md):
#   scale    devices on synthetic hosts of 4/8/16 PFs x 127 VFs vs lspci
#            reading the same tree (lspci -A linux-sysfs -O sysfs.path=)
#   startup  mlxcli --version / --sample devices vs dcb, devlink, ethtool
#   counters mlxcli counters --json over N veth vs ethtool -S per interface
#            vs ip -s -j link (root, private netns; when `counters` exists),
#            and offline on a captured host of 4/8/16 ports x 500 statistics
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
command -v hyperfine >/dev/null || { echo "bench: hyperfine is not installed" >&2; exit 77; }
echo '{"results": [' >"$OUT"
first=1

# bench NAME CMD...: time one command; appends {name, median_s, min_s, max_s, rss_kb}
bench() {
	name=$1
	shift
	hyperfine -N -w "$WARM" -r "$RUNS" --export-json "$WORK/h.json" "$*" >/dev/null 2>&1 ||
		hyperfine -w "$WARM" -r "$RUNS" -i --export-json "$WORK/h.json" "$*" >/dev/null 2>&1 || return 1
	rss=$(/usr/bin/time -f %M sh -c "$* >/dev/null 2>&1" 2>&1 | tail -n1)
	line=$(jq -c --arg n "$name" --argjson rss "${rss:-0}" \
		'.results[0] | {name: $n, command: .command, median_s: .median, min_s: .min, max_s: .max, cpu_s: (.user + .system), rss_kb: $rss}' "$WORK/h.json")
	[ $first -eq 1 ] || echo "," >>"$OUT"
	first=0
	echo "$line" >>"$OUT"
	echo "$line" | jq -r '"  \(.name): median \(.median_s*1000|floor) ms (\(.min_s*1000|floor)-\(.max_s*1000|floor)), cpu \(.cpu_s*1000|floor) ms, rss \(.rss_kb) KB"'
}
# ratio A B: median(A) / median(B), and the same of the mean CPU time
# (user + system), which other load on a shared machine moves less.
ratio() {
	a=$(sed '$a ]}' "$OUT" | jq -r --arg n "$1" '.results[] | select(.name == $n) | "\(.median_s) \(.cpu_s)"')
	b=$(sed '$a ]}' "$OUT" | jq -r --arg n "$2" '.results[] | select(.name == $n) | "\(.median_s) \(.cpu_s)"')
	[ -n "$a" ] && [ -n "$b" ] && echo "$a $b" | awk -v t="$3" \
		'{ printf "  ratio %s: %.2f (cpu time %.2f)\n", t, $1 / $3, ($4 > 0 ? $2 / $4 : 0) }'
}

echo "== scale: devices on synthetic hosts (PFs x 127 VFs)"
for n in $SCALES; do
	python3 "$SRC/tests/bench/gen-big-host.py" "$WORK/big$n" "$n" 127 >/dev/null
	bench "devices-$n" "$MLXCLI --sysroot $WORK/big$n -j devices"
	bench "lspci-$n" "lspci -A linux-sysfs -O sysfs.path=$WORK/big$n/sys/bus/pci -D -d 15b3:"
	ratio "devices-$n" "lspci-$n" "mlxcli devices / lspci, $((n * 128)) functions"
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
bench "state-$n" "$MLXCLI --sysroot $WORK/st$n -j state"
bench "diff-$n" "$MLXCLI diff $WORK/st$n $WORK/st$n-b"
ratio "state-$n" "devices-$n" "mlxcli state / devices, $((n * 128)) functions"
ratio "diff-$n" "devices-$n" "mlxcli diff of two hosts / devices of one, $((n * 128)) functions"

echo "== apply --check of a full profile (issue 19): every section of every port"
# The host's own state (plans every setting, changes none) and one that
# changes a setting of each subsystem, beside `state` of the same host; and
# the 2,048-function host's own state (16 PFs x 127 VFs' settings).
for h in cx5-ofed cx6dx-upstream; do
	"$MLXCLI" --sample="$h" -j state >"$WORK/$h.json"
	bench "state-$h" "$MLXCLI --sample=$h -j state"
	bench "apply-check-$h" "$MLXCLI --sample=$h -j apply --check $WORK/$h.json"
	ratio "apply-check-$h" "state-$h" "mlxcli apply --check / state, $h"
done
jq '.ports[0].pfc.enabled_priorities = [3,4] | .ports[0].sriov.vfs[1].vlan = 7
	| (.ports[0].dcqcn.rp.parameters[] | select(.name == "rpg_ai_rate") | .value) = 7
	| .ports[0].roce.default_roce_tos = 96 | .ports[1].trust = "pcp" | .ports[1].dscp2prio = []' \
	"$WORK/cx5-ofed.json" >"$WORK/cx5-changes.json"
bench "apply-check-changes-cx5-ofed" "$MLXCLI --sample=cx5-ofed -j apply --check $WORK/cx5-changes.json"
ratio "apply-check-changes-cx5-ofed" "state-cx5-ofed" "mlxcli apply --check (6 changes) / state, cx5-ofed"
"$MLXCLI" --sysroot "$WORK/st$n" -j state >"$WORK/st$n.json"
bench "apply-check-$n" "$MLXCLI --sysroot $WORK/st$n -j apply --check $WORK/st$n.json"
ratio "apply-check-$n" "state-$n" "mlxcli apply --check / state, $((n * 128)) functions"

echo "== counters on a captured host scaled to P ports x 500 ethtool statistics"
# Offline (--sysroot): the replayed ethtool replies plus the netdev,
# hw_counters and counters/ files of each port, some 576 counters a port.
# No other tool reads a capture, so this one reports how cost grows.
for p in $PORTS; do
	python3 "$SRC/tests/bench/gen-big-host.py" "$WORK/cnt$p" "$p" 0 --counters=500 >/dev/null
	bench "counters-sample-$p" "$MLXCLI --sysroot $WORK/cnt$p -j counters"
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
bench version "$MLXCLI --version"
bench sample-devices "$MLXCLI --sample devices"
bench dcb-ets "dcb ets show dev lo"
bench devlink-dev "devlink -j dev"
bench ethtool-i "ethtool -i lo"
command -v mlnx_qos >/dev/null && bench mlnx_qos "mlnx_qos -i lo"
ratio version ethtool-i "mlxcli --version / ethtool -i"
ratio sample-devices devlink-dev "mlxcli --sample devices / devlink -j dev"

if "$MLXCLI" help counters >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null; then
	echo "== counters of N veth (private netns)"
	make_ns 2>&1 || { NS_COUNTS=; echo "  skipped: no namespace"; }
	for n in $NS_COUNTS; do
		add_veths "$n" 2>&1 || { echo "  skipped the rest: no veth pairs"; break; }
		ip -n "$NS" link set dev lo up
		# All three inside the namespace the same way (ip netns exec
		# costs some 20 ms of its own: each side pays it once).
		bench "mlxcli-counters-$n" "ip netns exec $NS $MLXCLI counters --any-netdev -j"
		# The loop forks ethtool once per interface (seconds at N=1000):
		# fewer repetitions there.
		r0=$RUNS w0=$WARM
		[ "$n" -ge 100 ] && RUNS=3 WARM=1
		bench "ethtool-S-loop-$n" "ip netns exec $NS sh -c 'for i in \$(ls /sys/class/net); do ethtool -S \$i; done'"
		RUNS=$r0 WARM=$w0
		bench "ip-s-link-$n" "ip netns exec $NS ip -s -j link"
		ratio "ethtool-S-loop-$n" "mlxcli-counters-$n" "ethtool -S loop / mlxcli counters, N=$n"
		ratio "mlxcli-counters-$n" "ip-s-link-$n" "mlxcli counters / ip -s -j link, N=$n"
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
bench rdma-qp-json "$MLXCLI --sysroot $WORK/rdmaq -j rdma qp"
bench rdma-qp-text "$MLXCLI --sysroot $WORK/rdmaq rdma qp"
if command -v rdma >/dev/null && [ -n "$(rdma -j dev show 2>/dev/null | tr -d '[] \n')" ]; then
	bench rdma-qp-live "$MLXCLI -j rdma qp"
	bench iproute2-rdma-qp-live "rdma -j resource show qp"
	ratio iproute2-rdma-qp-live rdma-qp-live "rdma -j resource show qp / mlxcli -j rdma qp (live)"
fi

# params (issue 17): the sample host (2 PFs + 4 VFs) offline, and live in
# the namespace: mlxcli's host-wide dumps (every veth's replies collected
# for one -d) beside the five ethtool reads and devlink a user would run
# for 18 ports
echo "== params"
bench params-sample "$MLXCLI --sample=cx5-ofed -j params"
# the issue's host: 2 PFs with 8 VFs each (18 ports), every knob replayed
# from one dump per ethtool message type and one devlink dump
python3 "$SRC/tests/bench/gen-big-host.py" "$WORK/par" 2 8 --params >/dev/null
bench params-2pf16vf "$MLXCLI --sysroot $WORK/par -j params"
bench devices-2pf16vf "$MLXCLI --sysroot $WORK/par -j devices"
ratio params-2pf16vf devices-2pf16vf "mlxcli params / devices, 2 PFs + 16 VFs"
if [ -n "$NS" ] && [ "$made" -ge 18 ] && command -v ethtool >/dev/null; then
	bench params-live-18 "ip netns exec $NS $MLXCLI -j params --any-netdev -d va0"
	bench ethtool-params-loop-18 "ip netns exec $NS sh -c 'for i in \$(seq 0 17); do for o in -k -g -c -l --show-priv-flags; do ethtool \$o va\$i; done; done; devlink dev param show; true' "
	ratio ethtool-params-loop-18 params-live-18 "ethtool -k/-g/-c/-l/--show-priv-flags + devlink loop / mlxcli params, 18 ports"
	ratio ethtool-params-loop-18 params-2pf16vf "ethtool -k/-g/-c/-l/--show-priv-flags + devlink loop (18 veths) / mlxcli params of the captured 2 PFs + 16 VFs"
fi
echo ']}' >>"$OUT"
jq -e '.results | length > 0' "$OUT" >/dev/null && echo "bench: results in $OUT"
