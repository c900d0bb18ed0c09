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

: "${MLXCLI:?MLXCLI must name the binary under test}"

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root to create a network namespace"
	exit 77
fi
for tool in ip jq; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIP: $tool not installed"
		exit 77
	fi
done
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor" 2>/dev/null)" = 0x15b3 ]; then
		echo "SKIP: this machine has a Mellanox/NVIDIA function ($(basename "$d")); the test expects none"
		exit 77
	fi
done

ns=mlxcli-test-$$
va=mlxva$$
vb=mlxvb$$
va=$(printf '%.15s' "$va")
vb=$(printf '%.15s' "$vb")
MLXCLI_STATE_DIR=$(mktemp -d) || exit 1
export MLXCLI_STATE_DIR
chmod 0777 "$MLXCLI_STATE_DIR"
tmp=$(mktemp -d) || exit 1
chmod 0755 "$tmp"
trap 'ip netns del "$ns" 2>/dev/null; rm -rf "$MLXCLI_STATE_DIR" "$tmp"' EXIT INT TERM
fail=0

bad() {
	echo "FAIL: $*"
	fail=1
}

if ! ip netns add "$ns" 2>"$tmp/err"; then
	echo "SKIP: cannot create a network namespace: $(cat "$tmp/err")"
	exit 77
fi
in_ns() {
	ip netns exec "$ns" "$@"
}
if ! in_ns ip link add "$va" type veth peer name "$vb" 2>"$tmp/err"; then
	echo "SKIP: cannot create a veth pair (no veth module?): $(cat "$tmp/err")"
	exit 77
fi
in_ns ip link set lo up
in_ns ip link set "$va" up
in_ns ip link set "$vb" up
in_ns ip addr add 192.0.2.1/24 dev "$va"

# the test really is in the namespace: its sysfs shows the veths
if in_ns test -e "/sys/class/net/$va" && ! test -e "/sys/class/net/$va"; then
	echo "namespace $ns: $(in_ns ls /sys/class/net | tr '\n' ' ')"
else
	bad "the veth $va is not (only) in the namespace's sysfs"
fi

checks() {
	who=$1
	shift
	echo "== as $who"
	for cmd in devices ports; do
		in_ns "$@" "$MLXCLI" "$cmd" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && grep -q "no ConnectX device was found" "$tmp/err" &&
		   ! grep -q "$va\|$vb" "$tmp/err"; then
			echo "  ok: $cmd: exit 0, the veths ignored"
		else
			bad "$who $cmd: exit $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")'"
		fi
		in_ns "$@" "$MLXCLI" -j "$cmd" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 0 ] && [ "$(jq -c ".$cmd" "$tmp/out")" = '[]' ]; then
			echo "  ok: -j $cmd: $(cat "$tmp/out")"
		else
			bad "$who -j $cmd: exit $rc, '$(cat "$tmp/out")'"
		fi
		for v in "$va" "$vb" lo; do
			in_ns "$@" "$MLXCLI" -d "$v" "$cmd" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			if [ "$rc" -eq 3 ] && [ ! -s "$tmp/out" ] && grep -q "no ConnectX device '$v'" "$tmp/err"; then
				echo "  ok: -d $v $cmd: exit 3"
			else
				bad "$who -d $v $cmd: exit $rc, stderr '$(cat "$tmp/err")'"
			fi
		done
	done
}

checks root
if command -v setpriv >/dev/null 2>&1; then
	checks "uid 65534" setpriv --reuid=65534 --regid=65534 --clear-groups
else
	echo "skipped the non-root part: setpriv not installed"
fi

if [ "$fail" -ne 0 ]; then
	echo "FAIL"
	exit 1
fi
echo "PASS"
exit 0
