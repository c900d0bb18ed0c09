#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""privflags-set.py CAPTURE IFNAME NAME=on|off...: make netdev IFNAME of a
capture (a copy of a sample host) report exactly these private flags, in
this order, in its recorded ETHTOOL_MSG_PRIVFLAGS_GET dump
(netlink/ethtool/all/privflags-dump.nl), as net/ethtool/privflags.c sends
them: a verbose bitset of every flag with VALUE on the set ones.  The
message is built by gen/samples.py's netlink helpers, as the sample hosts'
own; the other netdevs' messages stay byte for byte."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'gen'))
import samples as gs

cap, ifname = sys.argv[1], sys.argv[2]
flags = []
for kv in sys.argv[3:]:
    name, val = kv.split('=')
    if val not in ('on', 'off'):
        sys.exit(f'{kv}: on or off')
    flags.append((name, 1 if val == 'on' else 0))
path = os.path.join(cap, 'netlink', 'ethtool', 'all', 'privflags-dump.nl')
data = open(path, 'rb').read()
out, off, done = b'', 0, False
while off + 16 <= len(data):
    mlen, mtype = struct.unpack_from('<IH', data, off)
    msg = data[off:off + mlen]
    off += (mlen + 3) & ~3
    # the header nest (attribute 1 after the genl header): index 1, name 2
    ifindex, name, a = None, None, 20
    while a + 4 <= len(msg):
        alen, atype = struct.unpack_from('<HH', msg, a)
        if atype & 0x7fff == 1:
            b = a + 4
            while b + 4 <= a + alen:
                blen, btype = struct.unpack_from('<HH', msg, b)
                if btype == 1:
                    ifindex = struct.unpack_from('<I', msg, b + 4)[0]
                if btype == 2:
                    name = msg[b + 4:b + blen].rstrip(b'\0').decode()
                b += (blen + 3) & ~3
        a += (alen + 3) & ~3
    if name == ifname:
        msg = gs.eth_msg(gs.ETHTOOL_MSG_PRIVFLAGS_GET_REPLY,
                         gs.eth_hdr({'ifindex': ifindex, 'name': name}) +
                         gs.nla(gs.NLA_F_NESTED_ | 2, gs.bitset(flags)))
        done = True
    out += msg + b'\0' * (-len(msg) % 4)
if not done:
    sys.exit(f'{path}: no {ifname}')
with open(path, 'wb') as f:
    f.write(out)
