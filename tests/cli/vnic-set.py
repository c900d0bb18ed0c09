#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""vnic-set.py CAPTURE BDF PORT [NAME=VALUE...]: give function BDF of a
capture (a copy of a sample host) a devlink health "vnic" reporter whose
diagnose replies the counters NAME=VALUE (the others 0), as
drivers/net/ethernet/mellanox/mlx5/core/diag/reporter_vnic.c sends them:
one "vNIC env counters" object of u32 pairs, the steering counters u64.
PORT is the reporter's devlink port index (a representor's), or -1 for
the function's own reporter.  The messages are built by gen/samples.py's
netlink helpers, as the sample hosts' other health replies are; the
reporter is added to the function's recorded HEALTH_REPORTER_GET dump
(created for a VF, which has none)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'gen'))
import samples as gs

cap, bdf, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
port = None if port < 0 else port
vals = dict((kv.split('=')[0], int(kv.split('=')[1])) for kv in sys.argv[4:])
U32 = ['total_error_queues', 'send_queue_priority_update_flow', 'comp_eq_overrun', 'async_eq_overrun',
       'cq_overrun', 'invalid_command', 'quota_exceeded_command']
U64 = ['nic_receive_steering_discard']
# a 2025 kernel's reporter adds these u32 pairs (reporter_vnic.c, 6.18:
# icm_consumption with nic_cap_reg, the others behind their HCA caps): the
# reporter gives them when one is named here
NEW = ['icm_consumption', 'bar_uar_access', 'odp_local_triggered_page_fault', 'odp_remote_triggered_page_fault']
for n in vals:
    if n not in U32 + U64 + NEW:
        sys.exit(f'no vnic counter {n}')
if any(n in NEW for n in vals):
    U32 = U32 + NEW
d = os.path.join(cap, 'netlink', 'devlink', 'pci:' + bdf)
os.makedirs(d, exist_ok=True)
pairs = b''.join(gs.f_pair(n, gs.NLA_U32, vals.get(n, 0)) for n in U32 if n not in NEW)
pairs += b''.join(gs.f_pair(n, gs.NLA_U64, vals.get(n, 0)) for n in U64)
pairs += b''.join(gs.f_pair(n, gs.NLA_U32, vals.get(n, 0)) for n in U32 if n in NEW)
diag = gs.fmsg_msgs(gs.DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE,
                    [gs.f_obj(), gs.f_obj_pair('vNIC env counters', pairs), gs.f_end()], 8)
name = 'diagnose-vnic' + ('' if port is None else '-port%d' % port) + '.nl'
with open(os.path.join(d, name), 'wb') as f:
    f.write(diag)
get = os.path.join(d, 'health-get.nl')
old = open(get, 'rb').read() if os.path.exists(get) else gs.nlmsg_done()
rep = gs.reporter_msg(bdf, 'vnic', port, 0, 0)
if rep not in old:
    done = gs.nlmsg_done()
    assert old.endswith(done), 'the recorded dump does not end with NLMSG_DONE'
    with open(get, 'wb') as f:
        f.write(old[:-len(done)] + rep + done)
