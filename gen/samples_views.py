# SPDX-License-Identifier: GPL-2.0-or-later
"""The views of issue 27 on the sample hosts, as `mlxcli snapshot` records
them (lib/netview.h):

  netlink/ethtool/<if>/tunnel-info-get.nl   ETHTOOL_MSG_TUNNEL_INFO_GET reply
      (KERNEL net/ethtool/tunnels.c ethnl_tunnel_info_fill_reply).  mlx5
      declares one table of mlx5_vxlan_max_udp_ports() - 1 VXLAN ports (the
      capability's default 4: 3) and UDP_TUNNEL_NIC_INFO_STATIC_IANA_VXLAN,
      so a second table of size 1 without types holds 4789 (KERNEL
      mlx5/core/en_main.c mlx5e_vxlan_set_netdev_info); a VF has no
      udp_tunnel_nic_info (mlx5_vxlan_allowed: PF only) and gets the error
      with its extack text.
  netlink/ethtool/<if>/rss-get.nl           ETHTOOL_MSG_RSS_GET does not exist
      on either sample's kernel (5.15, 6.1; it came in 6.4): the reply is
      the error generic netlink gives for an unknown command (-EOPNOTSUPP),
      and the RSS is in the ioctls mlxcli asks then:
  netlink/ethtool/<if>/ioctl-grssh.bin      ETHTOOL_GRSSH: struct ethtool_rxfh,
      256 indirection entries (KERNEL mlx5 en.h MLX5E_INDIR_RQT_SIZE on
      these kernels), each channel in turn (mlx5e_build_default_indir_rqt),
      a 40-byte Toeplitz key (netdev_rss_key_fill; SYNTH bytes)
  netlink/ethtool/<if>/ioctl-grxfh-<N>.bin  ETHTOOL_GRXFH per flow type:
      mlx5's defaults, IP addresses and both ports for TCP/UDP, the
      addresses for IPv4/IPv6 (en_fs_ethtool.c mlx5e_get_rss_hash_opt); SCTP
      is refused (-EINVAL)
  netlink/route/<if>/getlink-linkinfo.nl    RTM_NEWLINK with the counts the
      packet filter reads (IFLA_PROMISCUITY, IFLA_ALLMULTI, queue counts)
  netlink/route/<if>/fdb-dump.nl            the PF_BRIDGE fdb dump of a port
      that is no bridge port: its unicast and multicast lists (KERNEL
      net/core/rtnetlink.c ndo_dflt_fdb_dump, nlmsg_populate_fdb_fill)
  netlink/route/all/getlink-dump.nl         the link dump with the VXLAN
      netdev the tunnel tables are there for
  proc/net/dev_mcast                        the multicast lists with counts
  proc/irq/<N>/..., <BDF>/msi_irqs/<N>      each function's MSI-X vectors: one
      async vector, then one completion vector per possible channel
      ("mlx5_async0", "mlx5_comp<N>", "@pci:<BDF>": KERNEL mlx5/core/
      pci_irq.c irq_set_name on 5.15 and 6.1)
  <netdev>/queues/{tx,rx}-<N>/{xps,rps}_cpus   XPS as mlx5 sets it (channel N
      on the CPU of its vector, en_main.c mlx5e_set_default_xps_cpumasks),
      RPS off; bitmap_print_to_pagebuf's mask form for 80 CPUs
  sys/devices/system/cpu/online
  debugfs mlx5/<BDF>/delay_drop/, EQs/, CQs/, QPs/ (the upstream host: the
      cx5-ofed capture has no debugfs)

Values are SYNTH unless said: cx5-ofed runs a VXLAN netdev on the IANA port
(only the static table is used), a macvlan on PF0 (a unicast filter
entry), and one completion IRQ of PF0 that irqbalance put on node 0 (the
NUMA warning); cx6dx-upstream runs VXLAN on 4790 without a lower device
(both PFs offload it) and PF1 is promiscuous (tcpdump).
"""
import os
import struct

NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_MULTI = 2
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSGERR_ATTR_MSG = 1
NLA_F_NESTED = 0x8000
EOPNOTSUPP, EINVAL = 95, 22
RTM_NEWLINK, RTM_NEWNEIGH = 16, 28
AF_BRIDGE = 7
NUD_PERMANENT, NTF_SELF = 0x80, 0x02
NDA_LLADDR = 2
IFLA_ADDRESS, IFLA_BROADCAST, IFLA_IFNAME, IFLA_MTU, IFLA_LINK = 1, 2, 3, 4, 5
IFLA_LINKINFO, IFLA_PROMISCUITY, IFLA_NUM_TX_QUEUES, IFLA_NUM_RX_QUEUES = 18, 30, 31, 32
IFLA_ALLMULTI = 61
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
IFLA_VXLAN_ID, IFLA_VXLAN_LINK, IFLA_VXLAN_PORT = 1, 3, 15
ETHTOOL_MSG_TUNNEL_INFO_GET, ETHTOOL_MSG_TUNNEL_INFO_GET_REPLY = 28, 29
ETHTOOL_MSG_RSS_GET = 38
ETHTOOL_A_TUNNEL_INFO_HEADER, ETHTOOL_A_TUNNEL_INFO_UDP_PORTS = 1, 2
ETHTOOL_A_TUNNEL_UDP_TABLE = 1
ETHTOOL_A_TUNNEL_UDP_TABLE_SIZE, ETHTOOL_A_TUNNEL_UDP_TABLE_TYPES = 1, 2
ETHTOOL_A_TUNNEL_UDP_TABLE_ENTRY = 3
ETHTOOL_A_TUNNEL_UDP_ENTRY_PORT, ETHTOOL_A_TUNNEL_UDP_ENTRY_TYPE = 1, 2
ETHTOOL_GRSSH, ETHTOOL_GRXFH = 0x46, 0x29
ETH_RSS_HASH_TOP = 1
TCP_V4_FLOW, UDP_V4_FLOW, SCTP_V4_FLOW = 1, 2, 3
TCP_V6_FLOW, UDP_V6_FLOW, SCTP_V6_FLOW = 5, 6, 7
IPV4_FLOW, IPV6_FLOW = 0x10, 0x11
RXH_IP_SRC, RXH_IP_DST, RXH_L4_B_0_1, RXH_L4_B_2_3 = 1 << 4, 1 << 5, 1 << 6, 1 << 7
NCPUS = 80                       # SYNTH: 2 x 20 cores with hyperthreads, as both hosts
VXLAN_PORTS = 3                  # KERNEL: max_vxlan_udp_ports default 4, minus the static one

# SYNTH: per host, the VXLAN netdev, the IRQ that sits on the other node,
# the promiscuous port, the macvlan address
HOST = {
    "cx5-ofed-sample": dict(vxlan=("vxlan100", 4789, 100, "enp94s0f0np0"), remote_vec=("0000:5e:00.0", 2),
                            promisc=None, macvlan=("enp94s0f0np0", "02:c5:00:5e:aa:01"), irq_base=60,
                            debugfs=False),
    "cx6dx-upstream-sample": dict(vxlan=("vx4790", 4790, 4790, None), remote_vec=None,
                                  promisc="enp59s0f1np1", macvlan=None, irq_base=120, debugfs=True),
}


def _cpu_of(numa, k):
    """The k-th CPU of a node (node 0: 0-19,40-59; node 1: 20-39,60-79)."""
    base = 20 * numa
    return base + k if k < 20 else base + 40 + (k - 20)


