#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The sample hosts' RDMA netlink replies (built by gen/samples_rdma.py from
# the uapi layout) held to the replies a real kernel sent: the snapshot
# tests/vm/guest/rdma-live.sh took on Debian 12's 6.1 with rdma_rxe
# ($LAB_ARTIFACTS/rdma-live.tar: snap/).  tests/vm/rdma-shape.py compares, per
# reply kind, the message flags, the end of each dump, and at every nesting
# level each attribute's NLA_F_NESTED flag, scalar size and order.  Run by
# tests/vm/tier.sh after the VM; exit 77 when the guest left no snapshot.

. "$TOP_SRCDIR/tests/cli/lib.sh"
need python3
tar -C "$tmp" -xf "${LAB_ARTIFACTS:?run by tests/vm/tier.sh}/rdma-live.tar" 2>/dev/null
art=$tmp/rdma-live
if [ ! -d "$art/snap/netlink/rdma" ]; then
	echo "SKIP: tests/vm/guest/rdma-live.sh left no recorded RDMA replies in $LAB_ARTIFACTS/rdma-live.tar"
	exit 77
fi
python3 "$TOP_SRCDIR/tests/vm/rdma-shape.py" "$art/snap" "$MLXCLI_SAMPLES_DIR/cx5-ofed" \
	"$MLXCLI_SAMPLES_DIR/cx6dx-upstream" || fail=1
finish
