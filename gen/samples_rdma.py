# SPDX-License-Identifier: GPL-2.0-or-later
"""The RDMA half of the sample hosts (issue 24), as `mlxcli snapshot`
records it (lib/rdma.h): the RDMA netlink replies under netlink/rdma/,
/proc/<pid>/comm of the processes that own resources, the GID table's
IPv4 and VLAN entries in sysfs and rtnetlink's answer for each GID netdev.

Layout: include/uapi/rdma/rdma_netlink.h (numbers: Debian 12's
linux-libc-dev 6.1 header), attribute order as drivers/infiniband/core/
nldev.c fills them (fill_nldev_handle, fill_dev_info, fill_port_info,
fill_res_info, fill_res_<kind>_entry, stat_get_doit_default_counter,
stat_get_doit_qp, nldev_stat_get_counter_status_doit).  u64 values carry
no PAD attribute (x86-64 has efficient unaligned access, so
nla_put_u64_64bit adds none).

Values: FIX marks what a real capture in ../shared/fixtures/rdma shows
(the kernel-owned objects of an mlx5 RoCE device: GSI QP 1 and a UD QP
owned by ib_core, CQ 1 of ib_core with 1023 CQEs and 4 users polled by
UNBOUND_WORKQUEUE, CQ 2 of mlx5_ib with 255 CQEs, 2 users, SOFTIRQ, two
mlx5_ib SRQs; `rdma link` state ACTIVE / LINK_UP and the netdev); SYNTH
marks made-up values (the user processes and their QPs, CM IDs, MRs, PDs,
addresses from the documentation ranges 192.0.2.0/24 and 198.51.100.0/24,
PSNs, keys, counter values).
"""
import os
import struct

# rdma_netlink.h
RDMA_NL_NLDEV = 5
CMD_GET, CMD_PORT_GET, CMD_RES_GET = 1, 5, 9
CMD_RES = {"qp": 10, "cm_id": 11, "cq": 12, "mr": 13, "pd": 14, "ctx": 22, "srq": 23}
CMD_STAT_GET, CMD_QP_RAW, CMD_STAT_GET_STATUS = 17, 19, 24
A_DEV_INDEX, A_DEV_NAME, A_PORT_INDEX, A_CAP_FLAGS, A_FW_VERSION = 1, 2, 3, 4, 5
A_NODE_GUID, A_SYS_IMAGE_GUID = 6, 7
A_PORT_STATE, A_PORT_PHYS_STATE, A_DEV_NODE_TYPE = 12, 13, 14
A_RES_SUMMARY, A_RES_SUMMARY_ENTRY, A_RES_SUMMARY_ENTRY_NAME, A_RES_SUMMARY_ENTRY_CURR = 15, 16, 17, 18
A_RES_LQPN, A_RES_RQPN, A_RES_RQ_PSN, A_RES_SQ_PSN, A_RES_PATH_MIG_STATE = 21, 22, 23, 24, 25
A_RES_TYPE, A_RES_STATE, A_RES_PID, A_RES_KERN_NAME = 26, 27, 28, 29
A_RES_PS, A_RES_SRC_ADDR, A_RES_DST_ADDR = 32, 33, 34
A_RES_CQE, A_RES_USECNT, A_RES_POLL_CTX = 37, 38, 39
A_RES_RKEY, A_RES_LKEY, A_RES_IOVA, A_RES_MRLEN = 42, 43, 44, 45
A_RES_LOCAL_DMA_LKEY = 48
A_NDEV_INDEX, A_NDEV_NAME = 50, 51
A_RES_PDN, A_RES_CQN, A_RES_MRN, A_RES_CM_IDN, A_RES_CTXN = 60, 61, 62, 63, 64
A_DEV_PROTOCOL = 67
A_STAT_MODE, A_STAT_RES, A_STAT_AUTO_MODE_MASK = 74, 75, 76
A_STAT_COUNTER, A_STAT_COUNTER_ENTRY, A_STAT_COUNTER_ID = 77, 78, 79
A_STAT_HWCOUNTERS, A_STAT_HWCOUNTER_ENTRY = 80, 81
A_STAT_HWCOUNTER_ENTRY_NAME, A_STAT_HWCOUNTER_ENTRY_VALUE = 82, 83
A_DEV_DIM, A_RES_RAW = 84, 85
A_RES_SRQN, A_MIN_RANGE, A_MAX_RANGE = 90, 91, 92
A_STAT_HWCOUNTER_INDEX, A_STAT_HWCOUNTER_DYNAMIC = 94, 95
# include/uapi/linux/netlink.h: nla_nest_start() sets it, the _noflag()
# variant does not.  nldev.c opens the resource tables and entries, the
# summary and the counter dump's tables without it, and the counter
# tables (STAT_HWCOUNTERS, each STAT_HWCOUNTER_ENTRY) and the QP lists of
# an SRQ or a bound counter (RES_QP, RES_QP_ENTRY) with it: as recorded
# from Debian 12's 6.1 in the kernel lab (tests/vm/rdma-shape.py).
NLA_F_NESTED = 0x8000
TABLE = {"qp": (19, 20, A_RES_LQPN), "cm_id": (30, 31, A_RES_CM_IDN), "cq": (35, 36, A_RES_CQN),
         "mr": (40, 41, A_RES_MRN), "pd": (46, 47, A_RES_PDN), "ctx": (86, 87, A_RES_CTXN),
         "srq": (88, 89, A_RES_SRQN)}
