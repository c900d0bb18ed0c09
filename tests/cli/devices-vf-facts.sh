#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 28: `devices` takes two facts of an mlx5 VF from its PF instead of
# the VF's own files (lib/device/device.c, scan_rdma): its RDMA device's
# fw_ver and board_id (the adapter's one firmware answers both for every
# function), and its RDMA port 1's netdev (a VF joins no RoCE LAG, so the
# port is the VF's one netdev).  Only where that holds: each case below
# breaks one condition on a host of 2 PFs x 3 VFs (tests/bench/
# gen-big-host.py) and checks that the VF's own files are read again.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need python3 jq

H=$tmp/host
python3 "$TOP_SRCDIR/tests/bench/gen-big-host.py" "$H" 2 3 >/dev/null || { bad "gen-big-host.py 2 3"; finish; }
D=$H/sys/devices/pci0000:00/0000:00:01.0
# functions: 0000:10:00.0 (eth0, mlx5_0), its VFs 10:00.2-10:00.4 (eth1-3,
# mlx5_1-3); 0000:11:00.0 (eth4, mlx5_4), its VFs 11:00.2-11:00.4 (eth5-7)

# fact BDF FILTER: FILTER applied to function BDF of `devices -j`
fact() {
	"$MLXCLI" --sysroot "$H" -j devices |
		jq -c --arg b "$1" ".devices[] | select(.pci_address == \$b) | $2"
}

check "a VF's firmware and PSID as its PF's" \
	"$(fact 0000:10:00.3 '[.fw_version, .fw_version_source, .psid]')" \
	'["22.39.1002","sysfs","MT_0000000359"]'
check "a VF's port: its netdev, its RDMA device's port 1" \
	"$(fact 0000:10:00.3 '.ports | map([.netdev, .rdma_device, .rdma_port])')" \
	'[["eth2","mlx5_2",1]]'

# The PF is the source: a VF's own fw_ver is not what is shown while its
# PF's RDMA device answers (the same firmware; a capture that says
# otherwise was taken across a firmware reset).
printf '22.40.1000\n' >"$D/0000:10:00.3/infiniband/mlx5_2/fw_ver"
check "a VF's own fw_ver file is not read while its PF's RDMA device has one" \
	"$(fact 0000:10:00.3 .fw_version)" '"22.39.1002"'

# The PF of bus 0x11 has no RDMA device (mlx5_ib not bound to it): its VFs'
# own files answer.
rm -rf "$D/0000:11:00.0/infiniband" "$H/sys/class/infiniband/mlx5_4"
printf '22.41.1010\n' >"$D/0000:11:00.3/infiniband/mlx5_6/fw_ver"
printf 'MT_0000000999\n' >"$D/0000:11:00.3/infiniband/mlx5_6/board_id"
check "a VF whose PF has no RDMA device reads its own fw_ver and board_id" \
	"$(fact 0000:11:00.3 '[.fw_version, .psid]')" '["22.41.1010","MT_0000000999"]'
check "the PF without an RDMA device shows none" "$(fact 0000:11:00.0 .fw_version)" null

# A VF with a second netdev: its RDMA port names which one it is
# (gid_attrs/ndevs/0), so the file is read.
mkdir -p "$D/0000:10:00.4/net/ethx"
for f in operstate speed; do
	cp "$D/0000:10:00.4/net/eth3/$f" "$D/0000:10:00.4/net/ethx/$f"
done
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:10:00.4/net/ethx "$H/sys/class/net/ethx"
printf 'ethx\n' >"$D/0000:10:00.4/infiniband/mlx5_3/ports/1/gid_attrs/ndevs/0"
check "a VF with two netdevs: port 1 is the one its RDMA port names" \
	"$(fact 0000:10:00.4 '.ports | map([.netdev, .rdma_device])')" '[["eth3",null],["ethx","mlx5_3"]]'

# A VF beyond its PF's sriov_numvfs is not one its PF's SR-IOV capability
# accounts for (link_vfs finds its PF by its physfn link then): its own
# files answer.
printf '2\n' >"$D/0000:10:00.0/sriov_numvfs"
printf '22.42.1000\n' >"$D/0000:10:00.4/infiniband/mlx5_3/fw_ver"
check "a VF its PF does not count reads its own fw_ver" "$(fact 0000:10:00.4 .fw_version)" \
	'"22.42.1000"'
finish
