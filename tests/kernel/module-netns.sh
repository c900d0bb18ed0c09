#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli module --any-netdev` against the real kernel (issue 18): a veth
# pair in a private network namespace made here.  The request is built by
# lib/phy/module.c and sent over generic netlink; the kernel answers
# ETHTOOL_MSG_MODULE_EEPROM_GET for a veth with -EOPNOTSUPP (veth has no
# module EEPROM ops: net/ethtool/eeprom.c), as a kernel before 5.13 answers
# for every device (no such command); so the SIOCETHTOOL fallback runs
# next (ETHTOOL_GMODULEINFO through the boundary: -EOPNOTSUPP on a veth
# too), and the answer is "no module", exit 4, in text and JSON, the
# message naming both; an unknown interface is exit 3.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
need jq
make_netns mlxcli-module
make_veth va vb

nsx "$MLXCLI" -d va module --any-netdev >"$tmp/out" 2>"$tmp/err"
rc=$?
if grep -q 'no ethtool\|Unknown family\|does not have' "$tmp/err" && [ $rc -ne 4 ]; then
	echo "SKIP: this kernel has no ethtool netlink module EEPROM: $(cat "$tmp/err")"
	exit 77
fi
[ $rc -eq 4 ] && grep -q "^mlxcli: error: no module on 'va'" "$tmp/err" &&
	ok "veth: no module, exit 4" || bad "veth text: exit $rc: $(cat "$tmp/out" "$tmp/err")"
grep -q "neither over ethtool netlink nor SIOCETHTOOL" "$tmp/err" &&
	ok "veth: the ioctl fallback asked too" || bad "veth: no ioctl fallback: $(cat "$tmp/err")"
nsx "$MLXCLI" -j -d va module --any-netdev >"$tmp/j" 2>"$tmp/err"
rc=$?
[ $rc -eq 4 ] && ok "veth JSON: exit 4" || bad "veth JSON: exit $rc"
nsx "$MLXCLI" -d nosuch0 module --any-netdev >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "no network interface 'nosuch0'" "$tmp/err" && ok "unknown netdev: exit 3" ||
	bad "unknown netdev: exit $rc $(cat "$tmp/err")"
# its link settings through LINKMODES_GET (veth_get_link_ksettings: 10G,
# full duplex, autoneg off); FEC and pause: the kernel's -EOPNOTSUPP, each
# null with its error, and the command still succeeds
nsx "$MLXCLI" -j -d va link --any-netdev >"$tmp/l" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(jq -c '.port_links[0] | [.netdev, .link, .speed_mbps, .duplex, .autoneg, .fec.active, .fec.error, .pause.rx, .pause.error, .healthy]' "$tmp/l")" = \
	'["va",true,10000,"full",false,null,"not supported by the driver",null,"not supported by the driver",true]' ] &&
	ok "veth link: 10G full, no autoneg; FEC and pause not supported" || bad "veth link: exit $rc $(cat "$tmp/l" "$tmp/err")"
# link writes the driver refuses (veth has no set_link_ksettings, no FEC
# and no pause ops): nothing was changed, and the driver lacks it, so
# exit 4 as the read of a missing setting says, not 1 (a failed write)
for w in "speed 1000" "fec rs" "pause rx on"; do
	nsx "$MLXCLI" -d va link set --any-netdev --yes $w >"$tmp/o" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 4 ] && grep -q "not supported by the driver" "$tmp/err" && grep -q "nothing was changed" "$tmp/err" &&
		ok "veth link set $w: not supported, exit 4" || bad "veth link set $w: exit $rc $(cat "$tmp/o" "$tmp/err")"
done
[ "$(nsx "$MLXCLI" -j -d va link --any-netdev | jq -c '.port_links[0] | [.speed_mbps, .autoneg]')" = '[10000,false]' ] &&
	ok "veth link after the refused writes: unchanged" || bad "veth link changed by a refused write"
ip -n "$ns" link set vb down
i=0
while [ "$(nsx cat /sys/class/net/va/carrier 2>/dev/null)" != 0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
nsx "$MLXCLI" -j -d va link --any-netdev | jq -e '.port_links[0] | .link == false and .healthy == false and (.verdict[0] | startswith("link down"))' >/dev/null &&
	ok "veth peer down: link false, verdict link down" || bad "veth down: $(nsx "$MLXCLI" -j -d va link --any-netdev)"
nsx "$MLXCLI" -d nosuch0 link --any-netdev >/dev/null 2>&1
[ $? -eq 3 ] && ok "link: unknown netdev exit 3" || bad "link unknown netdev"
# without --any-netdev a veth is not a ConnectX port: exit 3, as everywhere
nsx "$MLXCLI" -d va module >/dev/null 2>&1
[ $? -eq 3 ] && ok "veth without --any-netdev: exit 3" || bad "veth without --any-netdev"
finish
