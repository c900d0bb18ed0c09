#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# issue 27's views against the real kernel, inside a private network
# namespace made here: a veth pair va <-> vb of 4 queues each, a macvlan on
# va, a VXLAN netdev sending through va, a multicast address joined by
# hand.  `--any-netdev -d va` runs the live paths:
#   - packet-filter: RTM_GETLINK's counts (va held promiscuous by the kernel
#     for the macvlan's address it cannot filter, then by the test too: 1,
#     then 2 users), the PF_BRIDGE fdb dump of va (its unicast list holds
#     the macvlan's address, its multicast list the group joined), equal to
#     what `bridge fdb show dev va` prints;
#   - vxlan: ETHTOOL_MSG_TUNNEL_INFO_GET answered "device does not report
#     tunnel offload info" (a veth has no udp_tunnel_nic_info), the tunnel
#     features as `ethtool -k` prints them, the VXLAN netdev from the link
#     dump with its port, VNI and lower device;
#   - irq: no IRQ on a veth (said), the XPS map written to tx-1 by the test
#     read back, RSS refused (a veth has no get_rxfh: ETHTOOL_MSG_RSS_GET,
#     then the GRSSH ioctl, both -EOPNOTSUPP);
#   - as uid 65534 the same packet-filter (reads need no privilege).
# What stays capture-only (a veth has none of it): tunnel tables with
# ports, RSS tables, MSI-X IRQs, IPoIB, delay drop (tests/cli/netview.sh).
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
. "$(dirname "$0")/lib.sh"
need_root
need jq
need_no_connectx
make_netns mlxcli-views
if ! ip -n "$ns" link add va numtxqueues 4 numrxqueues 4 type veth peer name vb \
	numtxqueues 4 numrxqueues 4 2>"$tmp/veth.err"; then
	echo "SKIP: cannot create a veth pair: $(cat "$tmp/veth.err")"
	exit 77
fi
ip -n "$ns" link set dev va up && ip -n "$ns" link set dev vb up || { bad "veth up"; exit 1; }
ip -n "$ns" link add link va name mv0 address 02:00:00:0a:0b:0c type macvlan mode bridge &&
	ip -n "$ns" link set dev mv0 up || { bad "macvlan"; exit 1; }
ip -n "$ns" maddr add 01:00:5e:01:02:03 dev va || { bad "maddr add"; exit 1; }
if ip -n "$ns" link add vx0 type vxlan id 42 dstport 4790 dev va 2>"$tmp/vx.err"; then
	ip -n "$ns" link set dev vx0 up
	have_vxlan=1
else
	echo "# no VXLAN in this kernel ($(cat "$tmp/vx.err")): the VXLAN netdev checks skipped"
	have_vxlan=0
fi

echo "== packet-filter"
j() { jq -c "$2" "$1"; }
# a veth filters no unicast (no IFF_UNICAST_FLT): the macvlan's address on
# its list makes the kernel hold it promiscuous (net/core/dev.c
# __dev_set_rx_mode, uc_promisc): one user already
nsx "$MLXCLI" -j packet-filter --any-netdev -d va >"$tmp/pf.json" 2>"$tmp/pf.err"
check "exit 0" $? 0
check "promiscuous with one user: the unicast list the veth cannot filter" \
	"$(j "$tmp/pf.json" '.ports[0] | [.promiscuous, .promiscuity_count, .pci_address, (.interface_flags | index("PROMISC"))]')" \
	'[true,1,null,null]'
nsx "$MLXCLI" packet-filter --any-netdev -d va >"$tmp/pf.txt"
grep -q 'promiscuous: yes (1 user; the flag is off: the kernel or a program holds it)' "$tmp/pf.txt" &&
	ok "text: held by the kernel, the flag off" || bad "text: $(cat "$tmp/pf.txt")"
ip -n "$ns" link set dev va promisc on || { bad "promisc"; exit 1; }
nsx "$MLXCLI" -j packet-filter --any-netdev -d va >"$tmp/pf.json" 2>"$tmp/pf.err"
check "ip link set promisc on: a second user" \
	"$(j "$tmp/pf.json" '.ports[0] | [.promiscuous, .promiscuity_count]')" '[true,2]'
nsx "$MLXCLI" packet-filter --any-netdev -d va >"$tmp/pf.txt"
grep -q 'promiscuous: yes (2 users)$' "$tmp/pf.txt" && ok "text: promiscuous: yes (2 users)" ||
	bad "text: $(cat "$tmp/pf.txt")"
check "the macvlan's address in va's unicast list" \
	"$(j "$tmp/pf.json" '[.ports[0].unicast_addresses[].address]')" '["02:00:00:0a:0b:0c"]'
