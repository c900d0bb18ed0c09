#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# issue 27's child netdevs against the real kernel, in a private network
# namespace made here with a veth pair va <-> vb, `--any-netdev -d va`:
#   - a kernel with 8021q (the kernel lab's Debian 6.1 loads it on demand):
#     `vlan add 5 protocol 802.1ad egress-qos-map 3:3 5:6` makes va.5, as
#     `ip -d -j link` shows it (kind vlan, id, protocol, the egress map,
#     down); `vlan show` says what ip says; --dry-run makes nothing; an id
#     the port has, a name taken: exit 2, nothing made; `vlan del` without
#     --yes: exit 2, the VLAN stays; with --yes it is gone (the undo of the
#     add); a second del: exit 2; as uid 65534: exit 5, nothing made;
#   - a kernel without 8021q (this machine's may have none): `vlan add` is
#     refused by the kernel's own "Unknown device type", exit 4, nothing
#     made, and the message names the module;
#   - IPoIB: `ipoib add` on the veth is refused before anything is sent
#     (exit 4: no IPoIB interface), and the kernel, asked by ip for the same
#     child, refuses it too (without ib_ipoib: "Unknown device type"; with
#     it: ENODEV, ipoib_netlink.c ipoib_new_child_link); a child made and
#     deleted stays capture-only (tests/cli/netdevs.sh): no InfiniBand here.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
. "$(dirname "$0")/lib.sh"
need_root
need jq
need_no_connectx
make_netns mlxcli-nd
make_veth va vb
j() { jq -c "$2" "$1"; }
links() { ip -n "$ns" -j link show | jq -c '[.[].ifname] | sort'; }

if ip -n "$ns" link add link va name probe.7 type vlan id 7 2>"$tmp/probe.err"; then
	ip -n "$ns" link del probe.7
	have_vlan=1
else
	have_vlan=0
	echo "# this kernel has no VLANs ($(cat "$tmp/probe.err")): the refusal is checked"
fi
before=$(links)

if [ "$have_vlan" = 0 ]; then
	nsx "$MLXCLI" vlan add --any-netdev -d va 5 >"$tmp/a.out" 2>"$tmp/a.err"
	# the contract: a first write the kernel refuses as not supported,
	# nothing written, is exit 4 (cli_txn_exit)
	check "vlan add without 8021q: exit 4" $? 4
	grep -q "Unknown device type" "$tmp/a.err" && grep -q "8021q" "$tmp/a.err" &&
		ok "the kernel's words and the module named" || bad "message: $(cat "$tmp/a.err")"
	check "nothing made" "$(links)" "$before"
	nsx "$MLXCLI" -j vlan show --any-netdev -d va >"$tmp/s.json" 2>"$tmp/s.err"
	check "vlan show: exit 0, no VLAN" "$? $(j "$tmp/s.json" '[.ports[0].vlans, .ports[0].vlans_error]')" \
		'0 [[],null]'
	nsx "$MLXCLI" vlan del --any-netdev -d va 5 --yes >"$tmp/d.out" 2>"$tmp/d.err"
	check "vlan del of no VLAN: exit 2" $? 2
	grep -q "va has no VLAN 5" "$tmp/d.err" && ok "said: no VLAN 5" || bad "del: $(cat "$tmp/d.err")"