KINDS = ["pd", "cq", "qp", "cm_id", "mr", "ctx", "srq"]   # fill_res_info order
# enum ib_qp_type / ib_qp_state / rdma_cm_state / ib_poll_context / ib_srq_type
QPT = {"GSI": 1, "RC": 2, "UD": 4}
QPS = {"RTS": 3, "ERR": 6}
CM = {"CONNECT": 5, "DISCONNECT": 6}
POLL = {"SOFTIRQ": 0, "UNBOUND_WORKQUEUE": 2}
SRQT = {"BASIC": 0, "XRC": 1}
RDMA_PS_TCP = 0x0106
AF_INET = 2
EINVAL = 22
NLM_F_MULTI = 2
NLMSG_ERROR = 2
RTM_NEWLINK = 16
IFLA_IFNAME, IFLA_MTU, IFLA_LINKINFO = 3, 4, 18
IFLA_INFO_KIND, IFLA_INFO_DATA, IFLA_VLAN_ID = 1, 2, 1
IFLA_ADDRESS, IFLA_LINK, IFLA_OPERSTATE = 1, 5, 16
IFLA_VLAN_FLAGS, IFLA_VLAN_EGRESS_QOS, IFLA_VLAN_PROTOCOL, IFLA_VLAN_QOS_MAPPING = 2, 3, 5, 1


def rtype(cmd):
    return (RDMA_NL_NLDEV << 10) + cmd


class Nl:
    """The netlink helpers of gen/samples.py (one layout for every family)."""
    def __init__(self, nla, nla_str, nlmsg, nlmsg_done, nl_pid):
        self.nla, self.nla_str, self.nlmsg, self.done, self.pid = nla, nla_str, nlmsg, nlmsg_done, nl_pid

    def u8(self, t, v):
        return self.nla(t, struct.pack("<B", v))

    def u32(self, t, v):
        return self.nla(t, struct.pack("<I", v))

    def u64(self, t, v):
        return self.nla(t, struct.pack("<Q", v))

    def handle(self, dev):
        return self.u32(A_DEV_INDEX, dev["index"]) + self.nla_str(A_DEV_NAME, dev["name"])

    def err(self, errno, cmd, req_len):
        """NLMSG_ERROR, the request header echoed (NLM_F_CAPPED)."""
        req = struct.pack("<IHHII", req_len, rtype(cmd), 0x301, 1, self.pid)
        return self.nlmsg(NLMSG_ERROR, 0x100, struct.pack("<i", -errno) + req)


