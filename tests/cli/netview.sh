#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 27's views on the sample hosts (their recorded replies and files,
# gen/samples_views.py): vxlan, packet-filter, irq (the NUMA warning, RSS
# from the GRSSH/GRXFH ioctls of a kernel before 6.4), dropless, the mlxtool
# spellings; IPoIB on the IPoIB variant of cx5-ofed (no sample host is
# InfiniBand) and on an Ethernet host (says so, exit 0); a snapshot of each
# replays the same output; a capture taken before mlxcli recorded these
# says what it lacks and is no failure.
. "$(dirname "$0")/lib.sh"
need jq python3

j() {   # j NAME JQ: a jq expression on $tmp/NAME.out
	jq -c "$2" "$tmp/$1.out" 2>/dev/null
}

echo "== vxlan"
run vx5 --sample=cx5-ofed -j vxlan
check "cx5-ofed vxlan: exit" "$rc" 0
check "PF0: the static IANA table holds 4789, the VXLAN table is empty (vxlan100 is on 4789)" \
	"$(j vx5 '[.ports[0].udp_tunnel_tables[] | [.size, .tunnel_types, .static_iana, [.entries[].udp_port]]]')" \
	'[[3,["vxlan"],false,[]],[1,[],true,[4789]]]'
check "PF0: its VXLAN netdev" "$(j vx5 '.ports[0].vxlan_netdev_names')" '["vxlan100"]'
check "PF1: not vxlan100's lower device" "$(j vx5 '.ports[1].vxlan_netdev_names')" '[]'
check "a VF has no tunnel tables, and the kernel's reason" \
	"$(j vx5 '.ports[2] | [.udp_tunnel_offload, (.udp_tunnel_error | test("device does not report tunnel offload info"))]')" \
	'[false,true]'
check "tunnel offload features, fixed ones marked" \
	"$(j vx5 '[.ports[0].features[] | select(.name == "tx-udp_tnl-segmentation" or .name == "tx-ipxip4-segmentation") | [.enabled, .fixed]]')" \
	'[[true,false],[false,true]]'
check "the host's VXLAN netdevs" "$(j vx5 '.vxlan_netdevs')" \
	'[{"netdev":"vxlan100","udp_port":4789,"vni":100,"lower_ifindex":4,"up":true}]'
run vx6 --sample=cx6dx-upstream vxlan
check "cx6dx: both PFs offload 4790 (vx4790 has no lower device)" \
	"$(grep -c 'vxlan: 4790 (1 of 3 entries)' "$tmp/vx6.out")" 2
grep -q 'static: 4789 (the IANA VXLAN port, always offloaded)' "$tmp/vx6.out" && ok "the static table in text" ||
	bad "no static table line: $(cat "$tmp/vx6.out")"
run vxs --sample=cx6dx-upstream vxlan -d enp59s0f1np1
run vxm --sample=cx6dx-upstream show vxlan -d enp59s0f1np1
cmp -s "$tmp/vxs.out" "$tmp/vxm.out" && [ -s "$tmp/vxs.out" ] && ok "show vxlan is vxlan" || bad "show vxlan differs"

echo "== packet-filter"
run pf5 --sample=cx5-ofed -j packet-filter -d enp94s0f0np0
check "cx5 PF0: the macvlan's unicast filter and the multicast list (fdb dump)" \
	"$(j pf5 '.ports[0] | [.address_lists_source, [.unicast_addresses[].address], [.multicast_addresses[].address], .promiscuous, .promiscuity_count]')" \
	'["rtnetlink",["02:c5:00:5e:aa:01"],["01:00:5e:00:00:01","33:33:00:00:00:01","33:33:ff:5e:00:00"],false,0]'
run pf6 --sample=cx6dx-upstream packet-filter -d enp59s0f1np1
grep -q 'promiscuous: yes (1 user)' "$tmp/pf6.out" && grep -q 'flags: UP,BROADCAST,MULTICAST,PROMISC' "$tmp/pf6.out" &&
	ok "cx6dx PF1: promiscuous, one user" || bad "cx6dx PF1: $(cat "$tmp/pf6.out")"
