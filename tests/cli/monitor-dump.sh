#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 16: `mlxcli monitor --dump`, automatic incidents on the Table 19
# events, on a writable copy of the cx5-ofed sample whose recorded kernel
# log (dev/kmsg, records in the kernel's format, mlx5e reporter_tx's "ERR
# CQE on SQ: 0x%x" and mlx5e_update_carrier's "Link down" for the sample's
# own port) is replayed with --sysroot:
#   - a burst of CQE errors is one incident (TXCQ_STUCK, tag t, source
#     MONITOR in its name), holding the device's kernel-log lines, its
#     health dumps marked as not takeable (nor clearable) on a capture;
#   - PORT_STATE is off by default, on with --dump-types or the file;
#   - at most DumpEventsNum incidents per type, counting those already in
#     the dump root; without --dump nothing is made;
#   - nothing is written outside the dump root (the capture unchanged);
#   - a failed incident write (the fault shim, ENOSPC) leaves nothing,
#     the monitor goes on and the next burst is an incident;
#   - SIGHUP re-reads the configuration of a running monitor (a FIFO as
#     the recorded kernel log keeps the replay running); the incident of a
#     FIFO replay holds the kernel-log lines the monitor read;
#   - a fatal error or a compromised health makes a FATAL_ERROR incident,
#     and a burst is a run of events each within 60 s of the one before.
. "$(dirname "$0")/lib.sh"
need jq

cap=$tmp/cap
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$cap/" || { bad "cannot copy the sample"; finish; }
mkdir -p "$cap/dev"

# rec SEQ USEC TEXT: one kernel record of 0000:5e:00.0 (error level)
rec() {
	printf '3,%s,%s,-;mlx5_core 0000:5e:00.0 enp94s0f0np0: %s\n SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n' "$1" "$2" "$3"
}
# burst FIRST_SEQ SECOND N: N "ERR CQE on SQ" records 1 ms apart at SECOND
burst() {
	i=0
	while [ $i -lt "$3" ]; do
		rec $(($1 + i)) $(($2 * 1000000 + i * 1000)) "ERR CQE on SQ: 0x$(printf %x $((0x1d00 + i)))"
		i=$((i + 1))
	done
}
incidents() { ls -A "$1" 2>/dev/null | grep -c '^dmn-'; }
# guard_for PID: kill PID after 300 s (a hung monitor fails the test, never
# hangs it); killing $guard ends the guard and its sleep
guard_for() {
	( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 300 & s=$!; wait $s; kill "$1" 2>/dev/null ) 3>&- &
	guard=$!
}


burst 10 100 6 >"$cap/dev/kmsg"
tree_sum "$cap" >"$tmp/cap.before"
run burst --sysroot "$cap" -j monitor --dump --dir "$tmp/d1"
n=$(incidents "$tmp/d1")
name=$(ls "$tmp/d1" | head -1)
inc=$(jq -c 'select(.record == "incident") | [.kind, .dump_type, .dump_tag, .pci_address]' "$tmp/burst.out")
end=$(jq -c 'select(.record == "end") | [.event_count, .incident_count]' "$tmp/burst.out")
[ $rc -eq 0 ] && [ "$n" = 1 ] && [ "$inc" = '["sq_error_cqe","TXCQ_STUCK","t","0000:5e:00.0"]' ] &&
	[ "$end" = '[6,1]' ] && ok "a burst of 6 CQE errors is one incident: $inc" ||
	bad "burst: exit $rc, $n incidents, '$inc', end $end: $(cat "$tmp/burst.err")"
case $name in
dmn-0000_5e_00.0-TXCQ_STUCK-MONITOR-TXCQ_STUCK.t.sq_error_cqe--*) ok "the folder names the type and tag: $name" ;;
*) bad "folder name '$name'" ;;
esac
m=$tmp/d1/$name/manifest.json
[ "$(jq -r '[.type, .source, .reason] | join(" ")' "$m")" = "TXCQ_STUCK MONITOR TXCQ_STUCK.t.sq_error_cqe" ] &&
	ok "the manifest says why" || bad "manifest: $(jq -c '[.type, .source, .reason]' "$m")"
[ "$(jq -r '.items[] | select(.name == "kernel-log.txt") | .result' "$m")" = ok ] &&
	[ "$(grep -c 'ERR CQE on SQ' "$tmp/d1/$name/kernel-log.txt")" = 6 ] &&
	ok "the incident holds the device's kernel-log lines" ||
	bad "kernel-log.txt: $(jq -c '.items[] | select(.name == "kernel-log.txt")' "$m")"