def sockaddr_in(ip, port):
    """struct __kernel_sockaddr_storage holding a sockaddr_in (128 bytes)."""
    a = struct.pack("<H", AF_INET) + struct.pack(">H", port) + bytes(int(x) for x in ip.split("."))
    return a + b"\0" * (128 - len(a))


def guid_u64(text):
    """"02c5:0003:005e:0000" (sysfs) as the host-order u64 nldev sends."""
    return int(text.replace(":", ""), 16)


# ---- the objects of each host ------------------------------------------------

def kernel_objects(qp_ud):
    """What every mlx5 RoCE device holds once loaded (FIX: rdma resource
    show of mlx5 RoCE devices under MLNX_OFED and upstream)."""
    return dict(
        qp=[dict(id=1, port=1, type="GSI", state="RTS", sq_psn=0, kern="ib_core"),
            dict(id=qp_ud, port=1, type="UD", state="RTS", sq_psn=0, kern="ib_core")],
        cq=[dict(id=1, cqe=1023, users=4, poll="UNBOUND_WORKQUEUE", kern="ib_core"),
            dict(id=2, cqe=255, users=2, poll="SOFTIRQ", kern="mlx5_ib")],
        pd=[dict(id=1, users=3, lkey=0x0, kern="ib_core"), dict(id=2, users=3, lkey=0x0, kern="mlx5_ib")],
        srq=[dict(id=1, type="XRC", pdn=2, cqn=2, kern="mlx5_ib"),
             dict(id=2, type="BASIC", pdn=2, kern="mlx5_ib")],
        cm_id=[], mr=[], ctx=[])


def user_objects_cx5(o):
    """SYNTH: mlx5_0 of cx5-ofed carries traffic: an ib_write_bw (verbs,
    its own TCP exchange: no CM ID), an rping connected through rdma_cm,
    and a second rping whose QP went to the error state (its peer
    198.51.100.21 vanished: retries exceeded)."""
    o["ctx"] += [dict(id=0, pid=3141), dict(id=1, pid=5926), dict(id=2, pid=5927)]
    o["pd"] += [dict(id=3, users=4, ctxn=0, pid=3141), dict(id=4, users=5, ctxn=1, pid=5926),
                dict(id=5, users=3, ctxn=2, pid=5927)]
    o["cq"] += [dict(id=3, cqe=4095, users=1, ctxn=0, pid=3141),
                dict(id=4, cqe=127, users=1, ctxn=1, pid=5926),
                dict(id=5, cqe=127, users=1, ctxn=2, pid=5927)]
    o["qp"] += [dict(id=420, port=1, type="RC", state="RTS", rqpn=1237, rq_psn=0x2f1a3c,
                     sq_psn=0x77e4a1, mig=0, pdn=3, pid=3141),
                dict(id=423, port=1, type="RC", state="RTS", rqpn=981, rq_psn=0x5a0b12,
                     sq_psn=0x0c4d2e, mig=0, pdn=4, pid=5926),
                dict(id=425, port=1, type="RC", state="ERR", rqpn=774, rq_psn=0x11a0f0,
                     sq_psn=0x3b2c19, mig=0, pdn=5, pid=5927)]
    o["cm_id"] += [dict(id=0, port=1, lqpn=423, qpt="RC", state="CONNECT",
                        src=("192.0.2.10", 36245), dst=("192.0.2.20", 7174), pid=5926),
                   dict(id=1, port=1, lqpn=425, qpt="RC", state="DISCONNECT",
                        src=("192.0.2.10", 36251), dst=("198.51.100.21", 7174), pid=5927)]
    o["mr"] += [dict(id=1, len=65536, rkey=0x1b0f3, lkey=0x1b0f3, pdn=3, pid=3141),
                dict(id=2, len=64, rkey=0x2c104, lkey=0x2c104, pdn=4, pid=5926),
                dict(id=3, len=64, rkey=0x2d205, lkey=0x2d205, pdn=4, pid=5926),
                dict(id=4, len=65536, rkey=0x2e306, lkey=0x2e306, pdn=4, pid=5926),
                dict(id=5, len=64, rkey=0x3f407, lkey=0x3f407, pdn=5, pid=5927)]


