#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli params` against the real kernel (issue 17), inside a private
# network namespace made here with a veth pair va <-> vb of 4 queues each.
# `--any-netdev -d va` runs the real collection path: the ethtool netlink
# dumps (PRIVFLAGS, FEATURES, RINGS, CHANNELS, COALESCE, each answered for
# every netdev of the namespace) and the MTU from sysfs.
#   - the MTU set with `ip link` reads back;
#   - the channels are the veth's queues (rx/tx, maximum 4);
#   - the features are the kernel's: LRO is [fixed] on a veth, GRO off until
#     the test turns it on (ethtool -K, a set-up step only: skipped
#     without ethtool), then on;
#   - as uid 65534 the same table (reads need no privilege);
#   - exit 3 for a netdev that does not exist, and plain `params` on a
#     host without ConnectX exits 0 and says so.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
. "$(dirname "$0")/lib.sh"
need_root
need jq
need_no_connectx
check() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (got '$2', want '$3')"; fi; }
make_netns mlxcli-par
if ! ip -n "$ns" link add va numtxqueues 4 numrxqueues 4 type veth peer name vb \
	numtxqueues 4 numrxqueues 4 2>"$tmp/veth.err"; then
	echo "SKIP: cannot create a veth pair: $(cat "$tmp/veth.err")"
	exit 77
fi
ip -n "$ns" link set va mtu 4321 up && ip -n "$ns" link set vb up || { bad "veth up"; exit 1; }

nsx "$MLXCLI" -j params --any-netdev -d va >"$tmp/a.json" 2>"$tmp/a.err"
check "params -d va exits 0" $? 0
k() { jq -c --arg n "$2" '[.params[0].knobs[] | select(.name == $n) | '"$3"'][0]' "$1"; }
check "the MTU set with ip link" "$(k "$tmp/a.json" mtu '[.current, .source]')" '[4321,"mtu"]'
check "rx channels: the veth's queues" "$(k "$tmp/a.json" rx_channels '[.current, .device_max]')" '[4,4]'
check "tx channels" "$(k "$tmp/a.json" tx_channels '[.current, .device_max]')" '[4,4]'
check "LRO fixed off on a veth" "$(k "$tmp/a.json" lro '[.current, .fixed]')" '[false,true]'
check "TSO on and changeable" "$(k "$tmp/a.json" tso '[.current, .fixed]')" '[true,false]'
check "the netdev, no PCI address" "$(jq -c '.params[0] | [.netdev, .pci_address, .role]' "$tmp/a.json")" '["va",null,null]'
if command -v ethtool >/dev/null 2>&1 && nsx ethtool -K va gro on 2>/dev/null; then
	nsx "$MLXCLI" -j params --any-netdev -d va gro >"$tmp/g.json"
	check "GRO turned on reads back" "$(k "$tmp/g.json" gro '.current')" true
	if nsx ethtool -L va rx 2 2>/dev/null; then
		nsx "$MLXCLI" -j params --any-netdev -d va --source channel >"$tmp/c.json"
		check "rx channels set to 2 read back" "$(k "$tmp/c.json" rx_channels '.current')" 2
	fi
	nsx "$MLXCLI" -j params --any-netdev -d va >"$tmp/a.json"
else
	echo "# no ethtool (or no GRO on veth): the set-and-read-back checks skipped"
fi

# as uid 65534: the same table
priv_setup
nsx_nobody "$NOBODY_MLXCLI" -j params --any-netdev -d va >"$tmp/n.json" 2>"$tmp/n.err"
check "as nobody: exit 0" $? 0
if cmp -s "$tmp/a.json" "$tmp/n.json"; then ok "as nobody: the same table"
else bad "as nobody: differs: $(diff "$tmp/a.json" "$tmp/n.json" | head -5)"; fi

nsx "$MLXCLI" params --any-netdev -d nosuch0 >/dev/null 2>"$tmp/e"
check "no such netdev: exit 3" $? 3
nsx "$MLXCLI" -j params >"$tmp/all.json" 2>"$tmp/all.err"
check "no ConnectX: exit 0" $? 0
check "no ConnectX: an empty list" "$(jq -c '.params' "$tmp/all.json")" '[]'
grep -q "no ConnectX device was found" "$tmp/all.err" && ok "no ConnectX: said on stderr" || bad "stderr: $(cat "$tmp/all.err")"
finish
