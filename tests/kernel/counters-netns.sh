#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli counters` against the real kernel, inside a private network
# namespace made here (`ip netns add`, removed by a trap) with a veth pair
# va <-> vb.  `--any-netdev` runs the real collection path (ethtool netlink
# STRSET_GET for the names, SIOCETHTOOL GSTATS for the values, sysfs
# statistics/) on a netdev that is not a ConnectX port.
#   - the names come over ethtool netlink (kernels >= 5.6), values by ioctl;
#   - the veth's own ethtool counter peer_ifindex equals va's ifindex;
#   - after the test sends N frames from va (AF_PACKET, python3; IPv6 off so
#     the kernel sends nothing of its own), the netdev statistics of va and
#     vb moved by exactly N, and with GRO on vb (veth then receives through
#     NAPI and counts rx_queue_0_xdp_packets) the ethtool GSTATS value too;
#   - `counters watch` reports the same N as a delta, and keeps going (exit
#     0, says so on stderr) when vb vanishes mid-watch;
#   - with 27 netdevs, the dump paths (one STRSET_GET and one RTM_GETLINK
#     dump for all) read what each netdev's own requests read.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
need jq python3
N=57
make_netns mlxcli-cnt
# IPv6 off in the namespace, so the kernel sends nothing of its own: written
# to its /proc/sys directly (no sysctl, which minimal systems lack); a
# kernel without IPv6 has nothing to turn off
if [ -d /proc/sys/net/ipv6 ]; then
	nsx sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6 &&
		echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' ||
		{ bad "cannot disable IPv6 in the namespace"; exit 1; }
fi
make_veth va vb
gro=no
# veth receives through NAPI (and counts rx_queue_0_xdp_*) when GRO is on at
# the receiver and the sender's frames are GRO-eligible (no TSO on va):
# drivers/net/veth.c veth_skb_is_eligible_for_gro().  The test uses ethtool
# for this set-up step only; mlxcli itself never runs it.
if command -v ethtool >/dev/null 2>&1 && nsx ethtool -K vb gro on 2>/dev/null &&
   nsx ethtool -K va tso off 2>/dev/null; then
	gro=yes
fi
sleep 0.3

# snap NAME DEV: the JSON counters of DEV
snap() {
	nsx "$MLXCLI" -j counters --any-netdev -d "$2" >"$tmp/$1.json" 2>"$tmp/$1.err"
	rc=$?
	[ $rc -eq 0 ] || bad "counters -d $2 exits $rc: $(cat "$tmp/$1.err")"
}

# val NAME SOURCE COUNTER (the compact document: values by source and name)
val() {
	jq -r --arg s "$2" --arg n "$3" '.ports[0].counters[$s][$n]' "$tmp/$1.json"
}

snap a0 va
snap b0 vb
jq_src=$(jq -c '.ports[0].sources | [.ethtool, .netdev]' "$tmp/b0.json")
[ "$jq_src" = '["ok","ok"]' ] && ok "vb: ethtool and netdev statistics read" || bad "vb sources: $jq_src"
from=$(jq -r '.ports[0].sources.ethtool_names_from' "$tmp/b0.json")
major=$(uname -r | cut -d. -f1)
minor=$(uname -r | cut -d. -f2)
if [ "$major" -gt 5 ] || { [ "$major" -eq 5 ] && [ "$minor" -ge 6 ]; }; then
	[ "$from" = netlink ] && ok "names from ethtool netlink" || bad "names came from '$from', not netlink"
else
	echo "  note: kernel $(uname -r) predates ethtool netlink; names from '$from'"
fi
ifa=$(nsx cat /sys/class/net/va/ifindex)
peer=$(val b0 ethtool peer_ifindex)
[ "$peer" = "$ifa" ] && ok "vb's ethtool peer_ifindex = $ifa (va)" || bad "vb peer_ifindex is '$peer', va is $ifa"
jq_g=$(jq -c '[.catalogue.ethtool.peer_ifindex.catalogued]' "$tmp/b0.json")
[ "$jq_g" = '[false]' ] && ok "veth counters are shown as uncatalogued" || bad "peer_ifindex: $jq_g"

# watch in the background over the sending.  Under a loaded `make -j
# check` (or the kernel lab's emulated CPU) each step may take seconds, so
# nothing here races: the sender is started first and says when it is
# loaded and bound (the ready file); then the watch takes its baseline (its
# "start" record says so); only then the go file.  The watch goes on for
# 4 s of samples, whose deltas add up.
nsx python3 - "$N" "$tmp/go" "$tmp/sent" "$tmp/ready" <<'EOF' &
import os, socket, sys, time
n, go, sent, ready = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("va", 0))
frame = b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x01" + b"\x88\xb5" + b"mlxcli counters test".ljust(46, b".")
open(ready, "w").close()
for _ in range(600):
    if os.path.exists(go):
        break
    time.sleep(0.05)
for _ in range(n):
    s.send(frame)
