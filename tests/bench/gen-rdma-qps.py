#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A captured host with N queue pairs on mlx5_0 (issue 24, `rdma qp -j`
at scale): a copy of the sample cx5-ofed whose RES_QP_GET dump of mlx5_0
holds N RC QPs (every eighth in ERR) and whose RES_CM_ID_GET dump holds
a CM ID for every other QP, split into dump messages of 200 entries as the
kernel fills its dump skbs, owned by 100 processes (/proc/PID/comm).
Entries are laid out as the sample's (gen/samples_rdma.py, nldev.c
fill_res_qp_entry / fill_res_cm_id_entry order).
Usage: gen-rdma-qps.py SAMPLES_DIR DEST N"""
import os, shutil, struct, sys

src, dest, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.rmtree(dest, ignore_errors=True)
shutil.copytree(os.path.join(src, 'cx5-ofed'), dest, symlinks=True)
for dp, dns, fns in os.walk(dest):
    for x in dns + fns:
        p = os.path.join(dp, x)
        if not os.path.islink(p):
            os.chmod(p, 0o755 if os.path.isdir(p) else 0o644)


def nla(t, p):
    a = struct.pack('<HH', 4 + len(p), t) + p
    return a + b'\0' * ((4 - len(a) % 4) % 4)


def u32(t, v): return nla(t, struct.pack('<I', v))
def u8(t, v): return nla(t, struct.pack('<B', v))
def msg(cmd, body, flags=2): return struct.pack('<IHHII', 16 + len(body), (5 << 10) + cmd, flags, 1, 4242) + body
def sin(ip, port):
    a = struct.pack('<H', 2) + struct.pack('>H', port) + bytes(ip)
    return a + b'\0' * (128 - len(a))


handle = u32(1, 0) + nla(2, b'mlx5_0\0')
done = struct.pack('<IHHII', 20, 3, 2, 1, 4242) + struct.pack('<i', 0)
qps, cms = [], []
for i in range(n):
    qpn, pid = 1000 + i, 20000 + i % 100
    e = u32(3, 1) + u32(21, qpn) + u32(60, 3 + i % 100) + u32(28, pid)
    e += u32(22, 50000 + i) + u32(23, i * 7 & 0xffffff) + u32(24, i * 13 & 0xffffff) + u8(25, 0)
    e += u8(26, 2) + u8(27, 6 if i % 8 == 7 else 3)
    qps.append(nla(20, e))
    if i % 2 == 0:
        c = u32(3, 1) + u32(21, qpn) + u8(26, 2) + u32(32, 0x0106) + u8(27, 5)
        c += nla(33, sin([192, 0, 2, 10], 30000 + i % 30000)) + nla(34, sin([192, 0, 2, 20 + i % 200], 7174))
        c += u32(63, i // 2) + u32(28, pid)
        cms.append(nla(31, c))


def dump(cmd, table, ents):
    out = b''
    for k in range(0, len(ents), 200):
        out += msg(cmd, handle + nla(table, b''.join(ents[k:k + 200])))
    return out + done


d = os.path.join(dest, 'netlink', 'rdma', 'mlx5_0')
open(os.path.join(d, 'res-qp-get.nl'), 'wb').write(dump(10, 19, qps))
open(os.path.join(d, 'res-cm_id-get.nl'), 'wb').write(dump(11, 30, cms))
for k in range(100):
    p = os.path.join(dest, 'proc', str(20000 + k))
    os.makedirs(p, exist_ok=True)
    open(os.path.join(p, 'comm'), 'w').write('worker%d\n' % k)
print(dest)