def user_objects_cx6(o):
    """SYNTH: mlx5_0 of cx6dx-upstream runs an ib_write_bw with two QPs."""
    o["ctx"] += [dict(id=0, pid=4001)]
    o["pd"] += [dict(id=3, users=4, ctxn=0, pid=4001)]
    o["cq"] += [dict(id=3, cqe=4095, users=2, ctxn=0, pid=4001)]
    o["qp"] += [dict(id=310 + i, port=1, type="RC", state="RTS", rqpn=902 + i, rq_psn=0x1000 + i,
                     sq_psn=0x2000 + i, mig=0, pdn=3, pid=4001) for i in range(2)]
    o["mr"] += [dict(id=1, len=1 << 20, rkey=0x4a001, lkey=0x4a001, pdn=3, pid=4001)]


COMMS = {3141: "ib_write_bw", 5926: "rping", 5927: "rping", 4001: "ib_write_bw"}


# ---- messages ------------------------------------------------------------------

def owner(nl, e):
    return nl.nla_str(A_RES_KERN_NAME, e["kern"]) if "kern" in e else nl.u32(A_RES_PID, e["pid"])


def entry(nl, kind, e):
    """One <KIND>_ENTRY nest in fill_res_<kind>_entry order."""
    u32, u8, u64 = nl.u32, nl.u8, nl.u64
    if kind == "qp":
        b = u32(A_PORT_INDEX, e["port"]) + u32(A_RES_LQPN, e["id"])
        if "pid" in e:
            b += u32(A_RES_PDN, e["pdn"])
        b += owner(nl, e)
        if e["type"] == "RC":
            b += u32(A_RES_RQPN, e["rqpn"]) + u32(A_RES_RQ_PSN, e["rq_psn"])
        b += u32(A_RES_SQ_PSN, e["sq_psn"])
        if e["type"] == "RC":
            b += u8(A_RES_PATH_MIG_STATE, e["mig"])
        b += u8(A_RES_TYPE, QPT[e["type"]]) + u8(A_RES_STATE, QPS[e["state"]])
    elif kind == "cm_id":
        b = u32(A_PORT_INDEX, e["port"]) + u32(A_RES_LQPN, e["lqpn"]) + u8(A_RES_TYPE, QPT[e["qpt"]])
        b += u32(A_RES_PS, RDMA_PS_TCP) + u8(A_RES_STATE, CM[e["state"]])
        b += nl.nla(A_RES_SRC_ADDR, sockaddr_in(*e["src"])) + nl.nla(A_RES_DST_ADDR, sockaddr_in(*e["dst"]))
        b += u32(A_RES_CM_IDN, e["id"]) + owner(nl, e)
    elif kind == "cq":
        b = u32(A_RES_CQE, e["cqe"]) + u64(A_RES_USECNT, e["users"])
        if "kern" in e:
            b += u8(A_RES_POLL_CTX, POLL[e["poll"]])
        b += u8(A_DEV_DIM, 0) + u32(A_RES_CQN, e["id"])
        if "pid" in e:
            b += u32(A_RES_CTXN, e["ctxn"])
        b += owner(nl, e)
    elif kind == "mr":
        b = u32(A_RES_RKEY, e["rkey"]) + u32(A_RES_LKEY, e["lkey"]) + u64(A_RES_MRLEN, e["len"])
        b += u32(A_RES_MRN, e["id"]) + u32(A_RES_PDN, e["pdn"]) + owner(nl, e)
    elif kind == "pd":
        b = u32(A_RES_LOCAL_DMA_LKEY, e.get("lkey", 0)) + u64(A_RES_USECNT, e["users"]) + u32(A_RES_PDN, e["id"])
        if "pid" in e:
            b += u32(A_RES_CTXN, e["ctxn"])
        b += owner(nl, e)
    elif kind == "ctx":
        b = u32(A_RES_CTXN, e["id"]) + owner(nl, e)
    else:   # srq: the QPs table is empty (no QP uses the driver's SRQs)
        b = u32(A_RES_SRQN, e["id"]) + u8(A_RES_TYPE, SRQT[e["type"]]) + u32(A_RES_PDN, e["pdn"])
        if "cqn" in e:
            b += u32(A_RES_CQN, e["cqn"])
        b += nl.nla(TABLE["qp"][0] | NLA_F_NESTED, b"") + owner(nl, e)
    return nl.nla(TABLE[kind][1], b)


