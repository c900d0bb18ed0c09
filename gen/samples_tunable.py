# SPDX-License-Identifier: GPL-2.0-or-later
"""The knobs of issue 27's params sources "tunable" and "napi" on the sample
hosts, as `mlxcli snapshot` records them (lib/params/params-tunable.c):

  netlink/ethtool/<if>/ioctl-gtunable-3.bin  SIOCETHTOOL ETHTOOL_GTUNABLE of
      ETHTOOL_PFC_PREVENTION_TOUT (include/uapi/linux/ethtool.h: tunable 3,
      ETHTOOL_TUNABLE_U16): int32 result (0 or the positive errno), then on
      success struct ethtool_tunable {cmd, id, type_id, len} and the u16
      after it (KERNEL net/ethtool/ioctl.c ethtool_get_tunable copies the
      value right after the header; lib/backend/ethtool-record.c).
      mlx5 reads the PFCC register's device_stall_critical_watermark
      (KERNEL en_ethtool.c mlx5e_get_pfc_prevention_tout, port.c
      mlx5_query_port_stall_watermark) and stores auto as 100 ms
      (MLX5E_PFC_PREVEN_AUTO_TOUT_MSEC).  SYNTH values: cx5-ofed's PFs 100
      (set to auto: PFC is on there), cx6dx-upstream's PFs 0 (off).  A VF:
      -EOPNOTSUPP, the answer without the pcam pfcc_mask/stall_detect
      capabilities (an assumption: a VF has no access to its port's PFCC
      register, which mlx5 checks through MLX5_CAP_PCAM_FEATURE).
  sys/.../net/<if>/threaded                  threaded NAPI (KERNEL
      net/core/net-sysfs.c threaded_show "%d\\n", mode 0644, Linux 5.12, so
      on both samples' kernels): 0, the kernel's default; mlx5 never calls
      dev_set_threaded.
"""

import os
import struct

ETHTOOL_GTUNABLE = 0x00000048
ETHTOOL_PFC_PREVENTION_TOUT = 3
ETHTOOL_TUNABLE_U16 = 2
EOPNOTSUPP = 95


def write_tunables(root, hostname, fns, wfile, wval):
    tout = 100 if hostname.startswith("cx5-ofed") else 0       # SYNTH (see above)
    for f in sorted(fns, key=lambda f: f["bdf"]):
        if f["vendor"] != 0x15b3 or not f.get("netdevs"):
            continue
        pf = not f.get("physfn")
        d = os.path.join(root, "sys", f["path"])
        for n in f["netdevs"]:
            wval(os.path.join(d, "net", n["name"], "threaded"), 0, 0o644)
            p = os.path.join(root, "netlink", "ethtool", n["name"], "ioctl-gtunable-%d.bin"
                             % ETHTOOL_PFC_PREVENTION_TOUT)
            if pf:
                body = struct.pack("<IIIIH", ETHTOOL_GTUNABLE, ETHTOOL_PFC_PREVENTION_TOUT,
                                   ETHTOOL_TUNABLE_U16, 2, tout)
                wfile(p, struct.pack("<i", 0) + body, 0o644)
            else:
                wfile(p, struct.pack("<i", EOPNOTSUPP), 0o644)
