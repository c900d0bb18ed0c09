#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `rdma qp -j` beside `rdma -j resource show qp` on the same live QPs, in
# the kernel lab (Debian 12's 6.1, rdma_rxe; BENCHMARKS.md "rdma qp, live"):
#
#     sh tests/vm/lab.sh run -o DIR -e ENVFILE tests/bench/rdma-lab.sh [N]
#
# with ENVFILE exporting MLXCLI (the built binary) and TOP_SRCDIR.  One
# process (tests/vm/guest/rdma-verbs.py, pyverbs) holds N RC QPs (default
# 10000; fewer if the device or the guest's memory refuses) on an rxe
# device over a veth; hyperfine -N then runs both commands, 3 warm-ups and
# 15 runs each, alternating, and writes DIR/rdma-bench.json (times, user
# and system CPU per run); DIR/rdma-bench.txt has the summary, the row
# counts of both (they must agree) and the layout of the kernel's dump
# (messages, entries per message: tests/bench/gen-rdma-qps.py builds its
# 10,000-QP capture the same way); DIR/rdma-bench-snap.tar is that
# snapshot, to time mlxcli on the kernel's own replies on the host
# (`mlxcli --sysroot big -j rdma qp`).  Everything runs under TCG, which
# inflates both sides (every syscall and page fault is emulated): the
# ratio is the figure, not the times.
set -u
: "${MLXCLI:?}" "${TOP_SRCDIR:?}" "${LAB_OUT:?runs in the lab (tests/vm/lab.sh run)}"
N=${1:-10000}
out=$LAB_OUT/rdma-bench.txt
a=rba$$ b=rbb$$ d=rxbench$$
ip link set lo up
ip link add "$a" type veth peer name "$b" && ip link set "$a" up && ip link set "$b" up &&
	ip addr add 192.0.2.21/24 dev "$a" && rdma link add "$d" type rxe netdev "$a" || exit 1
python3 "$TOP_SRCDIR/tests/vm/guest/rdma-verbs.py" qps "$d" "$N" /tmp/qps.ready 2>/tmp/qps.err &
holder=$!
s=$(date +%s)
while [ ! -s /tmp/qps.ready ] && kill -0 "$holder" 2>/dev/null; do sleep 2; done
[ -s /tmp/qps.ready ] || { echo "no QPs: $(cat /tmp/qps.err)"; exit 1; }
{
	echo "QPs held: $(wc -l </tmp/qps.ready) of $N asked, made in $(($(date +%s) - s)) s $(cat /tmp/qps.err)"
	echo "rows: mlxcli $("$MLXCLI" -j rdma qp | jq '.qps | length'), rdma $(rdma -j resource show qp | jq length)"
	free -m | sed -n 2p
	"$MLXCLI" snapshot /tmp/big >/dev/null 2>&1
	# the recorded replies of N live QPs, for a run on the host without TCG
	# (one file: every file written to the 9p share is slow)
	tar -C /tmp -cf "$LAB_OUT/rdma-bench-snap.tar" big
	python3 - /tmp/big/netlink/rdma/"$d"/res-qp-get.nl <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, sizes = 0, []
while off + 16 <= len(b):
    ln, t = struct.unpack_from("<IH", b, off)
    if t == 3:
        break
    # entries: the table nest's children (after DEV_INDEX and DEV_NAME)
    p, n, a = b[off + 16:off + ln], 0, 0
    while a + 4 <= len(p):
        al, at = struct.unpack_from("<HH", p, a)
        if at & 0x3fff == 19:
            e = a + 4
            while e + 4 <= a + al:
                el = struct.unpack_from("<H", p, e)[0]
                n += 1
                e += (el + 3) & ~3
        a += (al + 3) & ~3
    sizes.append((ln, n))
    off += (ln + 3) & ~3
print("kernel dump: %d messages; bytes/entries of the first three: %s; entries per message %d-%d"
      % (len(sizes), sizes[:3], min(s[1] for s in sizes), max(s[1] for s in sizes)))
PY
} >"$out" 2>&1
hyperfine -N --warmup 3 --runs 15 --export-json "$LAB_OUT/rdma-bench.json" \
	"$MLXCLI -j rdma qp" "rdma -j resource show qp" >>"$out" 2>&1
kill "$holder"
rdma link delete "$d"
ip link del "$a"
cat "$out"
