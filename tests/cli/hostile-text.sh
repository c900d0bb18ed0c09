#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a hostile capture makes mlxcli say (issue 29, items 8-10):
# terminal controls in a capture's values are escaped in text output and
# in messages as JSON escapes them; a permission problem is "permission
# denied", exit 5, not "not a captured system" or "not an MLNX_OFED
# driver"; a message that quotes the one before it comes out whole.
. "$(dirname "$0")/lib.sh"
ESC=$(printf '\033')
net=sys/devices/pci0000:5d/0000:5d:00.0/0000:5e:00.0/net/enp94s0f0np0

# item 8: an address ending in "clear the screen"
fresh esc cx5-ofed
printf '02:c5:00:5e:00:00\033[2J\n' >"$tmp/esc/$net/address"
for c in ports devices "sriov show" state; do
	# shellcheck disable=SC2086
	run t --sysroot "$tmp/esc" $c
	if grep -q "$ESC" "$tmp/t.out" "$tmp/t.err"; then
		bad "$c printed a raw ESC from the capture"
	else
		ok "$c: no raw control character (exit $rc)"
	fi
done
run t --sysroot "$tmp/esc" ports
grep -qF '02:c5:00:5e:00:00\x1b[2J' "$tmp/t.out" && ok "ports shows the escape as \\x1b" ||
	bad "ports: no \\x1b in: $(cat "$tmp/t.out")"
run j --sysroot "$tmp/esc" ports -j
grep -qF '02:c5:00:5e:00:00\u001B[2J' "$tmp/j.out" && ok "JSON keeps its \\u001B" || bad "JSON: $(cat "$tmp/j.out")"
# a netdev name with a control character reaches messages too
fresh esc2 cx5-ofed
run t --sysroot "$tmp/esc2" qosconfig dcqcn get -d "$(printf 'x\033]0;owned\007')"
grep -q "$ESC" "$tmp/t.err" && bad "an error message printed a raw ESC" || ok "messages escape controls (exit $rc)"

# item 10: a message quoting the one before it (valgrind: overlap in mempcpy)
fresh noieee cx5-ofed
rm "$tmp/noieee/netlink/route/enp94s0f1np1/ieee-get.nl"
run t --sysroot "$tmp/noieee" qosconfig trust pcp -d enp94s0f1np1
check "trust pcp without ieee-get.nl: exit" "$rc" 1
check "trust pcp without ieee-get.nl: message" "$(cat "$tmp/t.err")" \
	"mlxcli: error: cannot read the QoS settings of enp94s0f1np1: the capture '$tmp/noieee' has no route 'ieee-get' reply for 'enp94s0f1np1' (netlink/route/enp94s0f1np1/ieee-get.nl is missing); nothing was changed"

# item 9: permission problems, as another user
if [ "$(id -u)" = 0 ]; then
	priv_setup cx5-ofed
	cap=$PRIV/samples/cx5-ofed
	chmod 700 "$cap"
	as_nobody "$NOBODY_MLXCLI" --sysroot "$cap" devices >"$tmp/p.out" 2>"$tmp/p.err"
	check "an unreadable sysroot: exit" "$?" 5
	grep -q "permission denied" "$tmp/p.err" && ok "an unreadable sysroot says permission denied" ||
		bad "an unreadable sysroot: $(cat "$tmp/p.err")"
	chmod 755 "$cap"
	chmod 0 "$cap/sys/class/net"
	as_nobody "$NOBODY_MLXCLI" --sysroot "$cap" qosconfig dcqcn get -d 5e:00.0 >"$tmp/p.out" 2>"$tmp/p.err"
	check "an unreadable sys/class/net, dcqcn get: exit" "$?" 5
	grep -q "permission denied" "$tmp/p.err" && ok "dcqcn get says permission denied" ||
		bad "dcqcn get: $(cat "$tmp/p.err")"
	chmod 755 "$cap/sys/class/net"
else
	echo "  (not root: the permission checks need uid 65534 and are skipped)"
fi
finish