else
	echo "== vlan add"
	nsx "$MLXCLI" -j vlan add --any-netdev -d va 5 protocol 802.1ad egress-qos-map 3:3 5:6 \
		>"$tmp/a.json" 2>"$tmp/a.err"
	check "exit 0" $? 0
	check "the change record" "$(j "$tmp/a.json" '[.changes[] | [.setting, .old, .new, .changed]]')" \
		'[["vlan.5",null,"va.5",true]]'
	ip -n "$ns" -d -j link show va.5 >"$tmp/ip.json" 2>"$tmp/ip.err" || bad "ip: no va.5: $(cat "$tmp/ip.err")"
	echo "# ip -d -j link show va.5: $(jq -c '.[0].linkinfo' "$tmp/ip.json")"
	check "ip -d -j link: kind vlan, id 5, 802.1ad, on va, down" \
		"$(j "$tmp/ip.json" '.[0] | [.linkinfo.info_kind, .linkinfo.info_data.id, .linkinfo.info_data.protocol, .link, .operstate]')" \
		'["vlan",5,"802.1ad","va","DOWN"]'
	check "ip -d -j link: the egress map" \
		"$(j "$tmp/ip.json" '[.[0].linkinfo.info_data | (.egress_qos // .egress // [])[] | [.from, .to]]')" \
		'[[3,3],[5,6]]'
	echo "== vlan show"
	nsx "$MLXCLI" -j vlan show --any-netdev -d va >"$tmp/s.json" 2>"$tmp/s.err"
	check "exit 0" $? 0
	check "as ip says: name, id, protocol, state, MTU, egress map" \
		"$(j "$tmp/s.json" '.ports[0].vlans[] | [.netdev, .vlan, .vlan_protocol, .operstate, .mtu, [.egress_qos_map[] | [.skb_priority, .pcp]]]')" \
		"$(j "$tmp/ip.json" '.[0] | [.ifname, .linkinfo.info_data.id, .linkinfo.info_data.protocol, (.operstate | ascii_downcase), .mtu, [.linkinfo.info_data | (.egress_qos // .egress // [])[] | [.from, .to]]]')"
	echo "== refusals: nothing made"
	before=$(links)
	nsx "$MLXCLI" vlan add --any-netdev -d va 6 --dry-run >"$tmp/dr.out" 2>"$tmp/dr.err"
	check "--dry-run: exit 0" $? 0
	grep -q "vlan.6: none -> va.6" "$tmp/dr.out" && ok "--dry-run: the change shown" || bad "dry: $(cat "$tmp/dr.out")"
	check "--dry-run: nothing made" "$(links)" "$before"
	nsx "$MLXCLI" vlan add --any-netdev -d va 5 name other5 >"$tmp/dup.out" 2>"$tmp/dup.err"
	check "an id the port has: exit 2" $? 2
	grep -q "VLAN 5 already exists on va: 'va.5'" "$tmp/dup.err" && ok "said: already exists, its name" ||
		bad "dup: $(cat "$tmp/dup.err")"
	nsx "$MLXCLI" vlan add --any-netdev -d va 6 name vb >"$tmp/nm.out" 2>"$tmp/nm.err"
	check "a name taken: exit 2" $? 2
	check "nothing made" "$(links)" "$before"
	priv_setup
	nsx_nobody "$NOBODY_MLXCLI" vlan add --any-netdev -d va 6 >"$tmp/nb.out" 2>"$tmp/nb.err"
	check "as uid 65534: exit 5" "$nobody_rc" 5
	check "as uid 65534: nothing made" "$(links)" "$before"
	echo "== vlan del"
	nsx "$MLXCLI" vlan del --any-netdev -d va 5 </dev/null >"$tmp/d0.out" 2>"$tmp/d0.err"
	check "without --yes: exit 2" $? 2
	grep -q "drops the traffic on it: confirm with --yes" "$tmp/d0.err" && ok "said: confirm with --yes" ||
		bad "del: $(cat "$tmp/d0.err")"
	ip -n "$ns" link show va.5 >/dev/null 2>&1 && ok "va.5 stays" || bad "va.5 deleted without --yes"
	nsx "$MLXCLI" -j vlan del --any-netdev -d va 5 --yes >"$tmp/d.json" 2>"$tmp/d.err"
	check "with --yes: exit 0" $? 0
	check "the change record" "$(j "$tmp/d.json" '[.changes[] | [.setting, .old, .new]]')" '[["vlan.5","va.5",null]]'
	ip -n "$ns" link show va.5 >/dev/null 2>&1 && bad "va.5 still there" || ok "va.5 gone"
	nsx "$MLXCLI" vlan del --any-netdev -d va 5 --yes >"$tmp/d2.out" 2>"$tmp/d2.err"
	check "a second del: exit 2" $? 2
fi

echo "== ipoib"
before=$(links)
nsx "$MLXCLI" ipoib add --any-netdev -d va 0x8001 >"$tmp/i.out" 2>"$tmp/i.err"
check "ipoib add on a veth: exit 4" $? 4
grep -q "not supported on va: it is no IPoIB interface (link type 1" "$tmp/i.err" && ok "said: no IPoIB interface" ||
	bad "ipoib: $(cat "$tmp/i.err")"
check "nothing made" "$(links)" "$before"
if ip -n "$ns" link add link va name ibx type ipoib pkey 0x8001 2>"$tmp/ipk.err"; then
	bad "the kernel made an IPoIB child on a veth"
	ip -n "$ns" link del ibx 2>/dev/null
else
	echo "# the kernel refuses it too: $(cat "$tmp/ipk.err")"
	grep -q -E "Unknown device type|No such device" "$tmp/ipk.err" && ok "the kernel refuses the same child" ||
		bad "ip's refusal: $(cat "$tmp/ipk.err")"
fi
finish