# without the fdb dump: the multicast list from /proc/net/dev_mcast, with counts
fresh nofdb cx5-ofed
rm "$tmp/nofdb/netlink/route/enp94s0f0np0/fdb-dump.nl"
run pfm --sysroot "$tmp/nofdb" -j packet-filter -d enp94s0f0np0
check "no fdb dump: dev_mcast's list, with its counts" \
	"$(j pfm '.ports[0] | [.address_lists_source, [.multicast_addresses[] | [.address, .users, .global]], .unicast_addresses]')" \
	'["/proc/net/dev_mcast",[["01:00:5e:00:00:01",1,true],["33:33:00:00:00:01",1,true],["33:33:ff:5e:00:00",1,false]],[]]'

echo "== irq"
run irq5 --sample=cx5-ofed -j irq
check "cx5: exit" "$rc" 0
grep -q "warning: 0000:5e:00.0: 1 of 12 completion IRQs run on CPUs outside NUMA node 1 (its CPUs: 20-39,60-79): IRQ 63" \
	"$tmp/irq5.err" && ok "the NUMA warning names PF0's IRQ 63" || bad "no NUMA warning: $(cat "$tmp/irq5.err")"
check "PF0's channel 2: IRQ 63 on CPU 2, not local; XPS follows" \
	"$(j irq5 '.devices[0].ports[0].channel_map[2] | [.irq, .cpus, .numa_local, .xps_cpus, .rps_cpus, .rss_entries]')" \
	'[63,"2",false,"2","",64]'
check "one remote completion IRQ on PF0, none on PF1" \
	"$(j irq5 '[.devices[].remote_completion_irqs]')" '[1,0]'
check "RSS from the ioctls of a 5.15 kernel: Toeplitz, 256 entries, 40-byte key, TCP hash fields" \
	"$(j irq5 '.devices[0].ports[0].rss | [.hash_function, .indirection_size, (.key_hex | length), (.flow_hash[] | select(.flow_type == "tcp4") | .hash_fields)]')" \
	'["toeplitz",256,99,["ip-src","ip-dst","l4-bytes-0-1","l4-bytes-2-3"]]'
check "SCTP is refused by mlx5: not in the flow hash" \
	"$(j irq5 '[.devices[0].ports[0].rss.flow_hash[].flow_type] | index("sctp4")')" null
run irq6 --sample=cx6dx-upstream irq --table -d enp59s0f0np0
check "cx6dx: no warning" "$(cat "$tmp/irq6.err")" ""
check "--table: 256 entries, 8 a line" "$(grep -cE '^ +[0-9]+: +0 +1 +2 +3 +0 +1 +2 +3$' "$tmp/irq6.out")" 32

echo "== dropless"
run dd6 --sample=cx6dx-upstream -j dropless
check "cx6dx: delay drop from mlx5_ib debugfs" \
	"$(j dd6 '[.devices[] | .delay_drop | [.timeout_usec, .timeout_events, .armed_rqs]]')" \
	'[[100000,3,2],[100000,0,0]]'
run dd5 --sample=cx5-ofed -j dropless
check "cx5-ofed: no debugfs there (says why), dropless_rq on PF0" \
	"$(j dd5 '.devices[0] | [.delay_drop, (.delay_drop_error | test("no delay_drop")), .ports[0].dropless_rq]')" \
	'[null,true,true]'

echo "== IPoIB on an Ethernet host: says so, exit 0"
for c in "ipoib" "ipoib pkeys" "dbg pkeys" "dbg ipoib-ep"; do
	# shellcheck disable=SC2086
	run ie --sample=cx5-ofed -j $c
	check "$c: exit 0, an empty list" "$rc $(jq -c '[.[]] | .[1]' "$tmp/ie.out")" "0 []"
	grep -q "no IPoIB interface: this host's ConnectX ports are Ethernet" "$tmp/ie.err" &&
		ok "$c: says why" || bad "$c: $(cat "$tmp/ie.err")"
done

echo "== IPoIB (cx5-ofed with port 2 in IB mode, gen/samples_views.py)"
fresh ib cx5-ofed
python3 "$TOP_SRCDIR/gen/samples_views.py" ipoib-overlay "$tmp/ib" || bad "the IPoIB overlay"
run ibs --sysroot "$tmp/ib" -j ipoib
check "ipoib: the parent and its child, with pkey and mode" \
	"$(j ibs '[.interfaces[] | [.netdev, .parent, .pkey, .ipoib_mode, .local_qpn]]')" \
	'[["ib0",null,65535,"datagram",2605],["ib0.8001","ib0",32769,"connected",2609]]'
