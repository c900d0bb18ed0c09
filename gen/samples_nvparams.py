#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Firmware NV settings over a copy of cx6dx-upstream (issue 27), for the
tests of `params set`, `state`, `apply` and `diff` of devlink parameters in
configuration mode permanent:

    python3 gen/samples_nvparams.py nv-overlay DIR

mlx5 registers enable_sriov, total_vfs and cqe_compress_type (cmode
permanent) on a PF from
Linux 6.17 (KERNEL drivers/net/ethernet/mellanox/mlx5/core/lib/nv_param.c
mlx5_nv_param_register_dl_params: PFs only); the sample hosts' kernels
(5.15, 6.1) predate them, so the samples stay as captured and this overlay
adds them to the recorded DEVLINK_CMD_PARAM_GET dump of the PF
0000:3b:00.0, laid out as net/devlink sends them (gen/samples.py
dl_param).  SYNTH: the values, enable_sriov true, total_vfs 8 (the
sample's sriov_totalvfs), cqe_compress_type balanced.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import samples as gs  # noqa: E402

PERMANENT = 2   # KERNEL include/uapi/linux/devlink.h DEVLINK_PARAM_CMODE_PERMANENT


def nv_overlay(root, bdf="0000:3b:00.0"):
    path = os.path.join(root, "netlink", "devlink", "all", "param-dump.nl")
    with open(path, "rb") as f:
        data = f.read()
    done = gs.nlmsg_done()
    if not data.endswith(done):
        raise SystemExit("%s: the dump does not end with NLMSG_DONE" % path)
    add = gs.dl_param(bdf, "enable_sriov", True, gs.PT_BOOL, PERMANENT, True)
    add += gs.dl_param(bdf, "total_vfs", True, gs.PT_U32, PERMANENT, 8)
    # a driver-specific one, a string: cqe_compress_type (lib/nv_param.c)
    add += gs.dl_param(bdf, "cqe_compress_type", False, gs.PT_STRING, PERMANENT, "balanced")
    # one mlxcli's catalogue does not know, as a newer kernel may list it:
    # max_sfs (u32, permanent: the SFs a PF offers), posted for mlx5 on
    # netdev in 2025 (lib/nv_param.c mlx5_devlink_max_sfs_get/set); SYNTH 0
    add += gs.dl_param(bdf, "max_sfs", True, gs.PT_U32, PERMANENT, 0)
    os.chmod(path, 0o644)   # a copy of the read-only tree (distcheck)
    with open(path, "wb") as f:
        f.write(data[:-len(done)] + add + done)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "nv-overlay":
        nv_overlay(sys.argv[2])
    else:
        sys.exit("usage: samples_nvparams.py nv-overlay DIR (a copy of tests/data/samples/cx6dx-upstream)")