h=$(jq -r '[.items[] | select(.name | startswith("devlink-health-dump-")) | .result + ":" + .reason] | unique | join("|")' "$m")
case $h in
*unavailable:*DUMP_CLEAR*live\ device*) ok "health dumps: neither taken nor cleared on a capture, and said" ;;
*) bad "health dump items: $h" ;;
esac
tree_sum "$cap" >"$tmp/cap.after"
cmp -s "$tmp/cap.before" "$tmp/cap.after" && [ "$(ls -A "$tmp" | grep -c '^d1$')" = 1 ] &&
	ok "nothing written outside the dump root (the capture unchanged)" ||
	bad "the capture changed: $(diff "$tmp/cap.before" "$tmp/cap.after" | head -3)"

# without --dump: the same events, no dump root made
run nodump --sysroot "$cap" -j monitor --dir "$tmp/d0"
[ $rc -eq 0 ] && [ ! -e "$tmp/d0" ] && ok "without --dump: no incident" || bad "without --dump: $(ls -A "$tmp/d0")"

# PORT_STATE: off by default (Table 19), on when asked for
{ rec 1 5000000 "Link down"; rec 2 5001000 "Link up"; rec 3 200000000 "Link down"; } >"$cap/dev/kmsg"
run port --sysroot "$cap" -j monitor --dump --dir "$tmp/d2"
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d2")" = 0 ] && ok "link_down (PORT_STATE) is no incident by default" ||
	bad "PORT_STATE default: exit $rc, $(incidents "$tmp/d2") incidents"
run port2 --sysroot "$cap" -j monitor --dump --dump-types PORT_STATE,t --dir "$tmp/d2"
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d2")" = 2 ] && ok "--dump-types PORT_STATE: two downs 195 s apart, two incidents" ||
	bad "--dump-types PORT_STATE: exit $rc, $(incidents "$tmp/d2"): $(cat "$tmp/port2.err")"
run badtypes --sysroot "$cap" monitor --dump --dump-types PORT_STATE,bogus --dir "$tmp/d9"
[ $rc -eq 2 ] && [ ! -e "$tmp/d9" ] && ok "--dump-types bogus exits 2" || bad "--dump-types bogus: exit $rc"

# the configuration file: monitor_dump, monitor_dump_types, dmn_dir
printf 'dmn_dir = %s\nmonitor_dump = yes\nmonitor_dump_types = p\n' "$tmp/d3" >"$tmp/m.conf"
MLXCLI_CONFIG=$tmp/m.conf "$MLXCLI" --sysroot "$cap" -j monitor >"$tmp/conf.out" 2>"$tmp/conf.err"
rc=$?
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d3")" = 2 ] && ok "monitor_dump = yes, monitor_dump_types = p in the file" ||
	bad "config file: exit $rc, $(incidents "$tmp/d3"): $(cat "$tmp/conf.err")"
printf 'monitor_dump = maybe\n' >"$tmp/bad.conf"
MLXCLI_CONFIG=$tmp/bad.conf "$MLXCLI" --sysroot "$cap" monitor >/dev/null 2>"$tmp/bad.err"
[ $? -eq 2 ] && grep -q 'bad.conf:1' "$tmp/bad.err" && ok "monitor_dump = maybe: exit 2" || bad "bad monitor_dump: $(cat "$tmp/bad.err")"

# issue 25 item 12: the worst event takes a dump: a fatal error and a
# firmware whose health is compromised make a FATAL_ERROR incident (a type
# Table 19 lacks: Windows bugchecks), on by default, one per burst
{
	printf '3,1,5000000,-;mlx5_core 0000:5e:00.0: poll_health:717:(pid 0): device'"'"'s health compromised - reached miss count\n SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n'
	printf '3,2,6000000,-;mlx5_core 0000:5e:00.0: poll_health:702:(pid 0): Fatal error 1 detected\n SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n'
} >"$cap/dev/kmsg"
run fatal --sysroot "$cap" -j monitor --dump --dir "$tmp/d6"
inc=$(jq -c 'select(.record == "incident") | [.kind, .dump_type, .dump_tag]' "$tmp/fatal.out")
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d6")" = 1 ] && [ "$inc" = '["health_compromised","FATAL_ERROR","f"]' ] &&
	ls "$tmp/d6" | grep -q -- '-FATAL_ERROR-MONITOR-FATAL_ERROR\.f\.health_compromised--' &&
	ok "health compromised, then a fatal error: one FATAL_ERROR incident by default" ||
	bad "fatal: exit $rc, $(incidents "$tmp/d6") incidents, '$inc': $(cat "$tmp/fatal.err")"
