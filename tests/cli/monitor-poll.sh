#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 16: `mlxcli monitor --poll SEC`, the counters that only count.  A
# copy of the cx5-ofed sample is replayed with --sysroot (a FIFO as its
# kernel log keeps the monitor running) while its recorded ethtool -S
# values are changed the way the driver would count (ethtool-stat-set.py):
#   - the first poll is the baseline (the sample's non-zero counters are
#     no events);
#   - tx_pause_storm_error_events 0 -> 2 is one pause_storm_error event of
#     the port, with the counter's name, the delta and the total;
#   - two counters that grow in one period are two events of their kinds
#     (module_bus_stuck, link_down_counted with its Table 19 PORT_STATE);
#   - a counter that goes back is a reset, no event; its next growth is
#     counted from the value after the reset;
#   - text output names the counter; --poll of a bad value exits 2;
#   - --vf-thresholds (the VF monitor): a VF's own devlink health vnic
#     reporter and a representor's port reporter of the PF (vnic-set.py
#     records them) are diagnosed each period; a counter that grows by
#     more than its threshold is a vf_resource_threshold event, by the
#     threshold itself or less none; a bad SPEC, or no --poll, exits 2.
. "$(dirname "$0")/lib.sh"
need jq python3

cap=$tmp/cap
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$cap/" || { bad "cannot copy the sample"; finish; }
mkdir -p "$cap/dev"
rm -f "$cap/dev/kmsg"
mkfifo "$cap/dev/kmsg"
eth=$cap/netlink/ethtool/enp94s0f0np0
set_stat() { python3 "$TOP_SRCDIR/tests/cli/ethtool-stat-set.py" "$eth" "$1" "$2" || bad "cannot set $1"; }
# waitfor FILE PATTERN: until PATTERN is in FILE (30 s at most, scaled)
waitfor() { wait_until 30 grep -q "$2" "$1"; }
# guard_for PID: kill PID after 300 s (a hung monitor fails the test, never
# hangs it); killing $guard ends the guard and its sleep
guard_for() {
	( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 300 & s=$!; wait $s; kill "$1" 2>/dev/null ) 3>&- &
	guard=$!
}
# the monitor with --poll 1 (JSON with -j) until its kernel log's writer
# closes; -vv: it says when the baseline and each poll are read, which the
# test waits for (issue 30: never a fixed time)
start_mon() {
	exec 3<>"$cap/dev/kmsg"
	"$MLXCLI" --sysroot "$cap" -vv "$@" >"$tmp/poll.out" 2>"$tmp/poll.err" 3>&- &
	pid=$!
	guard_for $pid     # a hung monitor fails the test, never hangs it
		wait_until 30 sh -c "grep -q 'polls: the baseline is read' '$tmp/poll.err' || ! kill -0 $pid 2>/dev/null"
}
# next_poll: until one more poll than now is read
polls() { grep -c 'polls: poll [0-9]* read' "$tmp/poll.err"; }
next_poll() {
	n0=$(polls)
	wait_until 30 sh -c "[ \$(grep -c 'polls: poll [0-9]* read' '$tmp/poll.err') -gt $n0 ]" ||
		bad "no poll in 30 s"
}
stop_mon() {
	exec 3>&-
	wait $pid
	rc=$?
	kill $guard 2>/dev/null
}

set_stat rx_recover 5           # non-zero before the monitor starts: the baseline
start_mon -j monitor --poll 1
set_stat tx_pause_storm_error_events 2
waitfor "$tmp/poll.out" pause_storm_error
set_stat module_bus_stuck 1
set_stat link_down_events_phy 3
waitfor "$tmp/poll.out" link_down_counted
set_stat tx_pause_storm_error_events 0          # cleared: a reset
next_poll
set_stat tx_pause_storm_error_events 1
waitfor "$tmp/poll.out" 'tx_pause_storm_error_events: 0 -> 1'
stop_mon
ev=$(jq -c 'select(.record == "event") | [.kind, .netdev, .name, .delta, .total]' "$tmp/poll.out" | tr '\n' ' ')
want='["pause_storm_error","enp94s0f0np0","tx_pause_storm_error_events",2,2] '
[ $rc -eq 0 ] && [ "${ev%% *}" = "${want% }" ] && ok "tx_pause_storm_error_events 0 -> 2: ${ev%% *}" ||
	bad "pause storm: exit $rc, events $ev: $(cat "$tmp/poll.err")"
