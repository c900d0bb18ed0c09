#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SR-IOV through mlxcli's own code on a real kernel driver: netdevsim in
# the kernel lab (its SR-IOV knob is /sys/bus/netdevsim/devices/
# netdevsimN/sriov_numvfs, its VF settings the rtnetlink IFLA_VF_* of its
# port, drivers/net/netdevsim/{bus,netdev}.c).  With --any-device -d
# naming the port's netdev:
#   - sriov show: the device (no PCI address), numvfs 0;
#   - sriov set numvfs 2 --yes: sysfs says 2; show lists VFs 0 and 1;
#   - sriov vf 1 set mac, vlan+qos, max-rate, spoofchk, trust, state: the
#     kernel's own view (ip -j link show) has each value;
#   - a set the kernel refuses half-way (netdevsim refuses a VF rate in
#     switchdev mode, after the trust before it was written) exits 1 and
#     leaves trust as it was (the writer's rollback);
#   - without --any-device the device is no ConnectX function: exit 3;
#   - sriov set numvfs 0 --yes: back to none.
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need ip jq devlink
make_nsim 1

run noflag sriov show -d "$nsim_if"
check "without --any-device: exit 3" "$rc" 3

run show0 -j sriov show --any-device -d "$nsim_if"
check "show: exit 0" "$rc" 0
check "show: no PCI address" "$(jq -c '[.pfs[0].pci_address]' "$tmp/show0.out" 2>/dev/null)" '[null]'
check "show: numvfs 0" "$(jq -c '.pfs[0].num_vfs' "$tmp/show0.out" 2>/dev/null)" 0
[ "$rc" -eq 0 ] || cat "$tmp/show0.err"

run set2 sriov set numvfs 2 --yes --any-device -d "$nsim_if"
check "set numvfs 2: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/set2.err"
check "set numvfs 2: sysfs" "$(cat "$nsim_dir/sriov_numvfs")" 2
run show2 -j sriov show --any-device -d "$nsim_if"
check "show: VFs 0 and 1" "$(jq -c '[.pfs[0].vfs[].vf]' "$tmp/show2.out" 2>/dev/null)" '[0,1]'

run vf1 sriov vf 1 set mac 02:00:00:00:01:01 vlan 10 qos 3 max-rate 200 spoofchk on trust on \
	state disable --any-device -d "$nsim_if"
check "vf 1 set: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/vf1.err"
ip -j link show "$nsim_if" >"$tmp/ip.json"
vf=$(jq -c '.[0].vfinfo_list[] | select(.vf == 1) |
	[.address, .vlan_list[0].vlan, .vlan_list[0].qos, .rate.max_tx, .spoofchk, .trust, .link_state]' \
	"$tmp/ip.json" 2>/dev/null)
check "vf 1: the kernel's view (ip -j link)" "$vf" '["02:00:00:00:01:01",10,3,200,true,true,"disable"]'

# A kernel refusal in the middle: in switchdev mode netdevsim refuses a VF
# rate (nsim_set_vf_rate, EOPNOTSUPP) after trust was written.
if devlink dev eswitch set "$nsim" mode switchdev 2>"$tmp/esw.err"; then
	run half sriov vf 0 set trust on max-rate 100 --any-device -d "$nsim_if"
	check "a refused rate: exit 1" "$rc" 1
	grep -q . "$tmp/half.err" && ok "said why: $(head -n 1 "$tmp/half.err")" || bad "no message"
	ip -j link show "$nsim_if" >"$tmp/ip0.json"
	check "vf 0: trust rolled back" "$(jq -c '.[0].vfinfo_list[] | select(.vf == 0) | .trust' "$tmp/ip0.json")" false
	devlink dev eswitch set "$nsim" mode legacy
else
	bad "cannot switch netdevsim to switchdev: $(cat "$tmp/esw.err")"
fi

run set0 sriov set numvfs 0 --yes --any-device -d "$nsim_if"
check "set numvfs 0: exit 0" "$rc" 0
check "set numvfs 0: sysfs" "$(cat "$nsim_dir/sriov_numvfs")" 0
finish