run fatal2 --sysroot "$cap" -j monitor --dump --dump-types fatal_error --dir "$tmp/d7"
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d7")" = 1 ] && ok "--dump-types fatal_error" ||
	bad "--dump-types fatal_error: exit $rc, $(incidents "$tmp/d7"): $(cat "$tmp/fatal2.err")"
run fatal3 --sysroot "$cap" -j monitor --dump --dump-types CMD_ERR --dir "$tmp/d8"
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d8")" = 0 ] && ok "--dump-types CMD_ERR: no incident for a fatal error" ||
	bad "--dump-types CMD_ERR: exit $rc, $(incidents "$tmp/d8")"

# issue 29 item 12: a burst is a run of events of one type and device each
# within 60 s of the one before (microseconds, not whole seconds: 10.999 s
# and 70.001 s are 59.002 s apart); a minute of silence ends it
{ rec 1 10999000 "ERR CQE on SQ: 0x1"; rec 2 40000000 "ERR CQE on SQ: 0x2"; rec 3 70001000 "ERR CQE on SQ: 0x3"
  rec 4 125000000 "ERR CQE on SQ: 0x4"; rec 5 186000000 "ERR CQE on SQ: 0x5"; } >"$cap/dev/kmsg"
run bursts --sysroot "$cap" -j monitor --dump --dir "$tmp/d9b"
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d9b")" = 2 ] &&
	[ "$(jq -c 'select(.record == "end") | [.event_count, .incident_count]' "$tmp/bursts.out")" = '[5,2]' ] &&
	ok "events 59.0, 30, 55 s apart are one burst; 61 s after, the next" ||
	bad "bursts: exit $rc, $(incidents "$tmp/d9b") incidents: $(tail -1 "$tmp/bursts.out")"

# DumpEventsNum: 4 bursts 100 s apart, 2 per type; a restarted monitor
# counts what the dump root holds
{ burst 10 100 3; burst 20 200 3; burst 30 300 3; burst 40 400 3; } >"$cap/dev/kmsg"
run budget --sysroot "$cap" -j monitor --dump --dump-events-num 2 --dir "$tmp/d4"
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d4")" = 2 ] && ok "4 bursts, --dump-events-num 2: 2 incidents" ||
	bad "budget: exit $rc, $(incidents "$tmp/d4") incidents"
run budget2 --sysroot "$cap" -j monitor --dump --dump-events-num 3 --dir "$tmp/d4"
[ $rc -eq 0 ] && [ "$(incidents "$tmp/d4")" = 3 ] && ok "restarted with 3: one more (the 2 in the root count)" ||
	bad "budget restart: exit $rc, $(incidents "$tmp/d4") incidents"

echo "== ENOSPC on a write of the incident (tests/fault/fault-shim.c)"
SHIM=${TOP_BUILDDIR:-$(pwd)}/tests/fault/fault-shim.so
if [ -f "$SHIM" ] && [ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ]; then
	{ burst 10 100 3; burst 20 200 3; } >"$cap/dev/kmsg"
	for k in 1 3; do
		d=$tmp/f$k
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD=$SHIM \
			MLXCLI_FAULT_CALL=write MLXCLI_FAULT_PATH="$d/.tmp-" MLXCLI_FAULT_ERRNO=ENOSPC \
			MLXCLI_FAULT_NTH=$k "$MLXCLI" --sysroot "$cap" -j monitor --dump --dir "$d" \
			>"$tmp/f.out" 2>"$tmp/f.err"
		rc=$?
		left=$(ls -A "$d" | grep -vc '^dmn-')
		[ $rc -eq 0 ] && [ "$(incidents "$d")" = 1 ] && [ "$left" = 0 ] && grep -q 'No space left' "$tmp/f.err" &&
			[ "$(jq -s '[.[] | select(.record == "incident")] | length' "$tmp/f.out")" = 1 ] &&
			ok "write $k fails: that incident is not kept, the next burst's is, nothing half-written" ||
			bad "write $k: exit $rc, $(ls -A "$d"): $(cat "$tmp/f.err")"
	done