open(sent, "w").close()
EOF
spid=$!
# wait_file FILE PATTERN: until FILE holds PATTERN (at most 30 s)
wait_file() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}
i=0
while [ ! -e "$tmp/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
nsx "$MLXCLI" -j counters watch --any-netdev -d vb --interval 0.5 --count 8 --filter '^rx_' \
	>"$tmp/watch.json" 2>"$tmp/watch.err" &
wpid=$!
wait_file "$tmp/watch.json" '"record":"start"'
: >"$tmp/go"
wait $spid || bad "cannot send frames"
wait $wpid || bad "watch exits non-zero: $(cat "$tmp/watch.err")"

snap a1 va
snap b1 vb
d=$(( $(val a1 netdev tx_packets) - $(val a0 netdev tx_packets) ))
[ "$d" -eq "$N" ] && ok "va netdev tx_packets moved by $N" || bad "va tx_packets moved by $d, sent $N"
d=$(( $(val b1 netdev rx_packets) - $(val b0 netdev rx_packets) ))
[ "$d" -eq "$N" ] && ok "vb netdev rx_packets moved by $N" || bad "vb rx_packets moved by $d, sent $N"
if [ $gro = yes ] && [ "$(val b0 ethtool rx_queue_0_xdp_packets)" != null ]; then
	d=$(( $(val b1 ethtool rx_queue_0_xdp_packets) - $(val b0 ethtool rx_queue_0_xdp_packets) ))
	[ "$d" -eq "$N" ] && ok "vb ethtool rx_queue_0_xdp_packets (GSTATS) moved by $N" ||
		bad "vb ethtool rx_queue_0_xdp_packets moved by $d, sent $N"
else
	echo "  note: no GRO on vb (ethtool missing or refused): the ethtool packet counter is not compared"
fi
wd=$(jq -s -r '[.[] | select(.record == "sample") | .ports[0].counters[] | select(.source == "netdev" and .name == "rx_packets") | .delta] | add' "$tmp/watch.json")
[ "$wd" = "$N" ] && ok "watch: delta of vb rx_packets is $N" || bad "watch delta is '$wd': $(head -c 600 "$tmp/watch.json")"
rate=$(jq -s -r '[.[] | select(.record == "sample") | .ports[0].counters[] | select(.source == "netdev" and .name == "rx_packets") | .rate_per_second] | max' "$tmp/watch.json")
[ "$rate" -gt 0 ] 2>/dev/null && ok "watch: rate $rate/s" || bad "watch rate '$rate'"

# Many netdevs: without -d, the names of every netdev come from one ethtool
# STRSET_GET dump and existence, parents and netdev statistics from one
# RTM_GETLINK dump (lib/counters/counters.c, more than 8 targets).  Each netdev must
# read the same there as through its own requests with -d.
i=0
while [ $i -lt 12 ]; do
	ip -n "$ns" link add "ma$i" type veth peer name "mb$i" || bad "cannot add veth ma$i"
	i=$((i + 1))
done
nsx "$MLXCLI" -j counters --any-netdev >"$tmp/all.json" 2>"$tmp/all.err" ||
	bad "counters --any-netdev exits non-zero: $(cat "$tmp/all.err")"
nall=$(jq '.ports | length' "$tmp/all.json")
[ "$nall" -eq 27 ] && ok "all 27 netdevs listed (lo, va, vb, 12 pairs)" || bad "$nall netdevs listed, not 27"
mism=0
for dev in vb ma0 mb5 ma11; do
	snap one "$dev"
	pairs='[.counters | to_entries[] | .key as $s | .value | keys_unsorted[] |
		select($s != "netdev" or (test("packets|bytes") | not)) | [$s, .]]'
	want=$(jq -c ".ports[0] | $pairs" "$tmp/one.json")
	got=$(jq -c --arg d "$dev" ".ports[] | select(.netdev == \$d) | $pairs" "$tmp/all.json")
	[ "$want" = "$got" ] || { mism=1; bad "$dev: the dump path lists $got, its own requests $want"; }
	wp=$(jq -r '.ports[0].counters.ethtool.peer_ifindex' "$tmp/one.json")
	gp=$(jq -r --arg d "$dev" '.ports[] | select(.netdev == $d) | .counters.ethtool.peer_ifindex' "$tmp/all.json")
	[ -n "$wp" ] && [ "$wp" = "$gp" ] || { mism=1; bad "$dev: peer_ifindex $gp in the dump path, $wp alone"; }
done
[ $mism -eq 0 ] && ok "dump path and per-netdev requests agree (names, sources, peer_ifindex)"
# A veth has no parent device: no module, no FEC; its phy rows are null
# without a request (issue 28: 2,000 veths asked 8,000 times), the same
# rows a request would give.
phy=$(jq -c '[.ports[] | select(.netdev == "ma3") | .counters.module, .counters.fec]' "$tmp/all.json")
[ "$phy" = '[{"temperature":null,"voltage":null},{"corrected_blocks":null,"uncorrectable_blocks":null}]' ] &&
	ok "a veth's phy rows: null" || bad "a veth's phy rows: $phy"
