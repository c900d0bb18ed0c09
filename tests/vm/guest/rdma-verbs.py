#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Queue pairs for the kernel lab's RDMA tests, made through rdma-core's
own Python binding (pyverbs, Debian's python3-pyverbs) on an rdma_rxe
device, and held until this process is killed:

    rdma-verbs.py errqp DEV GID_INDEX READY_FILE
        one RC QP (receiving on an SRQ) connected to a remote QPN nobody
        has (on the device's own GID): a send to it is never acknowledged, rxe's retry timer gives
        up (retry_cnt 1, timeout 8: about 2 ms) and the QP moves to ERR,
        as a QP whose peer vanished does (rxe_comp.c, retry exceeded)
    rdma-verbs.py qps DEV COUNT READY_FILE
        COUNT RC QPs on one PD and CQ, every other one moved to INIT (the
        benchmark's live QPs: tests/bench/rdma-lab.sh)

READY_FILE is written (the QP numbers, one a line) once the QPs are in
their state; the test reads it, then looks.  Exit 2 on bad arguments, 1
when the device refuses (said on stderr)."""
import signal
import sys
import time

try:
    import pyverbs.enums as e
    from pyverbs.addr import AHAttr, GlobalRoute
    from pyverbs.cq import CQ
    from pyverbs.device import Context
    from pyverbs.mr import MR
    from pyverbs.pd import PD
    from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
    from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr
    from pyverbs.wr import SGE, SendWR
except ImportError as x:
    print("rdma-verbs: no pyverbs (python3-pyverbs): %s" % x, file=sys.stderr)
    sys.exit(77)


def ready(path, qpns):
    with open(path + ".tmp", "w") as f:
        f.write("".join("%d\n" % q for q in qpns))
    import os
    os.rename(path + ".tmp", path)


def errqp(dev, gidx, path):
    ctx = Context(name=dev)
    pd = PD(ctx)
    cq = CQ(ctx, 16)
    # its receive side on an SRQ: `rdma srq` lists the QP on it
    srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=4, max_sge=1)))
    cap = QPCap(max_send_wr=4, max_recv_wr=0, max_send_sge=1, max_recv_sge=1)
    qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, srq=srq, cap=cap))
    a = QPAttr(port_num=1)
    a.path_mtu = e.IBV_MTU_1024
    a.dest_qp_num = 0xabcde             # no QP has this number
    a.rq_psn = a.sq_psn = 0
    a.timeout, a.retry_cnt, a.rnr_retry, a.min_rnr_timer = 8, 1, 1, 1
    a.max_dest_rd_atomic = a.max_rd_atomic = 1
    a.ah_attr = AHAttr(port_num=1, is_global=1,
                       gr=GlobalRoute(dgid=ctx.query_gid(1, gidx), sgid_index=gidx))
    qp.to_rts(a)
    mr = MR(pd, 64, e.IBV_ACCESS_LOCAL_WRITE)
    qp.post_send(SendWR(opcode=e.IBV_WR_SEND, num_sge=1, sg=[SGE(mr.buf, 64, mr.lkey)]))
    deadline = time.time() + 120
    while time.time() < deadline:
        n, wcs = cq.poll()
        if n:
            break
        time.sleep(0.05)
    else:
        print("rdma-verbs: no completion of the send to the missing peer", file=sys.stderr)
        return 1
    qa, _ = qp.query(e.IBV_QP_STATE)
    if qa.qp_state != e.IBV_QPS_ERR:
        print("rdma-verbs: QP %d is in state %d after status %d, not ERR" %
              (qp.qp_num, qa.qp_state, wcs[0].status), file=sys.stderr)
        return 1
    ready(path, [qp.qp_num])
    signal.pause()
    return 0


def qps(dev, count, path):
    ctx = Context(name=dev)
    pd = PD(ctx)
    cq = CQ(ctx, 64)
    cap = QPCap(max_send_wr=1, max_recv_wr=1, max_send_sge=1, max_recv_sge=1)
    held = []
    for i in range(count):
        try:
            qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))
            if i % 2:
                qp.to_init(QPAttr(port_num=1))
        except Exception as x:          # the device (or memory) is full: keep what is made
            print("rdma-verbs: QP %d of %d refused: %s" % (i + 1, count, x), file=sys.stderr)
            break
        held.append(qp)
    ready(path, [q.qp_num for q in held])
    signal.pause()
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "errqp":
        return errqp(argv[2], int(argv[3]), argv[4])
    if len(argv) == 5 and argv[1] == "qps":
        return qps(argv[2], int(argv[3]), argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    sys.exit(main(sys.argv))