two=$(jq -c 'select(.record == "event") | [.kind, .name, .delta, .total, .dump_type, .pci_address, .source]' "$tmp/poll.out" |
	sed -n '2,3p' | sort | tr '\n' ' ')
[ "$two" = '["link_down_counted","link_down_events_phy",3,3,"PORT_STATE","0000:5e:00.0","monitor"] ["module_bus_stuck","module_bus_stuck",1,1,null,"0000:5e:00.0","monitor"] ' ] &&
	ok "two counters in one period: two events" || bad "two counters: $two"
last=$(jq -c 'select(.record == "event") | [.kind, .delta, .total]' "$tmp/poll.out" | sed -n '4,$p' | tr '\n' ' ')
[ "$last" = '["pause_storm_error",1,1] ' ] && ok "a reset (2 -> 0) is no event; 0 -> 1 after it is +1" ||
	bad "after a reset: $last"
jq -e 'select(.record == "event") | select(.name == "rx_recover")' "$tmp/poll.out" >/dev/null &&
	bad "the baseline made an event" || ok "the baseline (rx_recover 5) is no event"

# text: the counter in the line
set_stat module_high_temp 0
start_mon monitor --poll 1 --count 1
set_stat module_high_temp 4
waitfor "$tmp/poll.out" 'module_high_temp: 0'
stop_mon
grep -q '^20[0-9-]*T[0-9:.]*Z: error    module_high_temp  *0000:5e:00.0 enp94s0f0np0 delta=4 total=4  module_high_temp: 0 -> 4 (+4)$' "$tmp/poll.out" &&
	[ $rc -eq 0 ] && ok "text: $(cat "$tmp/poll.out")" || bad "text: exit $rc: $(cat "$tmp/poll.out" "$tmp/poll.err")"