run ibp --sysroot "$tmp/ib" dbg pkeys ib0
grep -q '^mlx5_1 port 1 (ib0):' "$tmp/ibp.out" && grep -qE '^1 +8001 +yes$' "$tmp/ibp.out" &&
	ok "dbg pkeys IF: mlxtool's PKey index and value" || bad "dbg pkeys: $(cat "$tmp/ibp.out")"
run ibpj --sysroot "$tmp/ib" -j ipoib pkeys
check "ipoib pkeys: the used entries of 128" \
	"$(j ibpj '.ports[0] | [.rdma_device, .port, .link_layer, .table_size, [.pkeys[] | [.index, .pkey, .full_member]]]')" \
	'["mlx5_1",1,"InfiniBand",128,[[0,65535,true],[1,32769,true]]]'
run ibe --sysroot "$tmp/ib" -j dbg ipoib-ep -r -m ib0
check "dbg ipoib-ep -r -m: no local table, the groups and the paths" \
	"$(j ibe '.interfaces[0] | [has("local_qpn"), [.multicast_groups[].gid], [.remote_paths[] | [.complete, .dlid, .rate]]]')" \
	'[false,["ff12:401b:ffff:0:0:0:ffff:ffff","ff12:401b:ffff:0:0:0:0:1"],[[true,18,"100.0 Gb/sec"],[false,null,null]]]'
run ibn --sysroot "$tmp/ib" ipoib pkeys nosuch0
check "an IF that is no IPoIB interface: exit 3" "$rc" 3

echo "== a snapshot replays the same"
for s in cx5-ofed cx6dx-upstream; do
	rm -rf "$tmp/snap-$s"
	"$MLXCLI" --sample=$s snapshot "$tmp/snap-$s" >/dev/null 2>&1 || bad "snapshot $s"
	for c in vxlan packet-filter "irq --table" dropless; do
		# shellcheck disable=SC2086
		"$MLXCLI" --sample=$s -j $c >"$tmp/a" 2>"$tmp/ae"
		# shellcheck disable=SC2086
		"$MLXCLI" --sysroot "$tmp/snap-$s" -j $c >"$tmp/b" 2>"$tmp/be"
		cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/ae" "$tmp/be" && ok "$s $c: the snapshot's output is the sample's" ||
			bad "$s $c: the snapshot differs: $(diff "$tmp/a" "$tmp/b" | head -3)"
	done
done
rm -rf "$tmp/snap-ib"
"$MLXCLI" --sysroot "$tmp/ib" snapshot "$tmp/snap-ib" >/dev/null 2>&1 || bad "snapshot of the IPoIB host"
for c in ipoib "ipoib pkeys" "ipoib endpoints"; do
	# shellcheck disable=SC2086
	"$MLXCLI" --sysroot "$tmp/ib" -j $c >"$tmp/a" 2>&1
	# shellcheck disable=SC2086
	"$MLXCLI" --sysroot "$tmp/snap-ib" -j $c >"$tmp/b" 2>&1
	cmp -s "$tmp/a" "$tmp/b" && ok "IPoIB $c: the snapshot's output is the capture's" ||
		bad "IPoIB $c: the snapshot differs: $(diff "$tmp/a" "$tmp/b" | head -3)"
done

echo "== a capture from before these views: says what it lacks, exit 0"
fresh old cx6dx-upstream
find "$tmp/old/netlink" \( -name 'tunnel-info-get.nl' -o -name 'rss-get.nl' -o -name 'ioctl-gr*' \
	-o -name 'fdb-dump.nl' -o -name 'getlink-dump.nl' \) -delete
rm -rf "$tmp/old/proc" "$tmp/old/sys/kernel/debug/mlx5/0000:3b:00.0/delay_drop"
for c in vxlan packet-filter irq dropless; do
	run old --sysroot "$tmp/old" -j $c
	check "$c on an older capture: exit 0" "$rc" 0
done
run old --sysroot "$tmp/old" -j irq
check "irq: RSS and IRQs say why" \
	"$(j old '.devices[0] | [(.irqs_error != null), (.ports[0].rss_error | test("capture has no RSS"))]')" '[false,true]'
run old --sysroot "$tmp/old" -j vxlan
check "vxlan: the tables say why" \
	"$(j old '[.ports[0].udp_tunnel_error | test("has no ethtool .tunnel-info-get. reply")]')" '[true]'
finish
