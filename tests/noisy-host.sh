#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The test suite on a host that is not quiet (issue 30): what other work on
# the same machine does to it, made here on purpose, then the suite.
#
#     sh tests/noisy-host.sh BUILDDIR [TARGET...]     (as root; make check-noisy)
#
#   1. 10,000 foreign mlx5-looking lines into /dev/kmsg: the real mlx5_core
#      and mlx5_ib lines of $FIXTURES/dmesg and tests/unit/test-monitor-rdma.c's
#      formats, under PCI addresses and RDMA devices of their own (what a
#      host with ConnectX cards, or another test, leaves in the log);
#   2. every core busy (one spinning process per core, at the tests'
#      priority), and more such lines written all along (20 a second);
#   3. `make -C BUILDDIR TARGET` for each TARGET (default: check distcheck),
#      each result said; the load is stopped whatever happens.
# Exit 0 when every target passed, 1 otherwise, 77 when not root (the log
# cannot be written).  The lines are user-facility records of level 6
# (info: below the console's level, so no console slows them): no monitor
# takes them for the kernel's; they overwrite what the log held.
set -u
builddir=${1:?usage: sh tests/noisy-host.sh BUILDDIR [TARGET...]}
shift
[ $# -gt 0 ] || set -- check distcheck
top=$(cd "$(dirname "$0")/.." && pwd)
fixtures=${FIXTURES:-$top/../shared/fixtures}
if [ "$(id -u)" -ne 0 ] || [ ! -w /dev/kmsg ]; then
	echo "SKIP: writing /dev/kmsg needs root"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the templates: every mlx5 line of the captures, and mlx5_ib/ib_core ones
{
	cat "$fixtures"/dmesg/*.txt 2>/dev/null | sed -n 's/^.*\(mlx5_core [0-9a-f]\{4\}:\)/\1/p'
	cat <<'EOF'
infiniband mlx5_0: destroy_qp_common:2367:(pid 73): mlx5_ib: modify QP 0x000724 to RESET failed
infiniband mlx5_0: create_qp:3047:(pid 29714): Create QP type 2 failed
infiniband mlx5_0: mlx5_handle_error_cqe:333:(pid 0): WC error: 10, message: remote access error
infiniband mlx5_0: Couldn't open port 1 for agents
mlx5_0/1: QP 137 error: unrecognized status (0x41 0x0 0x0)
mlx5_core 0000:02:00.0: cq_err_event_notifier:517:(pid 4374): CQ error on CQN 0x407, syndrome 0x1
EOF
} >"$tmp/templates"
n=$(wc -l <"$tmp/templates")
[ "$n" -gt 0 ] || { echo "no templates (FIXTURES=$fixtures)"; exit 1; }
# foreign COUNT: COUNT lines, each template under a bus and an RDMA device
# number drawn per line
foreign() {
	awk -v count="$1" -v seed="$(od -An -N4 -tu4 /dev/urandom)" '
		{ t[NR] = $0 } END {
			srand(seed)
			for (i = 0; i < count; i++) {
				l = t[int(rand() * NR) + 1]
				bus = sprintf("%02x", int(rand() * 256))
				gsub(/0000:[0-9a-f][0-9a-f]:/, "0000:" bus ":", l)
				gsub(/mlx5_[0-9]+/, "mlx5_" int(rand() * 64), l)
				print l
			}
		}' "$tmp/templates" | python3 "$top/tests/kernel/kmsg.py" write -p 6
}

echo "noisy host: 10,000 foreign mlx5-looking lines into /dev/kmsg"
foreign 10000 || exit 1
for _ in $(seq "$(nproc)"); do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
done
( while :; do foreign 20; sleep 1; done ) &
pids="$pids $!"
echo "noisy host: $(nproc) spinning processes, 20 foreign lines a second"

rc=0
for target in "$@"; do
	start=$(date +%s)
	if make -C "$builddir" "$target"; then
		echo "noisy host: make $target passed ($(( $(date +%s) - start )) s)"
	else
		echo "noisy host: make $target FAILED ($(( $(date +%s) - start )) s)"
		rc=1
	fi
done
exit $rc