def res_dump(nl, dev, kind, objs):
    """A RES_<KIND>_GET dump: one message with every entry (they fit), then
    NLMSG_DONE; a device without such objects answers DONE alone."""
    if not objs:
        return nl.done()
    body = nl.handle(dev) + nl.nla(TABLE[kind][0], b"".join(entry(nl, kind, e) for e in objs))
    return nl.nlmsg(rtype(CMD_RES[kind]), NLM_F_MULTI, body) + nl.done()


def raw_dump(nl, dev, qps):
    """RES_QP_GET_RAW (mlx5 fill_res_qp_entry_raw: the firmware's resource
    dump of the QP, opaque): SYNTH bytes, 64 per QP, the QPN in the first
    word so that each context differs."""
    ents = b""
    for q in qps:
        blob = struct.pack(">I", q["id"]) + bytes((q["id"] * 7 + i) & 0xff for i in range(60))
        ents += nl.nla(TABLE["qp"][1], nl.u32(A_RES_LQPN, q["id"]) + nl.nla(A_RES_RAW, blob))
    body = nl.handle(dev) + nl.nla(TABLE["qp"][0], ents)
    return nl.nlmsg(rtype(CMD_QP_RAW), NLM_F_MULTI, body) + nl.done()


def hwc(nl, name, value=None, index=None, dynamic=None):
    b = nl.nla_str(A_STAT_HWCOUNTER_ENTRY_NAME, name)
    if value is not None:
        b += nl.u64(A_STAT_HWCOUNTER_ENTRY_VALUE, value)
    if index is not None:
        b += nl.u32(A_STAT_HWCOUNTER_INDEX, index)
    if dynamic is not None:
        b += nl.u8(A_STAT_HWCOUNTER_DYNAMIC, dynamic)
    return nl.nla(A_STAT_HWCOUNTER_ENTRY | NLA_F_NESTED, b)


# mlx5 optional counters (REF:§3.3 item 8; counters.c) and which are on
OPTIONAL = ["cc_rx_ce_pkts", "cc_rx_cnp_pkts", "cc_tx_cnp_pkts"]


