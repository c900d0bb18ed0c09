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
#   - params set, live: MTU, rx/tx channels, TSO written, read back, the
#     veth's maximum and a fixed feature refused, as nobody exit 5, reset;
#   - exit 3 for a netdev that does not exist, and plain `params` on a
#     host without ConnectX exits 0 and says so.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
. "$(dirname "$0")/lib.sh"
need_root
need jq
need_no_connectx
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

# params set, live: the real ethtool CHANNELS_SET and FEATURES_SET and
# RTM_SETLINK IFLA_MTU, read back by the real dumps; --dry-run changes nothing
nsx "$MLXCLI" -j params --any-netdev -d va >"$tmp/b.json"
nsx "$MLXCLI" -j params set -n --any-netdev -d va mtu=2000 >/dev/null 2>"$tmp/n.err"
check "set --dry-run: exit 0" $? 0
nsx "$MLXCLI" -j params --any-netdev -d va >"$tmp/d.json"
cmp -s "$tmp/b.json" "$tmp/d.json" && ok "set --dry-run: nothing changed" || bad "dry run changed something"
nsx "$MLXCLI" -j params set --any-netdev -d va mtu=2000 rx_channels=1 tx_channels=3 tso=off \
	>"$tmp/s.json" 2>"$tmp/s.err"
check "set mtu, channels, a feature: exit 0" $? 0
check "set: the change record" "$(jq -c '[.changes[] | [.setting, .new, .changed]]' "$tmp/s.json")" \
	'[["mtu",2000,true],["rx_channels",1,true],["tx_channels",3,true],["tso",false,true]]'
nsx "$MLXCLI" -j params --any-netdev -d va >"$tmp/r.json"
check "set: read back" "$(jq -c '[.params[0].knobs[] | select(.name == "mtu" or .name == "rx_channels" or .name == "tx_channels" or .name == "tso") | .current]' "$tmp/r.json")" \
	'[1,3,false,2000]'
check "set: the kernel agrees (sysfs)" "$(nsx cat /sys/class/net/va/mtu)" 2000
nsx "$MLXCLI" params set --any-netdev -d va rx_channels=5 >/dev/null 2>"$tmp/m.err"
check "above the veth's maximum: exit 2" $? 2
nsx "$MLXCLI" params set --any-netdev -d va lro=on >/dev/null 2>"$tmp/f.err"
check "LRO is fixed on a veth: exit 4" $? 4
nsx_nobody "$NOBODY_MLXCLI" params set --any-netdev -d va mtu=3000 >/dev/null 2>"$tmp/p.err"
check "set as nobody: exit 5" $? 5
check "as nobody: the MTU stays" "$(nsx cat /sys/class/net/va/mtu)" 2000
nsx "$MLXCLI" -j params reset --any-netdev -d va mtu tso >/dev/null 2>"$tmp/rs.err"
check "reset mtu and tso: exit 0" $? 0
check "reset: the defaults are back" "$(nsx cat /sys/class/net/va/mtu)" 1500

nsx "$MLXCLI" params --any-netdev -d nosuch0 >/dev/null 2>"$tmp/e"
check "no such netdev: exit 3" $? 3
nsx "$MLXCLI" -j params >"$tmp/all.json" 2>"$tmp/all.err"
check "no ConnectX: exit 0" $? 0
check "no ConnectX: an empty list" "$(jq -c '.params' "$tmp/all.json")" '[]'
grep -q "no ConnectX device was found" "$tmp/all.err" && ok "no ConnectX: said on stderr" || bad "stderr: $(cat "$tmp/all.err")"
finish
