#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The UDP tunnel port table through mlxcli's own code on a real kernel
# driver: netdevsim's (drivers/net/netdevsim/udp_tunnels.c: table 0 of 4
# VXLAN entries, table 1 of 4 GENEVE and VXLAN-GPE entries; the core's
# net/ipv4/udp_tunnel_nic.c fills them as tunnel devices open) in the
# kernel lab, with --any-netdev -d naming its port:
#   - with no tunnel device: both tables, their sizes and types, empty, as
#     ethtool --show-tunnels (ETHTOOL_MSG_TUNNEL_INFO_GET) shows them;
#   - after a VXLAN device with dstport 4790 on the port and a GENEVE
#     device with dstport 6081: each port in its table, as ethtool shows
#     it and as netdevsim's own debugfs table0/table1 hold it (the port in
#     the upper 16 bits, the type below), the VXLAN device listed with its
#     UDP port, VNI and lower device;
#   - once the VXLAN device is deleted: its port gone from the table.
# mlx5's tables (a static IANA entry, 3 free entries) stay on the samples.
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need jq ethtool ip
make_nsim 1
ip link set "$nsim_if" up

# ethtool --show-tunnels's tables: [[size, "type,type", [ports]], ...]
et() {
	ethtool --show-tunnels "$nsim_if" | tr -s ' ' | awk '
		BEGIN { printf "[" }
		/UDP port table/ { if (t++) printf "]],"; printf "[" ; np = 0 }
		/Size:/ { printf "%s", $2 }
		/Types:/ { sub(/^ *Types: */, ""); gsub(/ /, ""); printf ",\"%s\",[", $0 }
		/^ *port [0-9]+/ { p = $2; sub(/,/, "", p); printf "%s%s", (np++ ? "," : ""), p }
		END { if (t) printf "]]"; print "]" }'  | jq -c .
}
ml() {
	jq -c '[.ports[0].udp_tunnel_tables[] | [.size, (.tunnel_types | join(",")),
		[.entries[].udp_port]]]' "$1"
}
# netdevsim's own record: the ports its set_port callback was given
dbg_ports() {
	for t in 0 1; do
		tr ' ' '\n' <"$nsim_dbg/ports/0/udp_ports/table$t" | awk '$1 > 0 { print int($1 / 65536) }'
	done | sort -n | tr '\n' ' '
}

ethtool --show-tunnels "$nsim_if" >"$tmp/et0" 2>&1 || { bad "ethtool --show-tunnels $nsim_if: $(cat "$tmp/et0")"; finish; }
cat "$tmp/et0"
run v0 -j vxlan --any-netdev -d "$nsim_if"
check "vxlan: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/v0.err"
check "vxlan: offload reported" "$(jq -c '.ports[0].udp_tunnel_offload' "$tmp/v0.out" 2>/dev/null)" true
check "vxlan: the tables as ethtool --show-tunnels shows them (empty)" "$(ml "$tmp/v0.out" 2>/dev/null)" "$(et)"

vx=vxl$$ gn=gnv$$
ip link add "$vx" type vxlan id 42 dstport 4790 dev "$nsim_if" || { bad "cannot add a vxlan device"; finish; }
on_exit="ip link del $vx 2>/dev/null; ip link del $gn 2>/dev/null; $on_exit"
ip link set "$vx" up
ip link add "$gn" type geneve external dstport 6081 && ip link set "$gn" up ||
	bad "cannot add a geneve device"
ethtool --show-tunnels "$nsim_if"
echo "netdevsim's debugfs tables hold: $(dbg_ports)"
run v1 -j vxlan --any-netdev -d "$nsim_if"
check "vxlan with tunnels: exit 0" "$rc" 0
check "vxlan with tunnels: as ethtool --show-tunnels shows them" "$(ml "$tmp/v1.out" 2>/dev/null)" "$(et)"
check "... 4790 in the vxlan table, 6081 in the geneve one" \
	"$(jq -c '[.ports[0].udp_tunnel_tables[] | [.entries[] | [.udp_port, .tunnel_type]]]' "$tmp/v1.out")" \
	'[[[4790,"vxlan"]],[[6081,"geneve"]]]'
check "... the ports netdevsim's driver was given" \
	"$(jq -r '[.ports[0].udp_tunnel_tables[].entries[].udp_port] | sort | map(tostring) | join(" ")' \
	"$tmp/v1.out") " "$(dbg_ports)"
check "... the vxlan device on this port" \
	"$(jq -c --arg v "$vx" '[.vxlan_netdevs[] | select(.netdev == $v) | .udp_port, .vni, .up]' "$tmp/v1.out")" \
	'[4790,42,true]'
check "... listed with the port" "$(jq -c --arg v "$vx" '.ports[0].vxlan_netdev_names | index($v) != null' \
	"$tmp/v1.out")" true
run vt vxlan --any-netdev -d "$nsim_if"
grep -q '4790 (1 of 4 entries)' "$tmp/vt.out" && ok "vxlan (text): 4790 (1 of 4 entries)" ||
	bad "vxlan (text): $(cat "$tmp/vt.out")"

ip link del "$vx"
run v2 -j vxlan --any-netdev -d "$nsim_if"
check "vxlan device deleted: its port gone, as ethtool shows" "$(ml "$tmp/v2.out" 2>/dev/null)" "$(et)"
check "... only geneve's left" "$(jq -c '[.ports[0].udp_tunnel_tables[].entries[].udp_port]' "$tmp/v2.out")" '[6081]'
finish
