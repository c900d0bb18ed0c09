#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli dbg pddrinfo --any-netdev` against the real kernel: a veth pair
# va <-> vb in a private network namespace made here.  The kernel answers
# ETHTOOL_MSG_LINKSTATE_GET for any netdev (net/ethtool/linkstate.c; veth
# has ethtool_op_get_link and no extended state), so this is the live code
# path: request built by lib/, sent over generic netlink, reply decoded.
#   - both ends up: link true, source ethtool-netlink, no ext state;
#   - vb down: va reports link false and no reason (the driver has none);
#   - both ends up again: link true; an unknown netdev: exit 3.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
need jq
make_netns mlxcli-pddr
make_veth va vb
# carrier_is N: wait (at most 5 s) until va's carrier reads N
carrier_is() {
	i=0
	while [ "$(nsx cat /sys/class/net/va/carrier 2>/dev/null)" != "$1" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# carrier comes with both ends up; give the kernel a moment
carrier_is 1

nsx "$MLXCLI" -j -d va dbg pddrinfo --any-netdev >"$tmp/up" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(jq -c '.ports[0] | [.netdev, .source, .link, .ext_state, .operstate, .note]' "$tmp/up")" = \
   '["va","ethtool-netlink",true,null,"up",null]' ]; then
	ok "va up over ethtool netlink"
elif grep -q 'no ethtool link state' "$tmp/err"; then
	echo "SKIP: this kernel has no ethtool netlink: $(cat "$tmp/err")"
	exit 77
else
	bad "up: exit $rc $(cat "$tmp/up" "$tmp/err")"
fi
[ ! -s "$tmp/err" ] || bad "stderr on the live path: $(cat "$tmp/err")"

ip -n "$ns" link set vb down
carrier_is 0
nsx "$MLXCLI" -j -d va dbg pddrinfo --any-netdev >"$tmp/down" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(jq -c '.ports[0] | [.source, .link, .ext_state, .ext_state_code]' "$tmp/down")" = \
  '["ethtool-netlink",false,null,null]' ] && ok "vb down: va link false, no reason from veth" ||
	bad "down: $(cat "$tmp/down" "$tmp/err")"
nsx "$MLXCLI" -d va dbg pddrinfo --any-netdev 2>&1 | grep -q '^va: link down (the driver gives no reason) \[ethtool netlink' &&
	ok "text: link down, no reason" || bad "down text: $(nsx "$MLXCLI" -d va dbg pddrinfo --any-netdev 2>&1)"
# vb itself is administratively down: the kernel still answers (link false)
nsx "$MLXCLI" -j -d vb dbg pddrinfo --any-netdev | jq -e '.ports[0].link == false and .ports[0].operstate == "down"' >/dev/null &&
	ok "vb (admin down): link false" || bad "vb"
ip -n "$ns" link set vb up
carrier_is 1
nsx "$MLXCLI" -j -d va dbg pddrinfo --any-netdev | jq -e '.ports[0].link == true' >/dev/null &&
	ok "up again" || bad "up again"
nsx "$MLXCLI" -d nosuch0 dbg pddrinfo --any-netdev >/dev/null 2>&1
[ $? -eq 3 ] && ok "no such netdev: exit 3" || bad "no such netdev"

finish