def write_rdma(root, hostname, fns, hw_counters, hw_nonzero, nla, nla_str, nlmsg, nlmsg_done,
               nl_pid, wfile):
    nl = Nl(nla, nla_str, nlmsg, nlmsg_done, nl_pid)
    d = os.path.join(root, "netlink", "rdma")
    upstream = hostname.startswith("cx6dx")
    devs = []
    for f in sorted((f for f in fns if f["vendor"] == 0x15b3 and f.get("ib")), key=lambda f: f["ib"]["name"]):
        ib, n = f["ib"], f["netdevs"][0]
        devs.append(dict(index=int(ib["name"].split("_")[1]), name=ib["name"], ib=ib, netdev=n,
                         pf=not f.get("physfn")))
    get = sum_msgs = b""
    for dev in devs:
        ib, n = dev["ib"], dev["netdev"]
        # fill_dev_info: one port; CAP_FLAGS the device_cap_flags_ex of a
        # ConnectX-6 (FIX: ibv_devinfo -vv 0x1021361C36); node type 1 (CA)
        a = nl.handle(dev) + nl.u32(A_PORT_INDEX, 1) + nl.u64(A_CAP_FLAGS, 0x1021361C36)
        a += nla_str(A_FW_VERSION, ib["fw_ver"]) + nl.u64(A_NODE_GUID, guid_u64(ib["node_guid"]))
        a += nl.u64(A_SYS_IMAGE_GUID, guid_u64(ib["sys_image_guid"])) + nl.u8(A_DEV_NODE_TYPE, 1)
        a += nl.u8(A_DEV_DIM, 0) + nla_str(A_DEV_PROTOCOL, "roce")
        get += nlmsg(rtype(CMD_GET), NLM_F_MULTI, a)
        up = n["up"]
        port = nl.handle(dev) + nl.u32(A_PORT_INDEX, 1)
        port += nl.u8(A_PORT_STATE, 4 if up else 1) + nl.u8(A_PORT_PHYS_STATE, 5 if up else 3)
        port += nl.u32(A_NDEV_INDEX, n["ifindex"]) + nla_str(A_NDEV_NAME, n["name"])
        wfile(os.path.join(d, dev["name"], "port-get.nl"),
              nlmsg(rtype(CMD_PORT_GET), NLM_F_MULTI, port) + nlmsg_done(), 0o644)

        objs = kernel_objects({0: 261, 1: 2309}.get(dev["index"], 137 + dev["index"]))
        if dev["index"] == 0:
            (user_objects_cx6 if upstream else user_objects_cx5)(objs)
        for kind in KINDS:
            wfile(os.path.join(d, dev["name"], "res-%s-get.nl" % kind),
                  res_dump(nl, dev, kind, objs[kind]), 0o644)
        if dev["index"] == 0 and not upstream:
            wfile(os.path.join(d, dev["name"], "res-qp-get-raw.nl"), raw_dump(nl, dev, objs["qp"]), 0o644)
        s = b"".join(nl.nla(A_RES_SUMMARY_ENTRY, nla_str(A_RES_SUMMARY_ENTRY_NAME, k) +
                            nl.u64(A_RES_SUMMARY_ENTRY_CURR, len(objs[k]))) for k in KINDS)
        sum_msgs += nlmsg(rtype(CMD_RES_GET), NLM_F_MULTI, nl.handle(dev) + nl.nla(A_RES_SUMMARY, s))

        # STAT_GET of port 1: the port's hw_counters (the same values as
        # the sysfs files, which read the same firmware counters)
        on = {"cc_rx_ce_pkts"} if upstream and dev["index"] == 0 else set()
        vals = {c: (hw_nonzero.get(c, 0) if up else 0) for c in hw_counters}
        for c in sorted(on):
            vals[c] = 88
        t = b"".join(hwc(nl, c, vals[c]) for c in hw_counters + sorted(on))
        st = nl.handle(dev) + nl.u32(A_PORT_INDEX, 1) + nl.nla(A_STAT_HWCOUNTERS | NLA_F_NESTED, t)
        wfile(os.path.join(d, dev["name"], "stat-get-port1.nl"), nlmsg(rtype(CMD_STAT_GET), 0, st), 0o644)
        # the QP counter mode: auto by QP type on cx6dx mlx5_0, else none
        auto = upstream and dev["index"] == 0
        m = nl.handle(dev) + nl.u32(A_PORT_INDEX, 1) + nl.u32(A_STAT_MODE, 1 if auto else 0)
        if auto:
            m += nl.u32(A_STAT_AUTO_MODE_MASK, 1)
        wfile(os.path.join(d, dev["name"], "stat-mode-port1.nl"), nlmsg(rtype(CMD_STAT_GET), 0, m), 0o644)
        if upstream:
            # STAT_GET_STATUS (5.18 on): every counter with its index, the
            # optional ones with whether they are on
            names = hw_counters + OPTIONAL
            t = b"".join(hwc(nl, c, index=i, dynamic=(1 if c in on else 0) if c in OPTIONAL else None)
                         for i, c in enumerate(names))
            wfile(os.path.join(d, dev["name"], "stat-status-port1.nl"),
                  nlmsg(rtype(CMD_STAT_GET_STATUS), 0, nl.handle(dev) + nl.u32(A_PORT_INDEX, 1) +
                        nl.nla(A_STAT_HWCOUNTERS | NLA_F_NESTED, t)), 0o644)
        else:
            # the 5.15 kernel of cx5-ofed has no STAT_GET_STATUS: rdma_nl_rcv_msg
            # refuses an unknown op with -EINVAL
            wfile(os.path.join(d, dev["name"], "stat-status-port1.nl"),
                  nl.err(EINVAL, CMD_STAT_GET_STATUS, 32), 0o644)
        # the bound QP counters (STAT_GET dump, RES=QP)
        if auto:
            qps = [q for q in objs["qp"] if q["type"] == "RC"]
            qt = b"".join(nl.nla(TABLE["qp"][1] | NLA_F_NESTED, nl.u32(A_RES_LQPN, q["id"])) for q in qps)
            qc = {"rx_write_requests": 41230, "out_of_sequence": 3, "local_ack_timeout_err": 0,
                  "rnr_nak_retry_err": 0, "packet_seq_err": 1}
            ce = nl.u32(A_PORT_INDEX, 1) + nl.u32(A_STAT_COUNTER_ID, 0) + nl.u32(A_STAT_MODE, 1)
            ce += nl.u8(A_RES_TYPE, QPT["RC"]) + nl.nla(TABLE["qp"][0] | NLA_F_NESTED, qt)
            ce += nl.nla(A_STAT_HWCOUNTERS | NLA_F_NESTED, b"".join(hwc(nl, k, v) for k, v in qc.items()))
            body = nl.handle(dev) + nl.nla(A_STAT_COUNTER, nl.nla(A_STAT_COUNTER_ENTRY, ce))
            wfile(os.path.join(d, dev["name"], "stat-qp-get.nl"),
                  nlmsg(rtype(CMD_STAT_GET), NLM_F_MULTI, body) + nlmsg_done(), 0o644)
        else:
            wfile(os.path.join(d, dev["name"], "stat-qp-get.nl"), nlmsg_done(), 0o644)
    wfile(os.path.join(d, "all", "get.nl"), get + nlmsg_done(), 0o644)
    wfile(os.path.join(d, "all", "res-get.nl"), sum_msgs + nlmsg_done(), 0o644)
    # MLNX_OFED's modules carry a version file (in-tree ones do not):
    # SYNTH, an MLNX_OFED 23.10 version string
    if not upstream:
        wfile(os.path.join(root, "sys", "module", "mlx5_core", "version"), "23.10-1.1.9\n", 0o444)
    for pid, comm in COMMS.items():
        if (pid == 4001) == upstream:
            wfile(os.path.join(root, "proc", str(pid), "comm"), comm + "\n", 0o444)


