#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mlxcli against the real kernel inside a private network namespace that
# this test makes (`ip netns add mlxcli-test-PID`, removed by a trap):
# `ip netns exec` mounts a sysfs of that namespace, so /sys/class/net there
# holds exactly lo and the veth pair the test creates.
#   - `ports` and `devices` ignore the veths (not ConnectX) and exit 0, in
#     text and JSON;
#   - `-d VETH devices` and `-d VETH ports` exit 3: a netdev that exists but
#     is not a ConnectX port;
#   - the same as uid 65534 inside the namespace.
# Root only (creating a namespace needs CAP_SYS_ADMIN): 77 otherwise.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
need jq
need_no_connectx
va=mlxva$$
vb=mlxvb$$
va=$(printf '%.15s' "$va")
vb=$(printf '%.15s' "$vb")
chmod 0777 "$MLXCLI_STATE_DIR"
chmod 0755 "$tmp"
make_netns mlxcli-test
make_veth "$va" "$vb"
mlx() {   # mlxcli ARGS in the namespace, as $who
	if [ "$who" = root ]; then nsx "$MLXCLI" "$@"; else nsx_nobody "$NOBODY_MLXCLI" "$@"; fi
}
nsx ip link set lo up
nsx ip addr add 192.0.2.1/24 dev "$va"

# the test really is in the namespace: its sysfs shows the veths
if nsx test -e "/sys/class/net/$va" && ! test -e "/sys/class/net/$va"; then
	echo "namespace $ns: $(nsx ls /sys/class/net | tr '\n' ' ')"
else
	bad "the veth $va is not (only) in the namespace's sysfs"
fi

checks() {
	who=$1
	echo "== as $who"
	for cmd in devices ports; do
		mlx "$cmd" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && grep -q "no ConnectX device was found" "$tmp/err" &&
		   ! grep -q "$va\|$vb" "$tmp/err"; then
			ok "$cmd: exit 0, the veths ignored"
		else
			bad "$who $cmd: exit $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")'"
		fi
		mlx -j "$cmd" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 0 ] && [ "$(jq -c ".$cmd" "$tmp/out")" = '[]' ]; then
			ok "-j $cmd: $(cat "$tmp/out")"
		else
			bad "$who -j $cmd: exit $rc, '$(cat "$tmp/out")'"
		fi
		for v in "$va" "$vb" lo; do
			mlx -d "$v" "$cmd" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			if [ "$rc" -eq 3 ] && [ ! -s "$tmp/out" ] && grep -q "no ConnectX device '$v'" "$tmp/err"; then
				ok "-d $v $cmd: exit 3"
			else
				bad "$who -d $v $cmd: exit $rc, stderr '$(cat "$tmp/err")'"
			fi
		done
	done
}

checks root
if command -v setpriv >/dev/null 2>&1; then
	priv_setup
	checks "uid 65534"
else
	echo "skipped the non-root part: setpriv not installed"
fi
finish
