#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate a synthetic captured host for the scale benchmarks: NPF ConnectX-6 Dx
PFs, each with NVF VFs enabled (default 16 x 127 = 2048 functions), in the
--sysroot format (see tests/data/samples/README.md).  Not committed: the
benchmark makes it in a temporary directory.

Each PF gets a config space with a PCIe capability (16GT/s x16) and an SR-IOV
capability, so mlxcli decodes the same structures it does on the samples;
every function gets a netdev and an RDMA device, like a host with all VFs
bound to mlx5_core.

    gen-big-host.py DIR [NPF [NVF]] [--counters=N]

--state also gives every PF the settings `mlxcli state` reads, as the
cx5-ofed sample host has them (gen/samples.py's writers): MLNX_OFED ecn/
DCQCN files, DCB netlink replies, its VFs in an RTM_NEWLINK reply and the
devlink eswitch mode, for the state and diff benchmarks.

--counters=N also gives every port N ethtool statistics (names as an mlx5 PF
has them), its netdev statistics/ and its RDMA hw_counters/ and counters/,
for the counters benchmark at scale.

--params also gives the host what `mlxcli params` reads, as the sample hosts
have it (gen/samples.py's write_params): one ethtool netlink dump per message
type (private flags, features, rings, channels, coalescing) for every port,
the devlink parameter dump of the PFs, mlx5_core's module parameters."""
import os
import struct
import sys


def w(path, data, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    os.chmod(path, mode)


def link(path, target):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def config(device, is_vf, numvfs):
    c = bytearray(4096)
    vid = 0xFFFF if is_vf else 0x15B3        # a VF reads FFFFh (SR-IOV spec)
    struct.pack_into("<HHHH", c, 0, vid, 0xFFFF if is_vf else device, 0x0406, 0x0010)
    c[0x0B] = 0x02                            # class: network controller
    c[0x0E] = 0x80
    struct.pack_into("<HH", c, 0x2C, 0x15B3, 0x0016)
    c[0x34] = 0x60
    # PCI Express v2 endpoint: LnkCap 16GT/s x16, LnkSta 16GT/s x16
    struct.pack_into("<BBH", c, 0x60, 0x10, 0x00, 0x0002)
    struct.pack_into("<I", c, 0x60 + 0x0C, 4 | (16 << 4))
    struct.pack_into("<H", c, 0x60 + 0x12, 4 | (16 << 4))
    if not is_vf:
        # SR-IOV extended capability at 0x180 (as the real mlx5 PFs have it)
        struct.pack_into("<I", c, 0x100, 0x01 | (1 << 16) | (0x180 << 20))   # AER -> SR-IOV
        s = 0x180
        struct.pack_into("<I", c, s, 0x10 | (1 << 16))
        struct.pack_into("<HHHHHBxHHxxH", c, s + 0x08, 0x19 if numvfs else 0, 0,
                         127, 127, numvfs, 0, 2, 1, 0x101E)
    return bytes(c)


def function(root, bdf, device, is_vf, numa, pf_bdf=None, numvfs=0, idx=0):
    d = f"{root}/sys/devices/pci0000:00/0000:00:01.0/{bdf}"
    for name, val in (("vendor", "0x15b3"), ("device", f"0x{device:04x}"),
                      ("subsystem_vendor", "0x15b3"), ("subsystem_device", "0x0016"),
                      ("class", "0x020000"), ("revision", "0x00"), ("irq", "0"),
                      ("numa_node", str(numa)), ("current_link_speed", "16.0 GT/s PCIe"),
                      ("current_link_width", "16"), ("max_link_speed", "16.0 GT/s PCIe"),
                      ("max_link_width", "16")):
        w(f"{d}/{name}", val + "\n")
    w(f"{d}/resource", "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 17)
    w(f"{d}/config", config(device, is_vf, numvfs))
    link(f"{d}/driver", "../../../../bus/pci/drivers/mlx5_core")
    link(f"{root}/sys/bus/pci/devices/{bdf}", f"../../../devices/pci0000:00/0000:00:01.0/{bdf}")
    ifname = f"eth{idx}"
    n = f"{d}/net/{ifname}"
    for name, val in (("operstate", "up"), ("carrier", "1"), ("speed", "100000"),
                      ("mtu", "1500"), ("ifindex", str(idx + 2)), ("dev_port", "0"),
                      ("address", f"02:00:00:{idx >> 16 & 255:02x}:{idx >> 8 & 255:02x}:{idx & 255:02x}")):
        w(f"{n}/{name}", val + "\n")
    link(f"{n}/device", f"../../../{bdf}")
    link(f"{root}/sys/class/net/{ifname}", f"../../devices/pci0000:00/0000:00:01.0/{bdf}/net/{ifname}")
    r = f"{d}/infiniband/mlx5_{idx}"
    w(f"{r}/fw_ver", "22.39.1002\n")
    w(f"{r}/board_id", "MT_0000000359\n")
    w(f"{r}/ports/1/gid_attrs/ndevs/0", ifname + "\n")
    w(f"{r}/ports/1/link_layer", "Ethernet\n")
    link(f"{root}/sys/class/infiniband/mlx5_{idx}", f"../../devices/pci0000:00/0000:00:01.0/{bdf}/infiniband/mlx5_{idx}")
    if is_vf:
        link(f"{d}/physfn", f"../{pf_bdf}")
    else:
        for name, val in (("sriov_totalvfs", "127"), ("sriov_numvfs", str(numvfs)),
                          ("sriov_offset", "2"), ("sriov_stride", "1"), ("sriov_vf_device", "101e")):
            w(f"{d}/{name}", val + "\n")


def load_gen_samples():
    """gen/samples.py as a module: the counter names and the
    netlink reply layouts the sample hosts use, not a second copy."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gen", "samples.py")
    # its own helpers (gen/samples_phy.py) import from its folder
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("gen_samples", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def counters(root, gs, ifname, ifindex, rdma, nstats):
    """Every counter source of one port: NSTATS ethtool statistics (an mlx5
    PF's names, with as many channels as it takes), the netdev statistics/
    files, RDMA hw_counters/ and counters/."""
    nch = 1
    while len(gs.ethtool_names(False, True, nch, [3], False)) < nstats:
        nch += 1
    names = gs.ethtool_names(False, True, nch, [3], False)[:nstats]
    vals = [(i * 7919 + ifindex) % 1000003 for i in range(len(names))]
    d = os.path.join(root, "netlink", "ethtool", ifname)
    w(os.path.join(d, "strset-stats.nl"), gs.strset_reply(names, ifname, ifindex))
    w(os.path.join(d, "stats-values.nl"), gs.stats_values_msg(ifname, vals))
    net = os.path.realpath(f"{root}/sys/class/net/{ifname}")
    for i, name in enumerate(gs.NETDEV_STATS):
        w(f"{net}/statistics/{name}", f"{i * 1000 + ifindex}\n")
    port = os.path.realpath(f"{root}/sys/class/infiniband/{rdma}") + "/ports/1"
    for i, name in enumerate(gs.HW_COUNTERS):
        w(f"{port}/hw_counters/{name}", f"{i + ifindex}\n")
    for i, name in enumerate(gs.IB_COUNTERS):
        w(f"{port}/counters/{name}", f"{i * 3 + ifindex}\n")


def settings(root, gs, pf, ifname, ifindex, nvf, first_vf_idx):
    """What `mlxcli state` reads of one PF, the cx5-ofed sample's values."""
    nd = os.path.realpath(f"{root}/sys/class/net/{ifname}")
    gs.write_ofed_ecn(nd)
    ets = gs.ieee_ets(gs.MLX5_PRIO_TC, [gs.TSA_ETS] * 6 + [gs.TSA_STRICT] * 2,
                      [20, 10, 10, 50, 5, 5, 0, 0])
    buf = gs.dcbnl_buffer([0, 0, 0, 1, 0, 0, 1, 0], [130944, 130944, 0, 0, 0, 0, 0, 0], 262016)
    apps = [(gs.APP_SEL_DSCP, d >> 3, d) for d in range(63, -1, -1)]
    dcbx = gs.DCBX_HOST | gs.DCBX_VER_IEEE
    d = os.path.join(root, "netlink", "route", ifname)
    w(os.path.join(d, "ieee-get.nl"),
      gs.dcb_ieee_get(ifname, ets, gs.ieee_pfc(1 << 3 | 1 << 6, 7), [0] * 8, buf, apps, dcbx))
    w(os.path.join(d, "gdcbx.nl"), gs.dcb_gdcbx(dcbx))
    vfs = []
    for v in range(nvf):
        i = first_vf_idx + v
        mac = f"02:00:00:{i >> 16 & 255:02x}:{i >> 8 & 255:02x}:{i & 255:02x}"
        vfs.append(gs.vf_info(v, mac, gs.CX5_VF_CONFIG[v % len(gs.CX5_VF_CONFIG)], [0] * 8))
    n = {"name": ifname, "ifindex": ifindex, "up": True,
         "mac": f"02:00:00:{ifindex - 2 >> 16 & 255:02x}:{ifindex - 2 >> 8 & 255:02x}:{ifindex - 2 & 255:02x}"}
    w(os.path.join(d, "getlink-vf.nl"), gs.rtm_newlink(n, vfs))
    w(os.path.join(root, "netlink", "devlink", "pci:" + pf, "eswitch-get.nl"),
      gs.devlink_eswitch(pf, 0))


def main():
    state = "--state" in sys.argv[1:]
    params = "--params" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if not a.startswith("--counters=") and a not in ("--state", "--params")]
    nstats = [int(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--counters=")]
    root = args[0]
    npf = int(args[1]) if len(args) > 1 else 16
    nvf = int(args[2]) if len(args) > 2 else 127
    os.makedirs(f"{root}/sys/bus/pci/drivers/mlx5_core", exist_ok=True)
    gs = load_gen_samples() if state or params else None
    idx = 0
    fns = []
    for p in range(npf):
        bus = 0x10 + p                       # one bus per PF; VFs follow on it (ARI)
        pf = f"0000:{bus:02x}:00.0"
        function(root, pf, 0x101D, False, p % 2, numvfs=nvf, idx=idx)
        fns.append({"bdf": pf, "vendor": 0x15b3, "netdevs": [{"name": f"eth{idx}", "ifindex": idx + 2}]})
        if state:
            settings(root, gs, pf, f"eth{idx}", idx + 2, nvf, idx + 1)
        idx += 1
        for v in range(nvf):
            rid = 2 + v                      # VF offset 2, stride 1
            vf = f"0000:{bus:02x}:{rid >> 3:02x}.{rid & 7}"
            function(root, vf, 0x101E, True, p % 2, pf_bdf=pf, idx=idx)
            fns.append({"bdf": vf, "vendor": 0x15b3, "physfn": pf,
                        "netdevs": [{"name": f"eth{idx}", "ifindex": idx + 2}]})
            link(f"{root}/sys/devices/pci0000:00/0000:00:01.0/{pf}/virtfn{v}", f"../{vf}")
            idx += 1
    if params:
        gs.write_params(root, "big", fns)
    if nstats:
        gs = load_gen_samples()
        for i in range(idx):
            counters(root, gs, f"eth{i}", i + 2, f"mlx5_{i}", nstats[0])
    w(f"{root}/mlxcli-snapshot.json",
      '{"schema_version": 1, "format": "mlxcli-sysroot", "format_version": 1, '
      f'"source": "tests/bench/gen-big-host.py {npf} {nvf}"}}\n')
    # the tree on disk before anyone times a read of it: right after it
    # is written, a readlink of a long link target waits on the ext4 block
    # being written back (ext4_get_link), which slowed a run's first rounds
    os.sync()
    print(f"{root}: {idx} functions")


if __name__ == "__main__":
    main()
