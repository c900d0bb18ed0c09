#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Do the sample hosts' RDMA netlink replies look like what a kernel sends?

    rdma-shape.py RECORDED SAMPLE...

RECORDED is a snapshot `mlxcli snapshot` took in the kernel lab (Debian
12's 6.1 with rdma_rxe: tests/vm/guest/rdma-live.sh); each SAMPLE a sample
host (tests/data/samples/NAME), whose replies gen/samples_rdma.py builds
from the uapi layout.  For every reply file both have (netlink/rdma/
all/get.nl, <dev>/port-get.nl, res-<kind>-get.nl, stat-*.nl, ...), the
sample's messages are held to the kernel's, at every nesting level:

  - the message flags (NLM_F_MULTI: a dump's parts) and whether a DONE ends
    the reply;
  - each attribute the kernel sent at that place (same path of nests):
    the NLA_F_NESTED flag, the payload size of a scalar (u8, u32, u64:
    no PAD attribute on x86-64) and for a nest that it is one;
  - the order of the attributes both have (the kernel's fill order).

Attributes only the sample has (FW_VERSION of mlx5, a kernel CQ's poll
context the recording may lack) are listed, not failed: rdma_rxe does not
send everything mlx5 does.  Prints "ok:" and "FAIL:" lines; exit 1 on a
failure, 77 when RECORDED holds no RDMA replies."""
import os
import struct
import sys

NLA_F_NESTED, NLA_TYPE_MASK = 0x8000, 0x3fff
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_MULTI = 2
# attributes whose payload is a nest in the kernel's replies (rdma_netlink.h
# "nested table"/"nested" ones the decoders walk)
NESTS = {15, 16, 19, 20, 30, 31, 35, 36, 40, 41, 46, 47, 77, 78, 80, 81, 86, 87, 88, 89}
# attributes whose payload is a string (a size says nothing)
STRINGS = {2, 5, 17, 29, 51, 67, 82}


def attrs(buf):
    off = 0
    while off + 4 <= len(buf):
        ln, t = struct.unpack_from("<HH", buf, off)
        if ln < 4 or off + ln > len(buf):
            raise ValueError("truncated attribute at %d" % off)
        yield t, buf[off + 4:off + ln]
        off += (ln + 3) & ~3


def messages(path):
    """[(type, flags, payload)] of a recorded reply file."""
    b = open(path, "rb").read()
    out, off = [], 0
    while off + 16 <= len(b):
        ln, t, fl = struct.unpack_from("<IHH", b, off)
        if ln < 16 or off + ln > len(b):
            raise ValueError("%s: truncated message at %d" % (path, off))
        out.append((t, fl, b[off + 16:off + ln]))
        off += (ln + 3) & ~3
    return out


class Shape:
    """What the kernel sent at each path: flags and sizes of each attribute
    type, the order types came in."""

    def __init__(self):
        self.flags = {}      # (path, type) -> set of NLA_F_NESTED bits
        self.sizes = {}      # (path, type) -> set of payload sizes
        self.order = {}      # path -> {type: first position seen}

    def learn(self, path, buf):
        seq = []
        for t, p in attrs(buf):
            k = t & NLA_TYPE_MASK
            self.flags.setdefault((path, k), set()).add(t & NLA_F_NESTED)
            if k in NESTS:
                self.learn(path + (k,), p)
            elif k not in STRINGS:
                self.sizes.setdefault((path, k), set()).add(len(p))
            if k not in seq:
                seq.append(k)
        o = self.order.setdefault(path, {})
        for i, k in enumerate(seq):
            # a type's place: after every type seen before it in any entry
            o.setdefault(k, i)
            for j in seq[:i]:
                if o.get(j, -1) >= o[k]:
                    o[k] = o[j] + 1


def check(rec, path, buf, where, fails, extra):
    seen = []
    for t, p in attrs(buf):
        k = t & NLA_TYPE_MASK
        key = (path, k)
        if key not in rec.flags:
            extra.add("%s attribute %d" % (where, k))
        else:
            want = rec.flags[key]
            if (t & NLA_F_NESTED) not in want:
                fails.append("%s attribute %d: NLA_F_NESTED %s, the kernel's %s" %
                             (where, k, "set" if t & NLA_F_NESTED else "clear",
                              "set" if NLA_F_NESTED in want else "clear"))
            if key in rec.sizes and k not in NESTS and len(p) not in rec.sizes[key]:
                fails.append("%s attribute %d: %d bytes, the kernel's %s" %
                             (where, k, len(p), sorted(rec.sizes[key])))
            seen.append(k)
        if k in NESTS:
            check(rec, path + (k,), p, "%s/%d" % (where, k), fails, extra)
    o = rec.order.get(path, {})
    pos = [o[k] for k in seen if k in o]
    if pos != sorted(pos):
        fails.append("%s: attributes in the order %s, the kernel's %s" %
                     (where, seen, sorted(set(seen), key=lambda k: o.get(k, 1 << 30))))


def kind_of(name):
    """A reply file's kind: the per-port counter files share one shape."""
    for p in ("stat-get-port", "stat-mode-port", "stat-status-port"):
        if name.startswith(p):
            return p
    return name


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    recdir = os.path.join(argv[1], "netlink", "rdma")
    if not os.path.isdir(recdir):
        print("SKIP: %s has no RDMA netlink replies" % argv[1])
        return 77
    # the kernel's shapes, per reply kind, from every device recorded
    rec, mflags, done = {}, {}, {}
    for d in sorted(os.listdir(recdir)):
        for f in sorted(os.listdir(os.path.join(recdir, d))):
            k = kind_of(f)
            msgs = messages(os.path.join(recdir, d, f))
            body = [m for m in msgs if m[0] not in (NLMSG_DONE, NLMSG_ERROR)]
            if not body:
                continue
            s = rec.setdefault(k, Shape())
            for t, fl, p in body:
                s.learn((), p)
                mflags.setdefault(k, set()).add(fl & NLM_F_MULTI)
            done.setdefault(k, set()).add(msgs[-1][0] == NLMSG_DONE)
    fails, extra, compared = [], set(), 0
    for sample in argv[2:]:
        sdir = os.path.join(sample, "netlink", "rdma")
        name = os.path.basename(os.path.normpath(sample))
        for d in sorted(os.listdir(sdir)):
            for f in sorted(os.listdir(os.path.join(sdir, d))):
                k = kind_of(f)
                if k not in rec:
                    continue
                msgs = messages(os.path.join(sdir, d, f))
                body = [m for m in msgs if m[0] not in (NLMSG_DONE, NLMSG_ERROR)]
                if not body:
                    continue
                where = "%s %s/%s" % (name, d, f)
                compared += 1
                for t, fl, p in body:
                    if fl & NLM_F_MULTI not in mflags[k]:
                        fails.append("%s: NLM_F_MULTI %s, the kernel's %s" %
                                     (where, bool(fl & NLM_F_MULTI), sorted(mflags[k])))
                    check(rec[k], (), p, where, fails, extra)
                if (msgs[-1][0] == NLMSG_DONE) not in done[k]:
                    fails.append("%s: %s DONE at the end, the kernel's reply %s" %
                                 (where, "a" if msgs[-1][0] == NLMSG_DONE else "no",
                                  "has one" if True in done[k] else "has none"))
    kinds = sorted(rec)
    print("  ok: the kernel's replies recorded: %s" % ", ".join(kinds))
    for x in sorted(extra):
        print("  note: not in the recording (mlx5's or the sample's own): %s" % x)
    seen = set()
    for f in fails:
        if f not in seen:
            print("FAIL: " + f)
            seen.add(f)
    if not compared:
        print("FAIL: no sample reply of a kind the recording has")
        return 1
    print("  ok: %d sample replies compared" % compared)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