# ---- the GID table's routed entries -------------------------------------------

def write_gids(root, fns, wval, nla, nla_str, nlmsg, wfile):
    """SYNTH: the first PF netdev of each host has IPv4 192.0.2.10 and a
    VLAN 100 device ("vlan100": <if>.100 would not fit IFNAMSIZ, 198.51.100.10): the kernel adds an IPv4-mapped
    GID per address and GID type (RoCE v1 and v2), on the netdev that holds
    the address (roce_gid_mgmt.c).  Slots up to 7 are listed; the empty ones
    read all zeros (drivers/infiniband/core/sysfs.c show_port_gid)."""
    zero = "0000:0000:0000:0000:0000:0000:0000:0000"
    for f in fns:
        ib = f.get("ib")
        if f["vendor"] != 0x15b3 or not ib:
            continue
        n = f["netdevs"][0]
        port = os.path.join(root, "sys", f["path"], "infiniband", ib["name"], "ports", "1")
        vdev = "vlan100"
        entries = {}
        if ib["name"] == "mlx5_0":
            for i, (ip, nd) in enumerate((("192.0.2.10", n["name"]), ("198.51.100.10", vdev))):
                g = "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % tuple(int(x) for x in ip.split("."))
                entries[2 + 2 * i] = (g, "IB/RoCE v1", nd)
                entries[3 + 2 * i] = (g, "RoCE v2", nd)
        for idx in range(2, 8):
            if idx in entries:
                g, typ, nd = entries[idx]
                wval(os.path.join(port, "gids", str(idx)), g)
                wval(os.path.join(port, "gid_attrs", "types", str(idx)), typ)
                wval(os.path.join(port, "gid_attrs", "ndevs", str(idx)), nd)
            else:
                wval(os.path.join(port, "gids", str(idx)), zero)
        # rtnetlink's answer for each GID netdev (RTM_GETLINK by name): the
        # PF netdev has no IFLA_LINKINFO (mlx5e registers no rtnl_link_ops),
        # the VLAN device's says kind "vlan", id 100
        ifi = struct.pack("<BBHiII", 0, 0, 1, n["ifindex"], 0x11043, 0)
        msg = nlmsg(RTM_NEWLINK, 0, ifi + nla_str(IFLA_IFNAME, n["name"]) +
                    nla(IFLA_MTU, struct.pack("<I", n.get("mtu", 1500))))
        wfile(os.path.join(root, "netlink", "route", n["name"], "getlink-linkinfo.nl"), msg, 0o644)
        if ib["name"] == "mlx5_0":
            # as net/8021q/vlan_netlink.c vlan_fill_info fills it (KERNEL): the
            # protocol, the id, the flags (REORDER_HDR, vlan_newlink's
            # default), the egress map entries that have a PCP; IFLA_LINK the
            # port, its MTU and MAC (vlan_dev.c vlan_dev_init), up.  SYNTH:
            # the egress map sends priority 3 (the RoCE priority, PFC on it)
            # tagged with PCP 3
            ifi = struct.pack("<BBHiII", 0, 0, 1, 100 + n["ifindex"], 0x11043, 0)
            data = (nla(IFLA_VLAN_PROTOCOL, struct.pack(">H", 0x8100)) +
                    nla(IFLA_VLAN_ID, struct.pack("<H", 100)) +
                    nla(IFLA_VLAN_FLAGS, struct.pack("<II", 1, 0xffffffff)) +
                    nla(IFLA_VLAN_EGRESS_QOS, nla(IFLA_VLAN_QOS_MAPPING, struct.pack("<II", 3, 3))))
            li = nla(IFLA_LINKINFO, nla_str(IFLA_INFO_KIND, "vlan") + nla(IFLA_INFO_DATA, data))
            mac = bytes(int(x, 16) for x in n["mac"].split(":"))
            msg = nlmsg(RTM_NEWLINK, 0, ifi + nla_str(IFLA_IFNAME, vdev) +
                        nla(IFLA_MTU, struct.pack("<I", n.get("mtu", 1500))) +
                        nla(IFLA_OPERSTATE, struct.pack("<B", 6)) +
                        nla(IFLA_LINK, struct.pack("<I", n["ifindex"])) +
                        nla(IFLA_ADDRESS, mac) + li)
            wfile(os.path.join(root, "netlink", "route", vdev, "getlink-linkinfo.nl"), msg, 0o644)