check "the joined group in the multicast list" \
	"$(j "$tmp/pf.json" '[.ports[0].multicast_addresses[].address | select(. == "01:00:5e:01:02:03")]')" \
	'["01:00:5e:01:02:03"]'
check "the lists came from the fdb dump" "$(j "$tmp/pf.json" '.ports[0].address_lists_source')" '"rtnetlink"'
if command -v bridge >/dev/null 2>&1; then
	nsx bridge fdb show dev va | awk '{print $1}' | sort >"$tmp/bridge"
	j "$tmp/pf.json" '.ports[0] | .unicast_addresses[].address, .multicast_addresses[].address' |
		tr -d '"' | sort >"$tmp/ours"
	cmp -s "$tmp/bridge" "$tmp/ours" && ok "the same lists as 'bridge fdb show dev va'" ||
		bad "lists differ from bridge fdb: $(diff "$tmp/bridge" "$tmp/ours" | head -4)"
fi
priv_setup
nsx_nobody "$NOBODY_MLXCLI" -j packet-filter --any-netdev -d va >"$tmp/pfn.json" 2>"$tmp/pfn.err"
check "as nobody: exit 0" $? 0
cmp -s "$tmp/pf.json" "$tmp/pfn.json" && ok "as nobody: the same view" ||
	bad "as nobody: differs: $(diff "$tmp/pf.json" "$tmp/pfn.json" | head -3)"

echo "== vxlan"
nsx "$MLXCLI" -j vxlan --any-netdev -d va >"$tmp/vx.json" 2>"$tmp/vx.err"
check "exit 0" $? 0
check "no tunnel tables on a veth: the kernel's words" \
	"$(j "$tmp/vx.json" '.ports[0] | [.udp_tunnel_offload, (.udp_tunnel_error | test("device does not report tunnel offload info"))]')" \
	'[false,true]'
if command -v ethtool >/dev/null 2>&1; then
	want=$(nsx ethtool -k va | awk '$1 == "tx-udp_tnl-segmentation:" {print $2}')
	check "tx-udp_tnl-segmentation as ethtool -k says" \
		"$(j "$tmp/vx.json" '.ports[0].features[] | select(.name == "tx-udp_tnl-segmentation") | .enabled')" \
		"$([ "$want" = on ] && echo true || echo false)"
	check "rx-udp_tunnel-port-offload fixed off on a veth" \
		"$(j "$tmp/vx.json" '.ports[0].features[] | select(.name == "rx-udp_tunnel-port-offload") | [.enabled, .fixed]')" \
		'[false,true]'
fi
if [ "$have_vxlan" = 1 ]; then
	idx=$(nsx cat /sys/class/net/va/ifindex)
	check "the VXLAN netdev: port, VNI, lower device" \
		"$(j "$tmp/vx.json" '.vxlan_netdevs[] | select(.netdev == "vx0") | [.udp_port, .vni, .lower_ifindex, .up]')" \
		"[4790,42,$idx,true]"
	check "and it is va's" "$(j "$tmp/vx.json" '.ports[0].vxlan_netdev_names')" '["vx0"]'
fi

echo "== irq"
nsx sh -c 'echo 2 >/sys/class/net/va/queues/tx-1/xps_cpus' 2>/dev/null || echo "# xps_cpus not writable here"
nsx "$MLXCLI" -j irq --any-netdev -d va >"$tmp/irq.json" 2>"$tmp/irq.err"
check "exit 0" $? 0
check "a veth has no IRQs (said), its 4 queues" \
	"$(j "$tmp/irq.json" '.devices[0] | [(.irqs_error | length > 0), .ports[0].tx_queues, .ports[0].rx_queues]')" \
	'[true,4,4]'
check "the XPS map written to tx-1 reads back, tx-0 has none" \
	"$(j "$tmp/irq.json" '[.devices[0].ports[0].channel_map[0,1].xps_cpus]')" '["","1"]'
check "RSS: a veth has none (netlink and the ioctl both refused)" \
	"$(j "$tmp/irq.json" '.devices[0].ports[0] | [.rss, (.rss_error | test("no RSS"))]')" '[null,true]'
check "the host's online CPUs" "$(j "$tmp/irq.json" '.devices[0].online_cpus')" \
	"\"$(cat /sys/devices/system/cpu/online)\""

echo "== a netdev that is not there"
nsx "$MLXCLI" packet-filter --any-netdev -d nosuch0 >/dev/null 2>"$tmp/e.err"
check "exit 3" $? 3
finish
