#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli link on both sample hosts (issue 18): the recorded LINKMODES, FEC,
# PAUSE and LINKSTATE replies decoded, and the verdict: an empty cage is
# "link down: no cable"; cx6dx PF1 trains at 50G under a 100G advertisement
# and counts FEC uncorrectables; a healthy port's verdict is empty.
. "$(dirname "$0")/lib.sh"
need jq

run c5 --sample -j link
[ "$rc" = 0 ] && ok "cx5 link exits 0" || bad "cx5 link: exit $rc $(cat "$tmp/c5.err")"
[ "$(jq -c '.port_links[0] | [.netdev, .link, .speed_mbps, .lanes, .duplex, .autoneg, (.supported_link_modes | length), .advertised_link_modes[-1]]' "$tmp/c5.out")" = \
	'["enp94s0f0np0",true,100000,4,"full",true,15,"100000baseLR4_ER4/Full"]' ] &&
	ok "cx5 PF0: speed, lanes, duplex, autoneg, modes" || bad "cx5 PF0: $(jq -c '.port_links[0]' "$tmp/c5.out")"
[ "$(jq -c '.port_links[0].fec | [.auto, .active, .corrected_blocks, .uncorrectable_blocks, (.per_lane | length), .per_lane[1].corrected_blocks]' "$tmp/c5.out")" = \
	'[true,"rs",1287,0,4,402]' ] && ok "cx5 PF0: FEC auto, RS, corrected per lane" || bad "cx5 FEC: $(jq -c '.port_links[0].fec' "$tmp/c5.out")"
[ "$(jq -c '.port_links[0].pause | [.autoneg, .rx, .tx, .rx_pause_frames, .tx_pause_frames]' "$tmp/c5.out")" = \
	'[false,true,true,1520,0]' ] && ok "cx5 PF0: pause and frames" || bad "cx5 pause: $(jq -c '.port_links[0].pause' "$tmp/c5.out")"
[ "$(jq -c '.port_links[0] | [.verdict, .healthy]' "$tmp/c5.out")" = '[[],true]' ] && ok "cx5 PF0 healthy" || bad "cx5 PF0 verdict"
[ "$(jq -c '.port_links[1] | [.link, .ext_state, .speed_mbps, .duplex, .verdict, .healthy]' "$tmp/c5.out")" = \
	'[false,"no cable",null,null,["link down: no cable"],false]' ] && ok "cx5 PF1: down, no cable" ||
	bad "cx5 PF1: $(jq -c '.port_links[1]' "$tmp/c5.out")"

run c6 --sample=cx6dx-upstream -j link -d enp59s0f1np1
[ "$(jq -c '.port_links[0].verdict' "$tmp/c6.out")" = \
	'["degraded speed: 50000 Mb/s, 100000 Mb/s advertised","FEC uncorrectable blocks: 12"]' ] &&
	ok "cx6dx PF1: degraded speed and FEC uncorrectables" || bad "cx6dx verdict: $(jq -c '.port_links[0]' "$tmp/c6.out")"
run t6 --sample=cx6dx-upstream link -d enp59s0f1np1
grep -q '^  verdict: degraded speed: 50000 Mb/s, 100000 Mb/s advertised; FEC uncorrectable blocks: 12$' "$tmp/t6.out" &&
	ok "text verdict" || bad "text verdict: $(grep verdict "$tmp/t6.out")"
grep -q '^    lane 2: corrected 91230, uncorrectable 5$' "$tmp/t6.out" && ok "text FEC per lane" || bad "text FEC lanes"
run n link -d nosuch
[ "$rc" = 3 ] && ok "unknown device: exit 3" || bad "unknown device: exit $rc"
finish
