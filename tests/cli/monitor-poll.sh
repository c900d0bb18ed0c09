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
#   - text output names the counter; --poll of a bad value exits 2.
. "$(dirname "$0")/lib.sh"
need jq python3

cap=$tmp/cap
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$cap/" || { bad "cannot copy the sample"; finish; }
mkdir -p "$cap/dev"
rm -f "$cap/dev/kmsg"
mkfifo "$cap/dev/kmsg"
eth=$cap/netlink/ethtool/enp94s0f0np0
set_stat() { python3 "$TOP_SRCDIR/tests/cli/ethtool-stat-set.py" "$eth" "$1" "$2" || bad "cannot set $1"; }
waitfor() {     # N FILE PATTERN: up to N/10 s for PATTERN in FILE
	i=0
	while [ $i -lt "$1" ] && ! grep -q "$3" "$2" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
}
# the monitor with --poll 1 (JSON with -j) until its kernel log's writer closes
start_mon() {
	exec 3<>"$cap/dev/kmsg"
	"$MLXCLI" --sysroot "$cap" "$@" >"$tmp/poll.out" 2>"$tmp/poll.err" 3>&- &
	pid=$!
	(sleep 60; kill $pid 2>/dev/null) 3>&- &      # a hung monitor fails the test, never hangs it
	guard=$!
	sleep 1.5               # the baseline is read
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
waitfor 50 "$tmp/poll.out" pause_storm_error
set_stat module_bus_stuck 1
set_stat link_down_events_phy 3
waitfor 50 "$tmp/poll.out" link_down_counted
set_stat tx_pause_storm_error_events 0          # cleared: a reset
sleep 1.5
set_stat tx_pause_storm_error_events 1
waitfor 50 "$tmp/poll.out" 'tx_pause_storm_error_events: 0 -> 1'
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
waitfor 50 "$tmp/poll.out" 'module_high_temp: 0'
stop_mon
grep -q '^20[0-9-]*T[0-9:.]*Z: error    module_high_temp  *0000:5e:00.0 enp94s0f0np0 delta=4 total=4  module_high_temp: 0 -> 4 (+4)$' "$tmp/poll.out" &&
	[ $rc -eq 0 ] && ok "text: $(cat "$tmp/poll.out")" || bad "text: exit $rc: $(cat "$tmp/poll.out" "$tmp/poll.err")"

for v in 0 x 86401 -1; do
	run badpoll --sample=cx5-ofed monitor --poll "$v"
	[ $rc -eq 2 ] && grep -q "invalid --poll" "$tmp/badpoll.err" && ok "--poll $v exits 2" ||
		bad "--poll $v exits $rc"
done
finish