def _mask(cpus):
    """bitmap_print_to_pagebuf's mask: 32-bit words, most significant
    first; for 80 CPUs the top word has 4 hex digits."""
    v = 0
    for c in cpus:
        v |= 1 << c
    words = [(v >> (32 * i)) & 0xffffffff for i in range((NCPUS + 31) // 32)]
    top = (NCPUS % 32 + 3) // 4 if NCPUS % 32 else 8
    out = ["%0*x" % (top, words[-1])] + ["%08x" % w for w in reversed(words[:-1])]
    return ",".join(out)


def write_views(root, hostname, fns, wfile, wval, nla, nla_str, nlmsg, genl_id):
    h = HOST[hostname]
    mlx = sorted((f for f in fns if f["vendor"] == 0x15b3 and f.get("netdevs")), key=lambda f: f["bdf"])

    def nest(t, payload):
        return nla(NLA_F_NESTED | t, payload)

    def eth_hdr(n):
        return nest(1, nla(1, struct.pack("<I", n["ifindex"])) + nla_str(2, n["name"]))

    def genl(cmd, body, flags=0):
        return nlmsg(genl_id, flags, struct.pack("<BBH", cmd, 1, 0) + body)

    def err(errno_, cmd, req_len, msg=None):
        """NLMSG_ERROR, the request's header echoed (CAPPED), the extack text."""
        req = struct.pack("<IHHII", req_len, genl_id, 1, 1, 4242)
        body = struct.pack("<i", -errno_) + req
        flags = NLM_F_CAPPED
        if msg:
            body += nla_str(NLMSGERR_ATTR_MSG, msg)
            flags |= NLM_F_ACK_TLVS
        return nlmsg(NLMSG_ERROR, flags, body)

    def done():
        return nlmsg(NLMSG_DONE, NLM_F_MULTI, struct.pack("<i", 0))

    def mac(m):
        return bytes(int(x, 16) for x in m.split(":"))

    def table(size, types, ports):
        t = nla(ETHTOOL_A_TUNNEL_UDP_TABLE_SIZE, struct.pack("<I", size))
        # the types bitset as the kernel sends it without a mask (verbose)
        bits = b"".join(nest(1, nla(1, struct.pack("<I", i)) + nla_str(2, name)) for i, name in types)
        t += nest(ETHTOOL_A_TUNNEL_UDP_TABLE_TYPES, nla(1, b"") + nla(2, struct.pack("<I", 3)) +
                  nest(3, bits))
        for p in ports:
            t += nest(ETHTOOL_A_TUNNEL_UDP_TABLE_ENTRY, nla(ETHTOOL_A_TUNNEL_UDP_ENTRY_PORT, struct.pack(">H", p)) +
                      nla(ETHTOOL_A_TUNNEL_UDP_ENTRY_TYPE, struct.pack("<I", 0)))
        return nest(ETHTOOL_A_TUNNEL_UDP_TABLE, t)

    vx_name, vx_port, vx_vni, vx_lower = h["vxlan"]
    dump = b""
    mcast_lines = []
    for f in mlx:
        pf = not f.get("physfn")
        d = os.path.join(root, "sys", f["path"])
        nch, ncomp = (4, 12) if pf else (2, 2)          # the channels dump: 4 of 12 on a PF, 2 on a VF
        # ---- IRQs ----
        base = h["irq_base"] + (mlx.index(f) * 16)
        vecs = [("mlx5_async0", None)] + [("mlx5_comp%d" % i, i) for i in range(ncomp)]
        for k, (name, comp) in enumerate(vecs):
            irq = base + k
            wval(os.path.join(d, "msi_irqs", str(irq)), "msix")
            pd = os.path.join(root, "proc", "irq", str(irq))
            numa = f["numa"]
            if comp is None:
                aff = "%d-%d,%d-%d" % (20 * numa, 20 * numa + 19, 40 + 20 * numa, 59 + 20 * numa)
                eff = str(_cpu_of(numa, 0))
            else:
                cpu = _cpu_of(numa, comp % 40)
                if h["remote_vec"] == (f["bdf"], comp):
                    cpu = _cpu_of(1 - numa, comp)      # irqbalance put it on the other node
                aff = eff = str(cpu)
            wfile(os.path.join(pd, "smp_affinity_list"), aff + "\n", 0o644)
            wfile(os.path.join(pd, "effective_affinity_list"), eff + "\n", 0o444)
            wfile(os.path.join(pd, "node"), "%d\n" % numa, 0o444)
            # the action's directory, empty in procfs; git keeps no empty
            # directory, so a checkout of the sample has one file in it
            # (mlxcli reads the directory's name only)
            wfile(os.path.join(pd, "%s@pci:%s" % (name, f["bdf"]), ".keep"), "", 0o444)
        for n in f["netdevs"]:
            nd = os.path.join(d, "net", n["name"])
            # ---- XPS / RPS ----
            for q in range(nch):
                cpu = _cpu_of(f["numa"], q)
                if h["remote_vec"] == (f["bdf"], q):
                    cpu = _cpu_of(1 - f["numa"], q)
                wfile(os.path.join(nd, "queues", "tx-%d" % q, "xps_cpus"), _mask([cpu]) + "\n", 0o644)
                wfile(os.path.join(nd, "queues", "tx-%d" % q, "xps_rxqs"), _mask([]) + "\n", 0o644)
                wfile(os.path.join(nd, "queues", "rx-%d" % q, "rps_cpus"), _mask([]) + "\n", 0o644)
            eth = os.path.join(root, "netlink", "ethtool", n["name"])
            rt = os.path.join(root, "netlink", "route", n["name"])
            # ---- tunnel tables ----
            if pf:
                ports = [vx_port] if vx_port != 4789 and (vx_lower is None or vx_lower == n["name"]) else []
                body = eth_hdr(n) + nest(ETHTOOL_A_TUNNEL_INFO_UDP_PORTS,
                                         table(VXLAN_PORTS, [(0, "vxlan")], ports) + table(1, [], [4789]))
                wfile(os.path.join(eth, "tunnel-info-get.nl"),
                      genl(ETHTOOL_MSG_TUNNEL_INFO_GET_REPLY, body), 0o644)
            else:
                wfile(os.path.join(eth, "tunnel-info-get.nl"),
                      err(EOPNOTSUPP, ETHTOOL_MSG_TUNNEL_INFO_GET, 40,
                          "device does not report tunnel offload info"), 0o644)
            # ---- RSS: no RSS_GET on these kernels; the ioctls ----
            wfile(os.path.join(eth, "rss-get.nl"), err(EOPNOTSUPP, ETHTOOL_MSG_RSS_GET, 40), 0o644)
            key = bytes((0x6d + 37 * i + 11 * n["ifindex"]) & 0xff for i in range(40))   # SYNTH
            indir = [i % nch for i in range(256)]
            rxfh = struct.pack("<IIIIB3xI", ETHTOOL_GRSSH, 0, 256, 40, ETH_RSS_HASH_TOP, 0)
            wfile(os.path.join(eth, "ioctl-grssh.bin"),
                  struct.pack("<i", 0) + rxfh + struct.pack("<256I", *indir) + key, 0o644)
            l4 = RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3
            for flow, fields in ((TCP_V4_FLOW, l4), (UDP_V4_FLOW, l4), (TCP_V6_FLOW, l4),
                                 (UDP_V6_FLOW, l4), (IPV4_FLOW, RXH_IP_SRC | RXH_IP_DST),
                                 (IPV6_FLOW, RXH_IP_SRC | RXH_IP_DST), (SCTP_V4_FLOW, None),
                                 (SCTP_V6_FLOW, None)):
                p = os.path.join(eth, "ioctl-grxfh-%d.bin" % flow)
                if fields is None:
                    wfile(p, struct.pack("<i", EINVAL), 0o644)
                else:
                    wfile(p, struct.pack("<i", 0) + struct.pack("<IIQ", ETHTOOL_GRXFH, flow, fields), 0o644)
            # ---- link info and the address lists ----
            up = n["up"]
            flags = 0x11043 if up else 0x1003
            promisc = h["promisc"] == n["name"]
            if promisc:
                flags |= 0x100                          # IFF_PROMISC
            li = nla_str(IFLA_IFNAME, n["name"]) + nla(IFLA_MTU, struct.pack("<I", n.get("mtu", 1500)))
            li += nla(IFLA_LINK, struct.pack("<I", n["ifindex"]))
            li += nla(IFLA_PROMISCUITY, struct.pack("<I", 1 if promisc else 0))
            li += nla(IFLA_ALLMULTI, struct.pack("<I", 0))
            li += nla(IFLA_NUM_TX_QUEUES, struct.pack("<I", nch * 8 + 1 if pf else nch))
            li += nla(IFLA_NUM_RX_QUEUES, struct.pack("<I", ncomp if pf else nch))
            li += nla(IFLA_ADDRESS, mac(n["mac"])) + nla(IFLA_BROADCAST, b"\xff" * 6)
            ifi = struct.pack("<BBHiII", 0, 0, 1, n["ifindex"], flags, 0)
            msg = nlmsg(RTM_NEWLINK, 0, ifi + li)
            # the reply rdma's GID table reads too (gen/samples_rdma.py wrote
            # a smaller one for the PFs): the kernel sends every attribute
            wfile(os.path.join(rt, "getlink-linkinfo.nl"), msg, 0o644)
            dump += nlmsg(RTM_NEWLINK, NLM_F_MULTI, ifi + li)
            # multicast: all-hosts, all-nodes, the solicited-node group of the
            # EUI-64 link-local address (KERNEL net/ipv6/addrconf.c)
            m = mac(n["mac"])
            mc = ["01:00:5e:00:00:01", "33:33:00:00:00:01", "33:33:ff:%02x:%02x:%02x" % (m[3], m[4], m[5])]
            uc = [h["macvlan"][1]] if h["macvlan"] and h["macvlan"][0] == n["name"] else []
            fdb = b""
            for a in uc + mc:
                nd_ = struct.pack("<BBHiHBB", AF_BRIDGE, 0, 0, n["ifindex"], NUD_PERMANENT, NTF_SELF, 0)
                fdb += nlmsg(RTM_NEWNEIGH, NLM_F_MULTI, nd_ + nla(NDA_LLADDR, mac(a)))
            wfile(os.path.join(rt, "fdb-dump.nl"), fdb + done(), 0o644)
            for a in mc:
                mcast_lines.append("%-4d %-15s %-5d %-5d %s" % (n["ifindex"], n["name"],
                                                                  1, 0 if a.startswith("33:33:ff") else 1,
                                                                  a.replace(":", "")))
        # ---- debugfs (the upstream host) ----
        if h["debugfs"] and pf:
            dbg = os.path.join(root, "sys", "kernel", "debug", "mlx5", f["bdf"])
            # delay drop: the timeout mlx5_ib starts with (MLX5_MAX_DELAY_DROP_TIMEOUT_MS
            # 100 ms, in us), SYNTH counts: a DPDK app armed 2 RQs, 3 timeouts happened
            for name, v in (("timeout", 100000), ("num_timeout_events", 3 if f["bdf"].endswith("0") else 0),
                            ("num_rqs", 2 if f["bdf"].endswith("0") else 0)):
                wfile(os.path.join(dbg, "delay_drop", name), "%d\n" % v, 0o600 if name == "timeout" else 0o400)
            for k in range(ncomp + 1):
                e = os.path.join(dbg, "EQs", "0x%x" % (k + 7))
                for name, v in (("num_eqes", 0x1000 if k else 0x800), ("intr", k), ("log_page_size", 0xc)):
                    wfile(os.path.join(e, name), "0x%x\n" % v, 0o400)
            for k in range(nch):
                c = os.path.join(dbg, "CQs", "0x%x" % (0x400 + k))
                for name, v in (("pid", 0), ("num_cqes", 0x400), ("log_page_size", 0x0)):
                    wfile(os.path.join(c, name), "0x%x\n" % v, 0o400)
            for k, (state, xport, mtu) in enumerate((("RTS", "UD", 0x1000), ("RTS", "RC", 0x1000),
                                                     ("ERR", "RC", 0x1000))):
                q = os.path.join(dbg, "QPs", "0x%x" % (0x100 + k))
                for name, v in (("pid", "0x%x" % (0 if k == 0 else 4001)), ("state", state),
                                ("transport", xport), ("mtu", "0x%x" % mtu), ("num_recv", "0x200"),
                                ("rcv_wqe_sz", "0x40"), ("num_send", "0x100"), ("log2_page_sz", "0xc"),
                                ("remote_qpn", "0x%x" % (0 if k == 0 else 0x2a0 + k))):
                    wfile(os.path.join(q, name), v + "\n", 0o400)
    # ---- host-wide ----
    vx = nla(IFLA_VXLAN_ID, struct.pack("<I", vx_vni)) + nla(IFLA_VXLAN_PORT, struct.pack(">H", vx_port))
    if vx_lower:
        lower = [n for f in mlx for n in f["netdevs"] if n["name"] == vx_lower][0]
        vx += nla(IFLA_VXLAN_LINK, struct.pack("<I", lower["ifindex"]))
    # the VLAN netdev the GID table's README names (gen/samples_rdma.py
    # write_gids wrote its RTM_NEWLINK): in the dump too, as the kernel lists
    # every link
    vifi = struct.pack("<BBHiII", 0, 0, 1, 50, 0x11043, 0)
    dump += nlmsg(RTM_NEWLINK, NLM_F_MULTI, vifi + nla_str(IFLA_IFNAME, vx_name) +
                  nest(IFLA_LINKINFO, nla_str(IFLA_INFO_KIND, "vxlan") + nest(IFLA_INFO_DATA, vx)))
    # (in index order: the VXLAN netdev is 50, the VLAN 104)
    vpath = os.path.join(root, "netlink", "route", "vlan100", "getlink-linkinfo.nl")
    if os.path.exists(vpath):
        with open(vpath, "rb") as f:
            vmsg = f.read()
        dump += vmsg[:6] + struct.pack("<H", NLM_F_MULTI) + vmsg[8:]
    wfile(os.path.join(root, "netlink", "route", "all", "getlink-dump.nl"), dump + done(), 0o644)
    wfile(os.path.join(root, "proc", "net", "dev_mcast"), "\n".join(mcast_lines) + "\n", 0o444)
    wfile(os.path.join(root, "sys", "devices", "system", "cpu", "online"), "0-%d\n" % (NCPUS - 1), 0o444)


# ---------------------------------------------------------------------------
# An IPoIB variant of cx5-ofed, for the tests of `mlxcli ipoib` (no sample
# host is InfiniBand): written over a copy of the sample by
#     python3 gen/samples_views.py ipoib-overlay DIR
# The MCX556A-ECAT is a VPI card: its port 2 (function 0000:5e:00.1, mlx5_1)
# set to InfiniBand (mlxconfig LINK_TYPE_P2=IB) brings up ib0 in place of
# enp94s0f1np1, and a partition child ib0.8001 (part_man's "add", Linux's
# create_child).  Facts: the 20-byte IPoIB address and MTU 4092 of an mlx5
# IPoIB port, FIX:ip-link/mlx5-ipoib-ip-link-show-vf-node-port-guid-2019.txt
# ("link/infiniband 00:00:0a:2d:fe:80:...:ec:0d:9a:03:00:44:36:8d", "mtu
# 4092"); 128 PKey entries, FIX:rdma/cx6-hdr-2port-fw20.37-ibv_devinfo-vv.txt
# ("max_pkeys: 128"); the sysfs names KERNEL drivers/infiniband/core/sysfs.c
# (pkeys/N "0x%04x"), ulp/ipoib/ipoib_main.c and ipoib_vlan.c (pkey, mode,
# umcast, parent, dev_port), the debugfs text ulp/ipoib/ipoib_fs.c.
# SYNTH: the second partition 0x8001, the groups joined, the paths resolved.
# ---------------------------------------------------------------------------

IB_ADDR = "00:00:0a:2d:fe:80:00:00:00:00:00:00:ec:0d:9a:03:00:44:36:8d"   # FIX (above)
CHILD_ADDR = "00:00:0a:31:fe:80:00:00:00:00:00:00:ec:0d:9a:03:00:44:36:8d"  # SYNTH: QPN 0xa31


def ipoib_overlay(root):
    import shutil

    def wfile(path, text, mode=0o444):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)

    fn = os.path.join(root, "sys", "devices", "pci0000:5d", "0000:5d:00.0", "0000:5e:00.1")
    ipoib_overlay_dump(root)
    shutil.rmtree(os.path.join(fn, "net", "enp94s0f1np1"))
    os.unlink(os.path.join(root, "sys", "class", "net", "enp94s0f1np1"))
    port = os.path.join(fn, "infiniband", "mlx5_1", "ports", "1")
    wfile(os.path.join(port, "link_layer"), "InfiniBand\n")
    # an IB GID has no netdev: the RoCE ndevs/ entries go
    shutil.rmtree(os.path.join(port, "gid_attrs", "ndevs"), ignore_errors=True)
    for i in range(128):
        pk = {0: 0xffff, 1: 0x8001}.get(i, 0)
        wfile(os.path.join(port, "pkeys", str(i)), "0x%04x\n" % pk)
    for name, addr, pkey, mode, mtu, idx, parent in (
            ("ib0", IB_ADDR, 0xffff, "datagram", 4092, 20, None),
            ("ib0.8001", CHILD_ADDR, 0x8001, "connected", 65520, 21, "ib0")):
        nd = os.path.join(fn, "net", name)
        for f, v in (("address", addr), ("addr_len", 20), ("type", 32), ("mtu", mtu),
                     ("ifindex", idx), ("iflink", 20), ("operstate", "up"), ("carrier", 1),
                     ("dev_port", 0), ("dev_id", "0x0"), ("flags", "0x1003"),
                     ("broadcast", "00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff"),
                     ("pkey", "0x%04x" % pkey), ("mode", mode), ("umcast", 0)):
            wfile(os.path.join(nd, f), "%s\n" % v)
        if parent:
            wfile(os.path.join(nd, "parent"), parent + "\n")
        os.symlink("../../../0000:5e:00.1", os.path.join(nd, "device"))
        os.symlink("../../devices/pci0000:5d/0000:5d:00.0/0000:5e:00.1/net/" + name,
                   os.path.join(root, "sys", "class", "net", name))
        dbg = os.path.join(root, "sys", "kernel", "debug", "ipoib")
        # ipoib_mcg_seq_show / ipoib_path_seq_show, one block each
        mcg = ""
        for gid, send_only in (("ff12:401b:%x:0:0:0:ffff:ffff" % pkey, "no"),
                               ("ff12:401b:%x:0:0:0:0:1" % pkey, "no")):
            mcg += ("GID: %s\n  created: %10ld\n  queuelen: %9d\n  complete: %9s\n"
                    "  send_only: %8s\n\n" % (gid, 4294937296, 0, "yes", send_only))
        path = ""
        if name == "ib0":
            for gid, lid, complete in (("fe80:0:0:0:ec0d:9a03:44:3701", 0x12, True),
                                       ("fe80:0:0:0:ec0d:9a03:44:3702", 0, False)):
                path += "GID: %s\n  complete: %6s\n" % (gid, "yes" if complete else "no")
                if complete:
                    path += "  DLID:     0x%04x\n  SL: %12d\n  rate: %8d.%d Gb/sec\n" % (lid, 0, 100, 0)
                path += "\n"
        wfile(os.path.join(dbg, name + "_mcg"), mcg)
        wfile(os.path.join(dbg, name + "_path"), path)


def ipoib_overlay_dump(root):
    """The link dump of the overlay: enp94s0f1np1 gone, ib0 (index 20,
    ARPHRD_INFINIBAND 32, MTU 4092, its 20-byte address: the facts above)
    and ib0.8001 (index 21, IFLA_LINK 20) with the IFLA_INFO_DATA of
    ipoib_netlink.c ipoib_fill_info (pkey, mode 1 connected, umcast 0: KERNEL;
    ib0 is registered by ipoib_add_port with the same rtnl_link_ops, so it
    carries kind "ipoib" too, with its pkey 0xffff and mode 0), in the
    sequence and port id of the recorded dump."""
    path = os.path.join(root, "netlink", "route", "all", "getlink-dump.nl")
    with open(path, "rb") as f:
        d = f.read()
    msgs, off, seq_pid, tail = [], 0, None, b""
    while off + 16 <= len(d):
        ln, typ, flags, seq, pid = struct.unpack_from("<IHHII", d, off)
        msg = d[off:off + ((ln + 3) & ~3)]
        if typ == 16:
            seq_pid = (seq, pid)
            idx = struct.unpack_from("<i", d, off + 20)[0]
            if idx != 5:                     # enp94s0f1np1: now ib0
                msgs.append((idx, msg))
        else:
            tail += msg
        off += (ln + 3) & ~3

    def nla(t, p):
        return struct.pack("<HH", 4 + len(p), t) + p + b"\0" * ((4 - len(p) % 4) % 4)

    def link(name, idx, mtu, addr, pkey, mode, parent):
        body = struct.pack("<BBHiII", 0, 0, 32, idx, 0x11043, 0)
        body += nla(3, name.encode() + b"\0") + nla(4, struct.pack("<I", mtu))
        body += nla(16, struct.pack("<B", 6))
        if parent:                           # rtnl_fill_ifinfo: IFLA_LINK only when iflink != ifindex
            body += nla(5, struct.pack("<I", parent))
        body += nla(1, bytes(int(x, 16) for x in addr.split(":")))
        data = nla(1, struct.pack("<H", pkey)) + nla(2, struct.pack("<H", mode)) + nla(3, struct.pack("<H", 0))
        body += nla(18, nla(1, b"ipoib\0") + nla(2, data))
        return struct.pack("<IHHII", 16 + len(body), 16, 2, seq_pid[0], seq_pid[1]) + body

    msgs.append((20, link("ib0", 20, 4092, IB_ADDR, 0xffff, 0, None)))
    msgs.append((21, link("ib0.8001", 21, 65520, CHILD_ADDR, 0x8001, 1, 20)))
    # in index order, as the kernel's dump walks them
    out = b"".join(m for _, m in sorted(msgs, key=lambda x: x[0]))
    os.chmod(path, 0o644)
    with open(path, "wb") as f:
        f.write(out + tail)


if __name__ == "__main__":
    import sys
    if len(sys.argv) == 3 and sys.argv[1] == "ipoib-overlay":
        ipoib_overlay(sys.argv[2])
    else:
        sys.exit("usage: samples_views.py ipoib-overlay DIR (a copy of tests/data/samples/cx5-ofed)")
