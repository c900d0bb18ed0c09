#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""rtnl-edit.py IN [mtu=N] [address=MAC] [master=IFINDEX] [vf=N vlan=V]:
the RTM_NEWLINK message of IN (a capture's recorded reply, e.g. a sample
host's netlink/route/DEV/getlink-vf.nl) with those attributes changed,
to stdout: a notification a test records (monitor/rtnl.nl) to replay an
MTU, address, master or VF change.  The attribute numbers are the uapi's
(include/uapi/linux/if_link.h): IFLA_ADDRESS 1, IFLA_MTU 4, IFLA_MASTER
10, IFLA_VFINFO_LIST 22 { IFLA_VF_INFO 1 { IFLA_VF_MAC 1 (u32 vf, mac[32]),
IFLA_VF_VLAN 2 (u32 vf, vlan, qos) } }; the message keeps its header but
for nlmsg_pid 0 (a notification)."""
import struct
import sys


def attrs(b):
    off = 0
    while off + 4 <= len(b):
        ln, t = struct.unpack_from('<HH', b, off)
        if ln < 4:
            break
        yield t & 0x3fff, t & ~0x3fff, b[off + 4:off + ln]
        off += (ln + 3) & ~3


def attr(t, flags, p):
    a = struct.pack('<HH', 4 + len(p), t | flags) + p
    return a + b'\0' * (-len(a) % 4)


def main():
    d = open(sys.argv[1], 'rb').read()
    ln, t, f, seq, pid = struct.unpack_from('<IHHII', d, 0)
    hdr, body = d[16:32], d[32:ln]
    want = dict(a.split('=') for a in sys.argv[2:])
    out, seen = b'', set()
    for typ, fl, p in attrs(body):
        if typ == 4 and 'mtu' in want:
            p = struct.pack('<I', int(want['mtu']))
        elif typ == 1 and 'address' in want:
            p = bytes(int(x, 16) for x in want['address'].split(':'))
        elif typ == 10:
            seen.add(10)
            if 'master' in want:
                p = struct.pack('<I', int(want['master']))
        elif typ == 22 and 'vf' in want:
            vfs = b''
            for it, ifl, info in attrs(p):
                vf = None
                new = b''
                for at, afl, ap in attrs(info):
                    if at == 1:
                        vf = struct.unpack_from('<I', ap)[0]
                    if at == 2 and vf == int(want['vf']):
                        ap = struct.pack('<III', vf, int(want.get('vlan', 0)), 0)
                    new += attr(at, afl, ap)
                vfs += attr(it, ifl, new)
            p = vfs
        out += attr(typ, fl, p)
    if 'master' in want and 10 not in seen:
        out += attr(10, 0, struct.pack('<I', int(want['master'])))
    msg = hdr + out
    sys.stdout.buffer.write(struct.pack('<IHHII', 16 + len(msg), t, f, seq, 0) + msg)


if __name__ == '__main__':
    main()
