#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mlxcli's RDMA view on a real kernel: rdma_rxe on both ends of a veth pair
# in the kernel lab (Debian 12's 6.1), with live objects made by rdma-core's
# own tools, held to iproute2's `rdma` and sysfs on the same objects:
#   - ibv_rc_pingpong, server and client on the first rxe device (over its
#     IPv4 GID; the kernel loops rxe's packets back), and rping, server and
#     client through rdma_cm: connected RC QPs, CM IDs (a listening one, two
#     connected); both stopped (SIGSTOP) once connected, so the objects hold
#     still while they are read;
#   - an RC QP sent to a remote QPN nobody has, which rxe's retry timer
#     moves to ERR (tests/vm/guest/rdma-verbs.py, pyverbs), on an SRQ;
#   - rdma show/qp/cm-id/cq/mr/pd/ctx/srq/gids/stats, text and JSON, and
#     qp/cm-id --errors, against `rdma -j resource show KIND`, `rdma -j
#     link`, `rdma -j dev`, `rdma -j statistic`, ibv_devinfo's active MTU
#     and the GID table and hw_counters in sysfs (tests/vm/guest/
#     rdma-compare.py: every field of every object);
#   - as nobody: the same objects, exit 0, the MR and PD keys withheld (as
#     the kernel withholds them from rdma too) and said on stderr;
#   - a snapshot of this moment with every command's output beside it, left
#     in $LAB_OUT/artifacts/rdma-live.tar for the host (one file: every file
#     written to the 9p share costs tens of milliseconds under TCG, and
#     rxe's GID table alone is 1,024 files a port): tests/vm/host/
#     rdma-replay.sh replays it there with --sysroot and wants the same
#     bytes, and tests/vm/host/rdma-replies.sh holds the sample hosts'
#     recorded replies to these (gen/samples_rdma.py).
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need rdma ibv_rc_pingpong rping ibv_devinfo python3 setpriv jq
[ -d /sys/module/rdma_rxe ] || { echo "SKIP: no rdma_rxe module here"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
: "${LAB_OUT:?}"
art=$tmp/rdma-live
mkdir -p "$art/live" "$LAB_OUT/artifacts" || exit 1
rm -f "$LAB_OUT/artifacts/rdma-live.tar"

t0=$(date +%s)
phase() { echo "# $(($(date +%s) - t0)) s: $*"; }
# Names of this test's own (the lab runs two tests side by side).
a=rla$$ b=rlb$$ d0=rxa$$ d1=rxb$$ ip0=192.0.2.11 ip1=192.0.2.12
port=$((20000 + $$ % 20000))
pids=
cleanup() {
	# shellcheck disable=SC2086
	[ -z "$pids" ] || { kill -CONT $pids; kill $pids; wait; } 2>/dev/null
	rdma link delete "$d0" 2>/dev/null
	rdma link delete "$d1" 2>/dev/null
	ip link del "$a" 2>/dev/null
}
on_exit="cleanup; $on_exit"
ip link set lo up
ip link add "$a" type veth peer name "$b" && ip link set "$a" up && ip link set "$b" up &&
	ip addr add "$ip0/24" dev "$a" && ip addr add "$ip1/24" dev "$b" ||
	{ bad "cannot make the veth pair"; exit 1; }
rdma link add "$d0" type rxe netdev "$a" && rdma link add "$d1" type rxe netdev "$b" ||
	{ bad "cannot add the rxe devices"; exit 1; }

# wait_for WHAT SECONDS CMD...: until CMD succeeds (every half second)
wait_for() {
	w=$1 n=$(($2 * 2))
	shift 2
	while ! "$@" >/dev/null 2>&1; do
		n=$((n - 1))
		[ $n -gt 0 ] || { bad "$w did not happen"; return 1; }
		sleep 0.5
	done
}
# rc_rts PID...: each PID owns an RC QP in RTS on $d0 (rdma resource)
rc_rts() {
	rdma -j resource show qp link "$d0" >"$tmp/poll.json" 2>/dev/null || return 1
	for p in "$@"; do
		jq -e --argjson p "$p" 'map(select(.pid == $p and .state == "RTS")) | length > 0' \
			"$tmp/poll.json" >/dev/null || return 1
	done
}

# The error QP first: pyverbs is slow to start under TCG.
python3 "$here/rdma-verbs.py" errqp "$d0" 1 "$tmp/errqp" 2>"$tmp/errqp.err" &
err_pid=$!
pids="$pids $err_pid"
ibv_rc_pingpong -d "$d0" -g 1 -p "$port" -n 100000000 >"$tmp/pp-srv.log" 2>&1 &
pp1=$!
pids="$pids $pp1"
rping -s -a "$ip0" -p "$((port + 1))" -C 100000000 >"$tmp/rping-srv.log" 2>&1 &
rp1=$!
pids="$pids $rp1"
sleep 1
ibv_rc_pingpong -d "$d0" -g 1 -p "$port" -n 100000000 127.0.0.1 >"$tmp/pp-cli.log" 2>&1 &
pp2=$!
pids="$pids $pp2"
wait_for "ibv_rc_pingpong's connection" 60 rc_rts "$pp1" "$pp2" || cat "$tmp"/pp-*.log
kill -STOP "$pp1" "$pp2"
rping -c -I "$ip0" -a "$ip0" -p "$((port + 1))" -C 100000000 >"$tmp/rping-cli.log" 2>&1 &
rp2=$!
pids="$pids $rp2"
wait_for "rping's connection" 60 rc_rts "$rp1" "$rp2" || cat "$tmp"/rping-*.log
kill -STOP "$rp1" "$rp2"
# ready, or gone (no pyverbs: skip; a refusal: fail)
errqp_done() { test -s "$tmp/errqp" || ! kill -0 "$err_pid"; }
wait_for "the error QP" 180 errqp_done
if [ ! -s "$tmp/errqp" ]; then
	wait "$err_pid"
	[ $? -ne 77 ] || { echo "SKIP: $(cat "$tmp/errqp.err")"; exit 77; }
	bad "no QP in error: $(cat "$tmp/errqp.err")"
	exit 1
fi
phase "the objects are made"
sleep 1          # what was in flight when the processes stopped lands

# Everything at one moment: iproute2's view, mlxcli's, a snapshot.
o=$tmp/cmp
mkdir -p "$o"
for k in qp cm_id cq mr pd ctx srq; do rdma -j resource show "$k" >"$o/rdma-$k.json"; done
rdma -j resource show >"$o/rdma-res.json"
rdma -j link show >"$o/rdma-link.json"
rdma -j dev show >"$o/rdma-dev.json"
rdma -j statistic show >"$o/rdma-stat.json"
ibv_devinfo -v -d "$d0" >"$o/devinfo.txt" 2>&1
for c in show qp cm-id cq mr pd ctx srq gids stats; do
	"$MLXCLI" -j rdma "$c" >"$o/m-$c.json" 2>"$o/m-$c.json.err"
	echo $? >>"$o/rc"
	"$MLXCLI" rdma "$c" >"$o/m-$c.txt" 2>"$o/m-$c.txt.err"
	echo $? >>"$o/rc"
done
"$MLXCLI" -j rdma qp --errors >"$o/m-qp-errors.json" 2>&1
"$MLXCLI" rdma qp --errors >"$o/m-qp-errors.txt" 2>&1
"$MLXCLI" -j rdma cm-id --errors >"$o/m-cm-id-errors.json" 2>&1
# For the replay, each of this test's devices alone (-d): the other lane's
# tests may add and delete RDMA devices between these outputs and the
# snapshot (rdma-cm.sh's, with ib_core's GSI QP on it).
for dv in "$d0" "$d1"; do
	mkdir -p "$art/live/$dv"
	for c in show qp cm-id cq mr pd ctx srq gids stats; do
		"$MLXCLI" -d "$dv" -j rdma "$c" >"$art/live/$dv/$c.json" 2>"$art/live/$dv/$c.json.err"
		"$MLXCLI" -d "$dv" rdma "$c" >"$art/live/$dv/$c.txt" 2>"$art/live/$dv/$c.txt.err"
	done
	"$MLXCLI" -d "$dv" -j rdma qp --errors >"$art/live/$dv/qp-errors.json" 2>&1
	"$MLXCLI" -d "$dv" rdma qp --errors >"$art/live/$dv/qp-errors.txt" 2>&1
	"$MLXCLI" -d "$dv" -j rdma cm-id --errors >"$art/live/$dv/cm-id-errors.json" 2>&1
done
"$MLXCLI" snapshot "$art/snap" >"$tmp/snap.log" 2>&1 || { bad "snapshot failed"; cat "$tmp/snap.log"; }
phase "read and recorded"
check "every rdma command exits 0" "$(sort -u "$o/rc" | tr '\n' ' ')" "0 "
check "nothing on stderr" "$(cat "$o"/*.err "$art"/live/*/*.err)" ""

priv_setup
for k in qp mr pd; do
	as_nobody "$NOBODY_MLXCLI" -j rdma "$k" >"$o/nobody-$k.json" 2>"$o/nobody-$k.err"
	echo $? >"$o/nobody-$k.rc"
done
for k in mr pd; do as_nobody rdma -j resource show "$k" >"$o/nobody-rdma-$k.json"; done

cat >"$o/facts.json" <<EOF
{"devices": ["$d0", "$d1"], "addresses": ["$ip0", "$ip1"], "pingpong_pids": [$pp1, $pp2],
 "rping_pids": [$rp1, $rp2], "err_pid": $err_pid, "err_qpn": $(head -n 1 "$tmp/errqp")}
EOF
phase "as nobody"
python3 "$here/rdma-compare.py" "$o" || fail=1
phase "compared"
# the test's devices, for the host's replay; all of it as one file
echo "$d0 $d1" >"$art/devices"
tar -C "$tmp" -cf "$LAB_OUT/artifacts/rdma-live.tar" rdma-live || bad "cannot store the artifact"
finish
