#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sriov/fw/pci against the real kernel of this machine (no ConnectX here):
# no device -> exit 0 and an empty JSON list; -d on a missing device -> 3.
# As root, in a private network namespace with a veth pair: -d vethX is not
# a ConnectX function (exit 3), and the netlink code path runs for real
# through `snapshot` (rtnetlink, devlink present or absent), without a crash.
set -u
. "$(dirname "$0")/lib.sh"
need jq

if "$MLXCLI" -j devices | jq -e '.devices | length > 0' >/dev/null 2>&1; then
	echo "# SKIP: this machine has ConnectX functions; the no-device checks do not apply"
	exit 77
fi
out=$("$MLXCLI" -j sriov show); check "sriov show exit 0" $? 0
check "empty JSON list" "$(echo "$out" | jq -c .pfs)" '[]'
"$MLXCLI" sriov show 2>&1 >/dev/null | grep -q 'no ConnectX device' && ok "says so" || bad "says so"
"$MLXCLI" sriov show -d 0000:77:00.0 2>/dev/null; check "missing device exit 3" $? 3
check "fw: empty list" "$("$MLXCLI" -j fw | jq -c .firmware)" '[]'
check "pci: empty list" "$("$MLXCLI" -j pci show | jq -c .pci)" '[]'

if [ "$(id -u)" != 0 ] || ! unshare -n true 2>/dev/null; then
	echo "# SKIP: not root or no unshare -n: the namespace checks need both"
	finish
fi
dir=$tmp
# shellcheck disable=SC2016
unshare -n sh -c '
	ip link add mlxv0 type veth peer name mlxv1 || exit 99
	ip link set mlxv0 up
	"$1" sriov show -d mlxv0 2>"$2/err"; echo $? >"$2/rc"
	"$1" -j sriov show >"$2/show.json"; echo $? >"$2/rc2"
	"$1" sriov vf -d mlxv0 0 set trust on 2>/dev/null; echo $? >"$2/rc3"
' sh "$MLXCLI" "$dir"
check "veth is not ConnectX: exit 3" "$(cat "$dir/rc")" 3
grep -q "mlxv0" "$dir/err" && ok "message names the device" || bad "message names the device"
check "show in netns exit 0" "$(cat "$dir/rc2")" 0
check "write to veth refused: exit 3" "$(cat "$dir/rc3")" 3
# The live netlink path: the unit-level C harness below talks rtnetlink and
# devlink for real (RTM_GETLINK with RTEXT_FILTER_VF on the veth, devlink
# INFO_GET on a device that is not there).
if [ -x "${TOP_BUILDDIR:-.}/tests/kernel/nl-live" ]; then
	unshare -n sh -c 'ip link add mlxv0 type veth peer name mlxv1 && "$1"' sh \
		"${TOP_BUILDDIR:-.}/tests/kernel/nl-live" && ok "nl-live" || bad "nl-live"
fi
finish