echo "== --vf-thresholds"
vnic() { python3 "$TOP_SRCDIR/tests/cli/vnic-set.py" "$cap" "$@" || bad "cannot record the vnic reporter $*"; }
vnic 0000:5e:00.2 -1 quota_exceeded_command=5 cq_overrun=2
vnic 0000:5e:00.0 65537 invalid_command=3
start_mon -j monitor --poll 1 --vf-thresholds quota_exceeded_command=10,invalid_command=0
vnic 0000:5e:00.2 -1 quota_exceeded_command=15 cq_overrun=90   # +10: the threshold itself; not watched
vnic 0000:5e:00.0 65537 invalid_command=3
next_poll
vnic 0000:5e:00.2 -1 quota_exceeded_command=26 cq_overrun=90   # +11
vnic 0000:5e:00.0 65537 invalid_command=4                      # +1 over 0
waitfor "$tmp/poll.out" '"kind":"vf_resource_threshold".*"kind":"vf_resource_threshold"'
waitfor "$tmp/poll.out" 'quota_exceeded_command grew'
stop_mon
vf=$(jq -c 'select(.record == "event") | [.kind, .pci_address, .reporter, .detail, .name, .delta, .total]' "$tmp/poll.out" | sort | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$vf" = '["vf_resource_threshold","0000:5e:00.0","vnic","port 65537","invalid_command",1,4] ["vf_resource_threshold","0000:5e:00.2","vnic",null,"quota_exceeded_command",11,26] ' ] &&
	ok "--vf-thresholds: the VF's +11 over 10 and the representor's +1 over 0; +10 and an unwatched counter none" ||
	bad "--vf-thresholds: exit $rc, events $vf: $(cat "$tmp/poll.err")"
grep -q 'quota_exceeded_command grew by 11 in one period (threshold 10): 15 -> 26' "$tmp/poll.out" &&
	ok "its message says the growth and the threshold" || bad "vf message: $(cat "$tmp/poll.out")"
# one number: every counter
start_mon monitor --poll 1 --vf-thresholds 50 --count 1
vnic 0000:5e:00.2 -1 quota_exceeded_command=26 cq_overrun=200
waitfor "$tmp/poll.out" cq_overrun
stop_mon
grep -q 'warning  vf_resource_threshold  *0000:5e:00.2 enp94s0f2 reporter=vnic delta=110 total=200  cq_overrun grew by 110' "$tmp/poll.out" &&
	ok "--vf-thresholds 50: cq_overrun +110 (text)" || bad "--vf-thresholds 50: $(cat "$tmp/poll.out" "$tmp/poll.err")"
# a system without vnic reporters says so
with_vnic=$cap
cap=$tmp/plain
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$cap/" && mkdir -p "$cap/dev" && mkfifo "$cap/dev/kmsg" || bad "cannot copy the sample"
start_mon monitor --poll 1 --vf-thresholds 1
stop_mon
[ $rc -eq 0 ] && grep -q "no function has a devlink health vnic reporter" "$tmp/poll.err" &&
	ok "no vnic reporter: a warning" || bad "no vnic reporter: exit $rc: $(cat "$tmp/poll.err")"
# a reporter whose diagnose fails (live: EPERM without CAP_NET_ADMIN) is said once
vnic 0000:5e:00.2 -1
rm -f "$cap/netlink/devlink/pci:0000:5e:00.2/diagnose-vnic.nl"
start_mon monitor --poll 1 --vf-thresholds 1
next_poll
stop_mon
[ $rc -eq 0 ] && [ "$(grep -c "vf-thresholds: .*diagnose-vnic.*no VF events from it" "$tmp/poll.err")" = 1 ] &&
	ok "a vnic diagnose that fails: one warning" || bad "failing diagnose: exit $rc: $(cat "$tmp/poll.err")"
cap=$with_vnic
# issue 25 item 13: a newer kernel's reporter gives more counters (6.18:
# bar_uar_access, the ODP page faults; icm_consumption): every counter the
# reporter gives is taken, checked against what it reports
vnic 0000:5e:00.2 -1 bar_uar_access=1000 odp_local_triggered_page_fault=5
start_mon -j monitor --poll 1 --vf-thresholds bar_uar_access=100,odp_local_triggered_page_fault=0
vnic 0000:5e:00.2 -1 bar_uar_access=1050 odp_local_triggered_page_fault=9
waitfor "$tmp/poll.out" odp_local_triggered_page_fault
stop_mon
vf=$(jq -c 'select(.record == "event") | [.kind, .pci_address, .name, .delta, .total]' "$tmp/poll.out" | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$vf" = '["vf_resource_threshold","0000:5e:00.2","odp_local_triggered_page_fault",4,9] ' ] &&
	ok "--vf-thresholds on a 2025 kernel's counters: odp_local_triggered_page_fault +4 over 0; bar_uar_access +50 under 100 none" ||
	bad "--vf-thresholds of newer counters: exit $rc, events $vf: $(cat "$tmp/poll.err")"
# a name no reporter of the system gives: exit 2 when the monitor reads
# them, naming what they give
start_mon monitor --poll 1 --vf-thresholds nosuch=1
stop_mon
[ $rc -eq 2 ] && grep -q "invalid --vf-thresholds: no vnic reporter of this system has a counter 'nosuch' (they have: total_error_queues, .*bar_uar_access" "$tmp/poll.err" &&
	ok "--vf-thresholds nosuch=1: exit 2 against what the reporters give" ||
	bad "--vf-thresholds nosuch=1: exit $rc: $(cat "$tmp/poll.err")"
for spec in '' No-such=1 quota_exceeded_command= quota_exceeded_command=-1 1,2 cq_overrun=1,cq_overrun=2 ,; do
	run badvf --sample=cx5-ofed monitor --poll 1 --vf-thresholds "$spec"
	[ $rc -eq 2 ] && grep -q "invalid --vf-thresholds" "$tmp/badvf.err" && ok "--vf-thresholds '$spec' exits 2" ||
		bad "--vf-thresholds '$spec' exits $rc: $(cat "$tmp/badvf.err")"
done
run vfnopoll --sample=cx5-ofed monitor --vf-thresholds 1
[ $rc -eq 2 ] && grep -q "needs --poll" "$tmp/vfnopoll.err" && ok "--vf-thresholds without --poll exits 2" ||
	bad "--vf-thresholds without --poll exits $rc"

for v in 0 x 86401 -1; do
	run badpoll --sample=cx5-ofed monitor --poll "$v"
	[ $rc -eq 2 ] && grep -q "invalid --poll" "$tmp/badpoll.err" && ok "--poll $v exits 2" ||
		bad "--poll $v exits $rc"
done
finish