if command -v strace >/dev/null 2>&1; then
	nsx strace -f -c -o "$tmp/strace" "$MLXCLI" -j counters --any-netdev >/dev/null 2>&1
	calls=$(awk '$NF == "sendto" { print $4 }' "$tmp/strace")
	[ "${calls:-0}" -le 4 ] && ok "27 netdevs: ${calls:-0} netlink requests (the dumps)" ||
		bad "27 netdevs: $calls netlink requests (sendto)"
fi
src=$(jq -c '[.ports[] | select(.netdev != "lo") | .sources.ethtool_names_from] | unique' "$tmp/all.json")
if [ "$from" = netlink ]; then
	[ "$src" = '["netlink"]' ] && ok "every veth's names from netlink" || bad "names from $src"
fi
lo=$(jq -c '[.ports[] | select(.netdev == "lo") | .sources.ethtool, .pci_address]' "$tmp/all.json")
[ "$lo" = '["Operation not supported",null]' ] && ok "lo: no ethtool statistics, no PCI device" || bad "lo: $lo"
grep -q "warning" "$tmp/all.err" && bad "warnings for netdevs without driver statistics: $(cat "$tmp/all.err")"
i=0
while [ $i -lt 12 ]; do
	ip -n "$ns" link del "ma$i"
	i=$((i + 1))
done

# The driver's statistics change count mid-watch (veth: one set per
# queue; fewer channels, fewer counters).  GSTATS asks for as many values
# as there are names: a current kernel then answers with none, an older
# one with all of them (into a buffer that ends at a guard page); either
# way the names are read again and the later samples carry the new set.
if command -v ethtool >/dev/null 2>&1 &&
	ip -n "$ns" link add qa numrxqueues 4 numtxqueues 4 type veth peer name qb \
		numrxqueues 4 numtxqueues 4 2>/dev/null; then
	ip -n "$ns" link set qa up
	ip -n "$ns" link set qb up
	before=$(nsx ethtool -S qa | tail -n +2 | wc -l)
	# (ip netns exec, not the nsx function: $! must be mlxcli for the kill)
	ip netns exec "$ns" "$MLXCLI" -j counters watch --all --any-netdev -d qa --interval 0.4 \
		>"$tmp/ch.json" 2>"$tmp/ch.err" &
	wpid=$!
	wait_file "$tmp/ch.json" '"record":"start"'
	nsx ethtool -L qa rx 2 tx 2 || bad "ethtool -L qa rx 2 tx 2 failed"
	# two samples taken after the change, however long that takes; then stop
	n=$(grep -c '"record":"sample"' "$tmp/ch.json")
	i=0
	while [ "$(grep -c '"record":"sample"' "$tmp/ch.json")" -lt $((n + 2)) ] && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -TERM $wpid
	wait $wpid || bad "watch exits non-zero after the channels changed: $(cat "$tmp/ch.err")"
	after=$(nsx ethtool -S qa | tail -n +2 | wc -l)
	got=$(jq -s '[.[] | select(.record == "sample")] | last | [.ports[0].counters[] | select(.source == "ethtool")] | length' "$tmp/ch.json")
	if [ "$after" -lt "$before" ] && [ "$got" = "$after" ]; then
		ok "statistics from $before to $after mid-watch: the last sample has $got"
	else
		bad "statistics from $before to $after mid-watch, the last sample has '$got': $(cat "$tmp/ch.err")"
	fi
	grep -q "ethtool statistics" "$tmp/ch.err" && bad "warnings when the count changed: $(cat "$tmp/ch.err")"
	ip -n "$ns" link del qa
else
	echo "  (no ethtool or no multi-queue veth: the changing statistics count is not checked)"
fi

# vb vanishes mid-watch: the watch says so and goes on
# (events, not fixed sleeps: under the kernel lab's emulated CPU a step
# takes any time).  The watch runs until the test stops it with SIGTERM
# (exit 0 and the end record, mlxcli-counters(8)), once a sample after the
# deletion has said vb is gone.
ip netns exec "$ns" "$MLXCLI" -j counters watch --any-netdev -d vb --interval 0.3 >"$tmp/gone.json" 2>"$tmp/gone.err" &
wpid=$!
wait_file "$tmp/gone.json" '"record":"sample"'
ip -n "$ns" link del va
wait_file "$tmp/gone.json" '"gone":true'
kill -TERM $wpid
wait $wpid
rc=$?
[ $rc -eq 0 ] && ok "watch exits 0 after vb vanished" || bad "watch exits $rc after vb vanished"
grep -q "'vb' vanished" "$tmp/gone.err" && ok "watch says vb vanished" || bad "no vanished message: $(cat "$tmp/gone.err")"
g=$(jq -s -c '[.[] | select(.record == "sample") | .ports[0].gone]' "$tmp/gone.json")
# present in the first sample, gone in every one after the deletion
if echo "$g" | grep -qxE '\[false(,false)*(,true)+\]'; then ok "watch records: gone $g"; else bad "watch gone flags $g"; fi

finish
