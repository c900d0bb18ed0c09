#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mlxcli's RDMA view held to iproute2's `rdma` and sysfs on the same live
objects (tests/vm/guest/rdma-live.sh collects both into DIR first):

    rdma-compare.py DIR

DIR holds rdma-<kind>.json (`rdma -j resource show <kind>`), rdma-res.json,
rdma-link.json, rdma-dev.json, rdma-stat.json, m-<cmd>.json and m-<cmd>.txt
(`mlxcli [-j] rdma <cmd>`), m-qp-errors.*, m-cm-id-errors.json, the nobody-*
outputs, devinfo.txt (ibv_devinfo -v of the first device) and facts.json
(what the test made: devices, the PIDs of ibv_rc_pingpong, rping and the
error QP's owner, the error QP's number).  The GID tables and hw_counters
are read from sysfs here.  Prints "  ok:" and "FAIL:" lines; exit 1 on a
failure.

iproute2 6.1 names a CQ's poll context from the kernel's enum as it was
before 5.9 (DIRECT first, rdma/res-cq.c); the kernel's enum ib_poll_context
(include/rdma/ib_verbs.h) has had DIRECT last since, so iproute2's name is
turned back into the number the kernel sent before comparing."""
import json
import os
import re
import sys

D = sys.argv[1]
fails = 0


def ok(msg):
    print("  ok: " + msg)


def bad(msg):
    global fails
    print("FAIL: " + msg)
    fails += 1


def check(what, got, want):
    if got == want:
        ok(what)
    else:
        bad("%s: got %r, want %r" % (what, got, want))


def load(name):
    with open(os.path.join(D, name)) as f:
        return json.load(f)


def text(name):
    with open(os.path.join(D, name)) as f:
        return f.read()


facts = load("facts.json")
devs = facts["devices"]
iproute2 = {k: [e for e in load("rdma-%s.json" % k) if e["ifname"] in devs]
            for k in ("qp", "cm_id", "cq", "mr", "pd", "ctx", "srq")}
links = {(e["ifname"], e["port"]): e for e in load("rdma-link.json") if e["ifname"] in devs}
IP2_POLL = ["DIRECT", "SOFTIRQ", "WORKQUEUE", "UNBOUND_WORKQUEUE"]      # iproute2's table
KERNEL_POLL = ["SOFTIRQ", "WORKQUEUE", "UNBOUND_WORKQUEUE", "DIRECT"]  # ib_verbs.h today
FAILED = ("ERR", "SQE")


def rows(m, table):
    return [r for r in m[table] if r["rdma_device"] in devs]


def by(rs, dev, idk):
    out = {}
    for r in rs:
        out[(r[dev], r[idk])] = r
    return out


def same_fields(what, m, r, pairs):
    """Each (mlxcli key, iproute2 key, converter) equal; absent is null."""
    for mk, rk, conv in pairs:
        want = r.get(rk)
        if want is not None and conv:
            want = conv(want)
        if m.get(mk) != want:
            bad("%s: %s is %r, rdma says %s=%r" % (what, mk, m.get(mk), rk, want))
            return False
    return True


def owner_pairs():
    return [("pid", "pid", None)]


def check_owner(what, m, r):
    # a kernel owner: iproute2 prints its name as comm; mlxcli says kernel
    kern = "pid" not in r
    if m["kernel"] != kern or m["comm"] != r.get("comm"):
        bad("%s: owner kernel=%r comm=%r, rdma says comm=%r%s" %
            (what, m["kernel"], m["comm"], r.get("comm"), " (kernel)" if kern else ""))
        return False
    return True


def keyset(what, mine, theirs):
    if set(mine) != set(theirs):
        bad("%s: mlxcli has %s, rdma has %s" % (what, sorted(mine), sorted(theirs)))
        return False
    ok("%s: the same %d objects as rdma" % (what, len(mine)))
    return True


# ---- qp --------------------------------------------------------------------
mq = by(rows(load("m-qp.json"), "qps"), "rdma_device", "lqpn")
rq = by(iproute2["qp"], "ifname", "lqpn")
cms = {(e["ifname"], e["lqpn"]): e for e in iproute2["cm_id"] if "lqpn" in e}
if keyset("rdma qp", mq, rq):
    good = 0
    for k, r in rq.items():
        m, what = mq[k], "qp %s/%d" % k
        link = links.get((k[0], r["port"]), {})
        cm = cms.get(k)
        if not same_fields(what, m, r, [("qp_type", "type", None), ("state", "state", None),
                                        ("rqpn", "rqpn", None), ("rq_psn", "rq-psn", None),
                                        ("sq_psn", "sq-psn", None),
                                        ("path_mig_state", "path-mig-state", None),
                                        ("pdn", "pdn", None), ("rdma_port", "port", None),
                                        ("pid", "pid", None)]):
            continue
        if not check_owner(what, m, r):
            continue
        if m["netdev"] != link.get("netdev"):
            bad("%s: netdev %r, rdma link says %r" % (what, m["netdev"], link.get("netdev")))
            continue
        if m["in_error"] != (r["state"] in FAILED):
            bad("%s: in_error %r in state %s" % (what, m["in_error"], r["state"]))
            continue
        want = (cm.get("src-addr"), cm.get("dst-addr"), cm.get("cm-idn")) if cm else (None, None, None)
        got = (m["src_address"], m["dst_address"], m["cm_idn"])
        if got != want:
            bad("%s: CM addresses %r, rdma's CM ID says %r" % (what, got, want))
            continue
        good += 1
    check("rdma qp: every field of every QP as rdma has it (type, state, PSNs, peer, PD, "
          "port, netdev, owner, CM addresses)", good, len(rq))

# the objects the test made, by what they are
d0 = devs[0]
pp = [r for r in rq.values() if r.get("pid") in facts["pingpong_pids"]]
check("ibv_rc_pingpong: two RC QPs in RTS, each the other's remote QPN",
      sorted((r["type"], r["state"]) for r in pp), [("RC", "RTS"), ("RC", "RTS")])
if len(pp) == 2:
    check("ibv_rc_pingpong: the pair", (pp[0]["rqpn"], pp[1]["rqpn"]), (pp[1]["lqpn"], pp[0]["lqpn"]))
rp = [mq[k] for k in rq if rq[k].get("pid") in facts["rping_pids"]]
check("rping: two RC QPs in RTS with their CM addresses",
      sorted((r["state"], bool(r["src_address"]), bool(r["dst_address"])) for r in rp),
      [("RTS", True, True), ("RTS", True, True)])
e = mq.get((d0, facts["err_qpn"]))
check("the QP sent to a QPN nobody has: ERR, in_error, owned by python3",
      (e or {}).get("state"), "ERR")

# ---- --errors ----------------------------------------------------------------
me = rows(load("m-qp-errors.json"), "qps")
check("rdma qp --errors: exactly the QPs rdma shows in ERR or SQE",
      sorted((r["rdma_device"], r["lqpn"]) for r in me),
      sorted(k for k, r in rq.items() if r["state"] in FAILED))
check("rdma qp --errors: the error QP is among them", (d0, facts["err_qpn"]) in
      [(r["rdma_device"], r["lqpn"]) for r in me], True)
txt = text("m-qp-errors.txt").splitlines()
check("rdma qp --errors (text): a header and one line per QP in error", len(txt), len(me) + 1)
failed_qps = {k for k, r in rq.items() if r["state"] in FAILED}
mce = rows(load("m-cm-id-errors.json"), "cm_ids")
check("rdma cm-id --errors: the CM IDs whose QP rdma shows in error",
      sorted((r["rdma_device"], r["cm_idn"]) for r in mce),
      sorted((e["ifname"], e["cm-idn"]) for e in iproute2["cm_id"]
             if "lqpn" in e and (e["ifname"], e["lqpn"]) in failed_qps))

# ---- cm-id ---------------------------------------------------------------------
mc = by(rows(load("m-cm-id.json"), "cm_ids"), "rdma_device", "cm_idn")
rc = by(iproute2["cm_id"], "ifname", "cm-idn")
if keyset("rdma cm-id", mc, rc):
    good = 0
    for k, r in rc.items():
        m, what = mc[k], "cm_id %s/%d" % k
        q = rq.get((k[0], r.get("lqpn")))
        if not same_fields(what, m, r, [("state", "state", None), ("port_space", "ps", None),
                                        ("src_address", "src-addr", None),
                                        ("dst_address", "dst-addr", None), ("lqpn", "lqpn", None),
                                        ("qp_type", "qp-type", None), ("rdma_port", "port", None),
                                        ("pid", "pid", None)]) or not check_owner(what, m, r):
            continue
        if m["qp_state"] != (q["state"] if q else None):
            bad("%s: qp_state %r, rdma's QP %r" % (what, m["qp_state"], q and q["state"]))
            continue
        good += 1
    check("rdma cm-id: every field as rdma has it (state, port space, addresses, QP, owner)",
          good, len(rc))
check("rping: a listening CM ID and two connected ones",
      sorted(r["state"] for r in mc.values() if r["pid"] in facts["rping_pids"]),
      ["CONNECT", "CONNECT", "LISTEN"])

# ---- cq, mr, pd, ctx, srq ---------------------------------------------------------


def poll(name):
    return KERNEL_POLL[IP2_POLL.index(name)] if name in IP2_POLL else name


def hexnum(s):
    return int(s, 16)


SPEC = {
    "cq": ("cqs", "cqn", [("cqe", "cqe", None), ("users", "users", None), ("poll_ctx", "poll-ctx", poll),
                          ("dim", "adaptive-moderation", None), ("ctxn", "ctxn", None),
                          ("pid", "pid", None)]),
    "mr": ("mrs", "mrn", [("length_bytes", "mrlen", None), ("rkey", "rkey", hexnum),
                          ("lkey", "lkey", hexnum), ("pdn", "pdn", None), ("pid", "pid", None)]),
    "pd": ("pds", "pdn", [("users", "users", None), ("local_dma_lkey", "local_dma_lkey", hexnum),
                          ("unsafe_global_rkey", "unsafe_global_rkey", hexnum),
                          ("ctxn", "ctxn", None), ("pid", "pid", None)]),
    "ctx": ("ctxs", "ctxn", [("pid", "pid", None)]),
    "srq": ("srqs", "srqn", [("srq_type", "type", None), ("pdn", "pdn", None), ("cqn", "cqn", None),
                             ("srq_qps", "lqpn", ",".join), ("pid", "pid", None)]),
}
for kind, (table, idk, pairs) in SPEC.items():
    mine = by(rows(load("m-%s.json" % kind), table), "rdma_device", idk)
    theirs = by(iproute2[kind], "ifname", idk)
    if not keyset("rdma " + kind, mine, theirs):
        continue
    good = sum(1 for k, r in theirs.items()
               if same_fields("%s %s/%d" % (kind, k[0], k[1]), mine[k], r, pairs) and
               check_owner("%s %s/%d" % (kind, k[0], k[1]), mine[k], r))
    check("rdma %s: every field as rdma has it" % kind, good, len(theirs))
check("the error QP's SRQ is there, holding that QP",
      [r["srq_qps"] for r in rows(load("m-srq.json"), "srqs") if r["pid"] == facts["err_pid"]],
      [str(facts["err_qpn"])])

# ---- text tables: one line per JSON row, the row's identity in it -------------
for cmd, table, cols in (("qp", "qps", ("rdma_device", "lqpn", "state")),
                         ("cm-id", "cm_ids", ("rdma_device", "cm_idn", "state")),
                         ("cq", "cqs", ("rdma_device", "cqn", "cqe")),
                         ("mr", "mrs", ("rdma_device", "mrn", "length_bytes")),
                         ("pd", "pds", ("rdma_device", "pdn", "users")),
                         ("ctx", "ctxs", ("rdma_device", "ctxn")),
                         ("srq", "srqs", ("rdma_device", "srqn", "srq_type")),
                         ("gids", "gids", ("rdma_device", "gid_index", "gid"))):
    # this test's devices only: the other lane's tests add and delete RDMA
    # devices (with ib_core's PD, CQ and GSI QP) between the two reads
    js = rows(load("m-%s.json" % cmd), table)
    lines = text("m-%s.txt" % cmd).splitlines()
    body = [ln for ln in lines[1:] if ln.split()[:1] and ln.split()[0] in devs]
    miss = [r for r, ln in zip(js, body) if ln.split()[:1] != [r[cols[0]]] or
            any(str(r[c]) not in ln.split() for c in cols[1:])]
    if len(body) != len(js) or miss:
        bad("rdma %s (text): %d lines for %d rows; first mismatch %r" %
            (cmd, len(body), len(js), miss[:1]))
    else:
        ok("rdma %s (text): the %d rows of the JSON, in order" % (cmd, len(js)))

# ---- show ------------------------------------------------------------------------
show = {d["rdma_device"]: d for d in load("m-show.json")["rdma"]}
res = {e["ifname"]: e for e in load("rdma-res.json")}
rdev = {e["ifname"]: e for e in load("rdma-dev.json")}
m = re.search(r"active_mtu:\s+(\d+)", text("devinfo.txt"))
st = text("m-show.txt")
for d in devs:
    s = show.get(d)
    if not s:
        bad("rdma show: no %s" % d)
        continue
    check("rdma show %s: node and system image GUIDs as rdma dev" % d,
          (s["node_guid"], s["sys_image_guid"]), (rdev[d]["node_guid"], rdev[d]["sys_image_guid"]))
    check("rdma show %s: ports' state, physical state, netdev as rdma link" % d,
          [(p["rdma_port"], p["state"], p["physical_state"], p["netdev"]) for p in s["ports"]],
          [(p, e["state"], e["physical_state"], e["netdev"]) for (n, p), e in sorted(links.items())
           if n == d])
    check("rdma show %s: resource counts as rdma resource" % d,
          {k: s["resources"][k] for k in ("pd", "cq", "qp", "cm_id", "mr", "ctx", "srq")},
          {k: res[d][k] for k in ("pd", "cq", "qp", "cm_id", "mr", "ctx", "srq")})
    check("rdma show %s: QPs in error as rdma counts them" % d, s["resources"]["qps_in_error"],
          sum(1 for (n, _), r in rq.items() if n == d and r["state"] in FAILED))
    check("rdma show %s (text): named, with its counts" % d,
          ("%s:" % d in st.splitlines(), "qp %d" % res[d]["qp"] in st), (True, True))
check("rdma show: the active MTU of %s as ibv_devinfo says" % d0,
      show[d0]["ports"][0]["active_mtu_bytes"], int(m.group(1)) if m else None)

# ---- gids: the sysfs table -----------------------------------------------------
mg = [r for r in load("m-gids.json")["gids"] if r["rdma_device"] in devs]
want = []
for d in devs:
    pdir = "/sys/class/infiniband/%s/ports/1" % d
    for i in sorted(int(x) for x in os.listdir(pdir + "/gids")):
        g = open("%s/gids/%d" % (pdir, i)).read().strip()
        if set(g) <= set("0:"):
            continue
        t = open("%s/gid_attrs/types/%d" % (pdir, i)).read().strip()
        n = open("%s/gid_attrs/ndevs/%d" % (pdir, i)).read().strip()
        v4 = None
        if g.startswith("0000:0000:0000:0000:0000:ffff:"):
            h = g.replace(":", "")[-8:]
            v4 = ".".join(str(int(h[j:j + 2], 16)) for j in range(0, 8, 2))
        want.append((d, 1, i, g, t, n, v4, t == "RoCE v2" and v4 is not None))
check("rdma gids: every GID of sysfs (index, GID, type, netdev, IPv4, the rdma_cm entry)",
      [(r["rdma_device"], r["rdma_port"], r["gid_index"], r["gid"], r["gid_type"], r["netdev"],
        r["ipv4"], r["roce_v2_ipv4"]) for r in mg], want)
check("rdma gids: the IPv4 GIDs of the veths' addresses", sorted(r["ipv4"] for r in mg if r["ipv4"]),
      sorted(facts["addresses"]))

# ---- stats: netlink values as rdma statistic, sysfs as hw_counters -----------------
rs = {e["ifname"]: e for e in load("rdma-stat.json")}
for p in load("m-stats.json")["rdma_stats"]:
    d = p["rdma_device"]
    if d not in devs:
        continue
    nl = {c["name"]: c["value"] for c in p["counters"]}
    check("rdma stats %s: every counter and value as rdma statistic" % d, nl,
          {k: v for k, v in rs[d].items() if k not in ("ifname", "port", "ifindex")})
    hw = "/sys/class/infiniband/%s/ports/1/hw_counters" % d
    check("rdma stats %s: sysfs_value of each counter as its hw_counters file" % d,
          {c["name"]: c["sysfs_value"] for c in p["counters"]},
          {c["name"]: int(open("%s/%s" % (hw, c["name"])).read()) for c in p["counters"]})
check("rdma stats: the error QP's retry counted (retry_exceeded_err >= 1)",
      rs[d0].get("retry_exceeded_err", 0) >= 1, True)

# ---- nobody ------------------------------------------------------------------------
for kind, table, keys in (("qp", "qps", ()), ("mr", "mrs", ("rkey", "lkey")),
                          ("pd", "pds", ("local_dma_lkey",))):
    n = load("nobody-%s.json" % kind)
    err = text("nobody-%s.err" % kind)
    check("nobody: rdma %s exits 0" % kind, text("nobody-%s.rc" % kind).strip(), "0")
    check("nobody: rdma %s lists the objects root sees" % kind,
          sorted((r["rdma_device"], r[SPEC.get(kind, ("", "lqpn"))[1]]) for r in rows(n, table)),
          sorted((r["rdma_device"], r[SPEC.get(kind, ("", "lqpn"))[1]])
                 for r in rows(load("m-%s.json" % kind), table)))
    check("nobody: rdma %s says restricted, and why on stderr" % kind,
          (n["restricted"], "CAP_NET_ADMIN" in err and "root" in err), (True, True))
    if keys:
        check("nobody: rdma %s without the keys the kernel withholds (%s)" % (kind, ", ".join(keys)),
              [r[k] for r in rows(n, table) for k in keys], [None] * (len(rows(n, table)) * len(keys)))
        ip2 = load("nobody-rdma-%s.json" % kind)
        check("nobody: rdma -j resource show %s has no keys either" % kind,
              [k for e in ip2 for k in keys if k in e], [])

print("%s" % ("FAIL" if fails else "PASS"))
sys.exit(1 if fails else 0)