else
	echo "# skip: no fault shim, or under a wrapper"
fi

echo "== SIGHUP re-reads the configuration"
rm -f "$cap/dev/kmsg"
mkfifo "$cap/dev/kmsg"
printf 'dmn_dir = %s\nmonitor_dump = yes\n' "$tmp/d5" >"$tmp/h.conf"
exec 3<>"$cap/dev/kmsg"      # a writer that keeps the replay running
MLXCLI_CONFIG=$tmp/h.conf "$MLXCLI" --sysroot "$cap" -j monitor >"$tmp/hup.out" 2>"$tmp/hup.err" 3>&- &
pid=$!
guard_for $pid     # a hung monitor fails the test, never hangs it
# waitfor FILE PATTERN: until PATTERN is in FILE (30 s at most, scaled:
# never a fixed time, issue 30)
waitfor() { wait_until 30 grep -q "$2" "$1"; }
burst 10 100 2 >&3
waitfor "$tmp/hup.out" '"record":"incident"'
# an incident of a FIFO replay holds the records the monitor read (the
# FIFO cannot be read again; issue 29 item 12)
m=$(ls -d "$tmp"/d5/dmn-* 2>/dev/null | head -1)/manifest.json
[ "$(jq -r '.items[] | select(.name == "kernel-log.txt") | .result' "$m" 2>/dev/null)" = ok ] &&
	grep -q '^# source: the records the monitor read' "${m%/manifest.json}/kernel-log.txt" &&
	grep -q 'ERR CQE on SQ: 0x1d00$' "${m%/manifest.json}/kernel-log.txt" &&
	ok "an incident of a FIFO replay holds the kernel-log lines the monitor read" ||
	bad "FIFO replay incident: $(jq -c '.items[] | select(.name == "kernel-log.txt")' "$m" 2>&1)"
printf 'dmn_dir = %s\nmonitor_dump = yes\nmonitor_dump_types = none\n' "$tmp/d5" >"$tmp/h.conf"
kill -HUP $pid
waitfor "$tmp/hup.err" 'configuration re-read'
burst 20 200 2 >&3
rec 30 300000000 "Link up" >&3    # (the sequence gaps are two records_lost: 7 events)
waitfor "$tmp/hup.out" '"sequence":30'
exec 3>&-
wait $pid
rc=$?
kill $guard 2>/dev/null
grep -q 'SIGHUP: configuration re-read: automatic incidents on (no type)' "$tmp/hup.err" &&
	[ $rc -eq 0 ] && [ "$(incidents "$tmp/d5")" = 1 ] &&
	[ "$(jq -c 'select(.record == "end") | [.event_count, .incident_count]' "$tmp/hup.out")" = '[7,1]' ] &&
	ok "SIGHUP: monitor_dump_types = none applies to the events after it" ||
	bad "SIGHUP: exit $rc, $(incidents "$tmp/d5") incidents: $(cat "$tmp/hup.err") $(tail -1 "$tmp/hup.out")"
echo "== --poll: AER totals that grow are events"
aer=$cap/sys/bus/pci/devices/0000:5e:00.0/aer_dev_correctable
exec 3<>"$cap/dev/kmsg"
"$MLXCLI" --sysroot "$cap" -v -j monitor --poll 1 >"$tmp/poll.out" 2>"$tmp/poll.err" 3>&- &
pid=$!
guard_for $pid
waitfor "$tmp/poll.err" 'polls: the baseline is read'
sed -i 's/^TOTAL_ERR_COR .*/TOTAL_ERR_COR 3/' "$aer"
waitfor "$tmp/poll.out" aer_counter_moved
exec 3>&-
wait $pid
rc=$?
kill $guard 2>/dev/null
p=$(jq -c 'select(.kind == "aer_counter_moved") | [.pci_address, .error_count, .detail, .message]' "$tmp/poll.out")
[ $rc -eq 0 ] && [ "$p" = '["0000:5e:00.0",3,"correctable","correctable AER errors: 0 -> 3 (+3)"]' ] &&
	ok "--poll 1: TOTAL_ERR_COR 0 -> 3 is one aer_counter_moved $p" || bad "--poll: exit $rc, '$p': $(cat "$tmp/poll.err")"
run badpoll --sample=cx5-ofed monitor --poll 0
[ $rc -eq 2 ] && ok "--poll 0 exits 2" || bad "--poll 0 exits $rc"
finish
