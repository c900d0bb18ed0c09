#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Event-to-line latency of `mlxcli monitor` on a veth flap (issue 16),
# side by side with `ip -ts monitor link` (iproute2) on the same flaps.
# Root; a private namespace with a veth pair va <-> vb.  For each of N
# flaps: T0 (wall clock, ns) just before `ip link set va down|up`, then
# the time each tool stamped the first line about va: mlxcli's "time" is
# taken when it hands the event to the output (then fflush), ip's -ts
# stamp when it received the message.  Both include ip(8)'s own start-up
# (a fork and exec before the kernel changes anything), so the difference
# of the two is what mlxcli adds.  Prints median, p90 and max per tool.
# Usage: monitor-latency.sh [N]   (MLXCLI = the binary)
set -e
N=${1:-40}
MLXCLI=${MLXCLI:?MLXCLI must name the binary}
ns=mlxcli-lat-$$
tmp=$(mktemp -d)
trap 'kill $mpid $ipid 2>/dev/null; ip netns del $ns 2>/dev/null; rm -rf $tmp' EXIT
ip netns add $ns
ip -n $ns link add va type veth peer name vb
ip -n $ns link set vb up
ip -n $ns link set va up
ip netns exec $ns "$MLXCLI" -j monitor --any-netdev -d va >$tmp/mlxcli.out 2>$tmp/mlxcli.err &
mpid=$!
ip netns exec $ns ip -ts monitor link >$tmp/ip.out 2>&1 &
ipid=$!
sleep 1
i=0
while [ $i -lt "$N" ]; do
	for s in down up; do
		date +%s%N >>$tmp/t0
		ip -n $ns link set va $s
		sleep 0.15
	done
	i=$((i + 1))
done
sleep 0.5
kill -TERM $mpid $ipid
wait $mpid 2>/dev/null || true
python3 - "$tmp" <<'PY'
import json, sys, datetime, statistics
d = sys.argv[1]
t0 = [int(l) / 1e9 for l in open(f'{d}/t0')]
def stamp_iso(s):
    return datetime.datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%f').replace(
        tzinfo=datetime.timezone.utc).timestamp()
mt = [stamp_iso(j['time'].rstrip('Z')) for j in map(json.loads, open(f'{d}/mlxcli.out'))
      if j.get('record') == 'event' and j['kind'] in ('admin_down', 'admin_up')]
it = []
for l in open(f'{d}/ip.out'):
    if 'va@vb' in l and l.startswith('['):
        # [2026-11-24T20:31:33.123456] (local time) ...
        ts = datetime.datetime.strptime(l[1:l.index(']')], '%Y-%m-%dT%H:%M:%S.%f').timestamp()
        it.append(ts)
def first_after(ts, t):
    c = [x for x in ts if x >= t]
    return min(c) - t if c else None
pairs = sorted((first_after(mt, t) - first_after(it, t)) * 1000 for t in t0
               if first_after(mt, t) is not None and first_after(it, t) is not None)
if pairs:
    print(f'mlxcli minus ip, same flap: median {statistics.median(pairs):+.3f} ms, '
          f'min {pairs[0]:+.3f}, max {pairs[-1]:+.3f} ms')
for name, ts in (('mlxcli monitor', mt), ('ip -ts monitor link', it)):
    lat = sorted(x * 1000 for x in (first_after(ts, t) for t in t0) if x is not None and x < 0.15)
    if not lat:
        print(f'{name}: no events'); continue
    p90 = lat[int(len(lat) * 0.9) - 1]
    print(f'{name}: {len(lat)} flaps, median {statistics.median(lat):.2f} ms, p90 {p90:.2f} ms, max {lat[-1]:.2f} ms')
PY
