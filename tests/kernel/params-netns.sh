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
#     host without ConnectX exits 0 and says so;
#   - issue 25: the veth's own ranges and defaults, not mlx5's: its MTU
#     range is IFLA_MIN_MTU..IFLA_MAX_MTU (68..65535, not 68..9978: 16000 is
#     set), the default of a feature is mlx5's and no veth's (GRO "?", reset
#     refused, exit 4); a feature group set as ethtool -K sets it (tso off
#     turns every tx-tcp*-segmentation off, sg every tx-scatter-gather*),
#     read back as ethtool -k's group line.
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
nsx "$MLXCLI" -j params reset --any-netdev -d va mtu >/dev/null 2>"$tmp/rs.err"
check "reset mtu: exit 0" $? 0
check "reset: the Ethernet default is back" "$(nsx cat /sys/class/net/va/mtu)" 1500

echo "== the veth's own ranges and defaults (issue 25)"
nsx "$MLXCLI" -j params --any-netdev -d va mtu gro tso >"$tmp/v.json"
check "the MTU's range is the veth's (IFLA_MIN_MTU, IFLA_MAX_MTU)" \
	"$(k "$tmp/v.json" mtu '[.min, .max, .default_value]')" "$(nsx ip -d -j link show va | jq -c '[.[0].min_mtu, .[0].max_mtu, 1500]')"
check "GRO's default is mlx5's, unknown on a veth" "$(k "$tmp/v.json" gro '[.default_value, .at_default]')" '[null,null]'
nsx "$MLXCLI" params set --any-netdev -d va mtu=16000 >/dev/null 2>"$tmp/m16.err"
check "mtu 16000 (above mlx5's 9978, within the veth's 65535): exit 0" $? 0
check "mtu 16000 reads back" "$(nsx cat /sys/class/net/va/mtu)" 16000
nsx "$MLXCLI" params set --any-netdev -d va mtu=65536 >/dev/null 2>"$tmp/m64.err"
check "mtu 65536: exit 2" $? 2
grep -q "65536 is above the device's maximum 65535" "$tmp/m64.err" && ok "... the veth's maximum is said" ||
	bad "mtu 65536: $(cat "$tmp/m64.err")"
nsx "$MLXCLI" params set --any-netdev -d va mtu=67 >/dev/null 2>"$tmp/m67.err"
check "mtu 67: exit 2" $? 2
grep -q "67 is below the device's minimum 68" "$tmp/m67.err" && ok "... the minimum is said" ||
	bad "mtu 67: $(cat "$tmp/m67.err")"
gro_before=$(nsx ethtool -k va | sed -n 's/^generic-receive-offload: //p')
nsx "$MLXCLI" params reset --any-netdev -d va gro >/dev/null 2>"$tmp/rg.err"
check "reset gro on a veth: exit 4" $? 4
grep -q "cannot reset gro on va: its default (on) is mlx5's" "$tmp/rg.err" && ok "... mlx5's default named" ||
	bad "reset gro: $(cat "$tmp/rg.err")"
check "GRO untouched" "$(nsx ethtool -k va | sed -n 's/^generic-receive-offload: //p')" "$gro_before"
nsx "$MLXCLI" params reset --any-netdev -d va >/dev/null 2>"$tmp/ra.err"
check "reset of every knob: exit 0" $? 0
check "... the MTU reset" "$(nsx cat /sys/class/net/va/mtu)" 1500
check "... GRO left as it was" "$(nsx ethtool -k va | sed -n 's/^generic-receive-offload: //p')" "$gro_before"

echo "== feature groups, as ethtool -K (issue 25)"
# ethtool -k prints a group line ("tcp-segmentation-offload: on") and its
# members; every changeable member follows the group
group() { nsx ethtool -k va | sed -n "s/^$1: \([a-z]*\).*/\1/p"; }
members_on() { nsx ethtool -k va | grep -E "^	$1" | grep -v fixed | grep -c ': on'; }
members() { nsx ethtool -k va | grep -E "^	$1" | grep -vc fixed; }
nsx "$MLXCLI" params set --any-netdev -d va tso=off >/dev/null 2>"$tmp/t0.err"
check "tso=off: exit 0" $? 0
check "ethtool -k: tcp-segmentation-offload off" "$(group tcp-segmentation-offload)" off
check "every tx-tcp*-segmentation member off" "$(members_on 'tx-tcp.*-segmentation')" 0
nsx "$MLXCLI" -j params --any-netdev -d va tso tso6 >"$tmp/t.json"
check "mlxcli reads tso and tso6 off" "$(jq -c '[.params[0].knobs[].current]' "$tmp/t.json")" '[false,false]'
nsx "$MLXCLI" params set --any-netdev -d va tso=on >/dev/null 2>"$tmp/t1.err"
check "tso=on: exit 0" $? 0
check "every changeable tx-tcp*-segmentation member on" "$(members_on 'tx-tcp.*-segmentation')" \
	"$(members 'tx-tcp.*-segmentation')"
nsx "$MLXCLI" params set --any-netdev -d va tso=off scatter_gather=off >/dev/null 2>"$tmp/s0.err"
check "tso=off scatter_gather=off: exit 0" $? 0
check "ethtool -k: scatter-gather off" "$(group scatter-gather)" off
check "every tx-scatter-gather* member off" "$(members_on 'tx-scatter-gather')" 0
nsx "$MLXCLI" -j params --any-netdev -d va scatter_gather tx_checksum >"$tmp/g.json"
check "mlxcli's groups read as ethtool -k's lines" \
	"$(k "$tmp/g.json" scatter_gather .current),$(k "$tmp/g.json" tx_checksum .current)" \
	"$([ "$(group scatter-gather)" = on ] && echo true || echo false),$([ "$(group tx-checksumming)" = on ] && echo true || echo false)"
nsx "$MLXCLI" params set --any-netdev -d va scatter_gather=on tso=on >/dev/null 2>"$tmp/s1.err"
check "scatter_gather=on tso=on: exit 0" $? 0
check "ethtool -k: tcp-segmentation-offload on again" "$(group tcp-segmentation-offload)" on

nsx "$MLXCLI" params --any-netdev -d nosuch0 >/dev/null 2>"$tmp/e"
check "no such netdev: exit 3" $? 3
nsx "$MLXCLI" -j params >"$tmp/all.json" 2>"$tmp/all.err"
check "no ConnectX: exit 0" $? 0
check "no ConnectX: an empty list" "$(jq -c '.params' "$tmp/all.json")" '[]'
grep -q "no ConnectX device was found" "$tmp/all.err" && ok "no ConnectX: said on stderr" || bad "stderr: $(cat "$tmp/all.err")"
finish
