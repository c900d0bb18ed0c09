#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 16: `mlxcli monitor` offline.  A capture (a copy of the cx5-ofed
# sample) gets a recorded kernel log, dev/kmsg, made of the real mlx5 lines
# of $FIXTURES/dmesg as the kernel writes them to /dev/kmsg; `--sysroot DIR
# monitor` replays it through the live decoders:
#   - the TX-timeout capture gives tx_timeout, tx_timeout, eq_recover with
#     the netdev, the SQ and the EQ; a sequence gap gives records_lost;
#   - the same lines as user-space records (facility user, no DEVICE=) are
#     refused, and accepted with --accept-user-records;
#   - --count stops the stream, -d filters by function, bad values exit 2;
#   - mlx5_ib and ib_core lines are events of the RDMA device, with the
#     function and netdev the device model gives it;
#   - recorded link messages: a VF's settings, the MTU, the address and a
#     master that changed are events;
#   - --exec runs a command per event (no shell), the event on its stdin,
#     and kills one that hangs;
#   - --catalogue, text and JSON, and every kind is in mlxcli-monitor(8);
#     its Windows event numbers are those of the WinOF-2 manual's §5.5
#     (tests/cli/windows-events.py reads the manual, ../shared/seeds);
#   - a snapshot keeps its devices' recent kernel-log records (dev/kmsg,
#     at most 256) marked filtered (dev/kmsg.filter): replayed, the gaps
#     left by other devices' records are no records_lost.
. "$(dirname "$0")/lib.sh"
need jq python3

cap=$tmp/cap
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$cap/" || { bad "cannot copy the sample"; finish; }
mkdir -p "$cap/dev"

# kmsg PRIO FIRST_SEQ FILE...: the mlx5_core lines of FILEs as records
kmsg() {
	prio=$1 seq=$2
	shift 2
	sed -n 's/^.*\(mlx5_core [0-9a-f]\{4\}:\)/\1/p' "$@" | while IFS= read -r l; do
		printf '%s,%s,%s,-;%s\n' "$prio" "$seq" "$((seq * 1000))" "$l"
		[ "$prio" -lt 8 ] && printf ' SUBSYSTEM=pci\n DEVICE=+pci:%s\n' \
			"$(echo "$l" | cut -d' ' -f2 | tr -d :$ | sed 's/^\(....\)\(..\)\(..\)/\1:\2:\3/')"
		seq=$((seq + 1))
	done
}

if [ -d "$FIXTURES/dmesg" ]; then
	tx=$FIXTURES/dmesg/mlx5e-vf-tx-timeout-detected-sq-cons-0-eq-2025.txt
	kmsg 3 10 "$tx" >"$cap/dev/kmsg"
	run replay --sysroot "$cap" -j monitor
	kinds=$(jq -r 'select(.record == "event") | .kind' "$tmp/replay.out" | tr '\n' ' ')
	[ $rc -eq 0 ] && [ "$kinds" = "tx_timeout tx_timeout eq_recover " ] &&
		ok "replay: $kinds" || bad "replay: exit $rc, kinds '$kinds': $(cat "$tmp/replay.err")"
	q=$(jq -c 'select(.kind == "tx_timeout" and .sqn) | [.pci_address, .netdev, .sqn, .cqn, .queue_index, .dump_type, .sequence]' "$tmp/replay.out")
	[ "$q" = '["0000:af:00.2","ens4f2",930286,1156,0,"TXCQ_STUCK",11]' ] &&
		ok "tx_timeout fields $q" || bad "tx_timeout fields: $q"
	e=$(jq -c 'select(.kind == "eq_recover") | [.eqn, .irqn, .dump_type]' "$tmp/replay.out")
	[ "$e" = '[7,407,"EQ_STUCK"]' ] && ok "eq_recover fields $e" || bad "eq_recover fields: $e"
	end=$(jq -c 'select(.record == "end") | [.event_count, .interrupted]' "$tmp/replay.out")
	[ "$end" = '[3,false]' ] && ok "end record $end" || bad "end record: $end"
	# issue 25 item 14: a replayed record carries its own time, never the
	# replay's: the kernel's timestamp, dated from the capture's boot when
	# the capture says when that was (an estimate, and said); and every
	# event its Windows event id
	t=$(jq -c 'select(.record == "event") | [.time, .time_estimated, .monotonic_usec, .windows_event]' \
		"$tmp/replay.out" | head -1)
	[ "$t" = '[null,false,10000,"E13"]' ] && ok "no boot time recorded: time null, the kernel's timestamp, E13" ||
		bad "replay time without a boot time: $t"
	echo 1705320000000000 >"$cap/dev/kmsg.boottime"     # 2024-01-15T12:00:00Z
	run replayt --sysroot "$cap" -j monitor
	t=$(jq -c 'select(.record == "event") | [.time, .time_estimated, .windows_event]' "$tmp/replayt.out" | head -1)
	[ "$t" = '["2024-01-15T12:00:00.010000Z",true,"E13"]' ] && ok "dated from the capture's boot: $t" ||
		bad "replay time: $t"
	run replaytx --sysroot "$cap" monitor
	head -1 "$tmp/replaytx.out" | grep -q '^~2024-01-15T12:00:00.010000Z: error    tx_timeout .* dump=TXCQ_STUCK win=E13 ' &&
		ok "text: ~ before an estimated time, win=E13" || bad "text time: $(head -1 "$tmp/replaytx.out")"
	rm "$cap/dev/kmsg.boottime"

	# a gap: records 13..19 were overwritten
	{ kmsg 3 10 "$tx"; kmsg 3 20 "$tx"; } >"$cap/dev/kmsg"
	run gap --sysroot "$cap" -j monitor
	lost=$(jq -c 'select(.kind == "records_lost") | [.records_lost, .sequence]' "$tmp/gap.out")
	[ "$lost" = '[7,20]' ] && ok "a sequence gap is records_lost $lost" || bad "gap: $lost"

	# user-space records: refused unless the test option
	kmsg 14 10 "$tx" >"$cap/dev/kmsg"
	run user --sysroot "$cap" -j monitor
	n=$(jq -s '[.[] | select(.record == "event")] | length' "$tmp/user.out")
	[ $rc -eq 0 ] && [ "$n" = 0 ] && ok "user-facility records are no events" ||
		bad "user records: exit $rc, $n events"
	# said once with -v (issue 25 item 14), not without
	run userv --sysroot "$cap" -v -j monitor
	[ $rc -eq 0 ] && [ "$(grep -c 'records written by user space are not events.*the first is record 10$' "$tmp/userv.err")" = 1 ] &&
		! grep -q 'user space' "$tmp/user.err" && ok "-v says once that user-space records are ignored" ||
		bad "user records and -v: exit $rc: $(cat "$tmp/userv.err")"
	run user2 --sysroot "$cap" -j monitor --accept-user-records
	n=$(jq -s '[.[] | select(.record == "event")] | length' "$tmp/user2.out")
	[ "$n" = 3 ] && ok "--accept-user-records classifies them" || bad "--accept-user-records: $n events"

	# every mlx5 line of every capture, text output, --count
	kmsg 6 1 "$FIXTURES"/dmesg/*.txt >"$cap/dev/kmsg"
	run all --sysroot "$cap" monitor --count 5
	[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/all.out")" -eq 5 ] &&
		grep -q '^boot+0.001000: info     mlx5_log  *0000:82:00.1 ' "$tmp/all.out" &&
		ok "--count 5: five text lines" || bad "--count 5: exit $rc: $(head -3 "$tmp/all.out")"
	# -d: the captures name other machines' functions; one line (in the
	# kernel's format, mlx5e_update_carrier) is this capture's port; the
	# gap before it is shown whatever -d says (lost records may be its)
	printf '6,900,1,-;mlx5_core 0000:5e:00.0 enp94s0f0np0: Link down\n SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n' \
		>>"$cap/dev/kmsg"
	run dev --sysroot "$cap" -j -d 0000:5e:00.0 monitor
	k=$(jq -r 'select(.record == "event") | .kind + " " + .netdev' "$tmp/dev.out" | tr '\n' ' ')
	[ $rc -eq 0 ] && [ "$k" = "records_lost  link_down enp94s0f0np0 " ] && ok "-d 0000:5e:00.0: $k" ||
		bad "-d: exit $rc, '$k'"
	run dev1 --sysroot "$cap" -j -d enp94s0f1np1 monitor
	n=$(jq -s '[.[] | select(.record == "event" and .kind != "records_lost")] | length' "$tmp/dev1.out")
	[ $rc -eq 0 ] && [ "$n" = 0 ] && ok "-d of the other port: no event" || bad "-d other port: exit $rc, $n events"

	# --exec: the event as JSON on the hook's stdin, one run per event, no
	# shell (a ';' is a word), a missing command warns, a hung one is killed
	kmsg 3 10 "$tx" >"$cap/dev/kmsg"
	run hook --sysroot "$cap" monitor --exec "tee -a $tmp/hook.json"
	k=$(jq -r .kind "$tmp/hook.json" 2>/dev/null | tr '\n' ' ')
	[ $rc -eq 0 ] && [ "$k" = "tx_timeout tx_timeout eq_recover " ] &&
		ok "--exec: three runs, each with its event as JSON" || bad "--exec: exit $rc, '$k': $(cat "$tmp/hook.err")"
	run noshell --sysroot "$cap" monitor --count 1 --exec "echo x; touch $tmp/pwned"
	[ $rc -eq 0 ] && [ ! -e "$tmp/pwned" ] && ok "--exec runs no shell" || bad "--exec ran a shell (exit $rc)"
	# a hook that cannot run is refused at start, before any event (found
	# under valgrind, where a failed exec in posix_spawnp is only a 127)
	run nohook --sysroot "$cap" monitor --count 1 --exec "/nonexistent/hook"
	[ $rc -eq 2 ] && grep -q "/nonexistent/hook': No such file" "$tmp/nohook.err" &&
		[ ! -s "$tmp/nohook.out" ] && ok "--exec of a missing path exits 2 at start" ||
		bad "--exec missing: exit $rc: $(cat "$tmp/nohook.err")"
	run nohook2 --sysroot "$cap" monitor --count 1 --exec "no-such-hook-$$ arg"
	[ $rc -eq 2 ] && grep -q "no such command in PATH" "$tmp/nohook2.err" &&
		ok "--exec of a command not in PATH exits 2" || bad "--exec not in PATH: exit $rc: $(cat "$tmp/nohook2.err")"
	: >"$tmp/notexec"
	run nohook3 --sysroot "$cap" monitor --count 1 --exec "$tmp/notexec"
	[ $rc -eq 2 ] && grep -q "Permission denied" "$tmp/nohook3.err" &&
		ok "--exec of a file that is not executable exits 2" || bad "--exec not executable: exit $rc: $(cat "$tmp/nohook3.err")"
	run failhook --sysroot "$cap" monitor --count 1 --exec "false"
	[ $rc -eq 0 ] && grep -q "exited 1 on a" "$tmp/failhook.err" &&
		ok "--exec of a failing hook warns and goes on" || bad "--exec false: exit $rc: $(cat "$tmp/failhook.err")"
	start=$(date +%s)
	run slow --sysroot "$cap" monitor --count 1 --exec "sleep 30"
	took=$(( $(date +%s) - start ))
	[ $rc -eq 0 ] && [ $took -lt 15 ] && grep -q "killed after 5 s" "$tmp/slow.err" &&
		ok "--exec: a hung hook is killed after 5 s ($took s)" || bad "--exec sleep 30: exit $rc, $took s: $(cat "$tmp/slow.err")"
else
	echo "# skip the replay checks: no \$FIXTURES/dmesg"
fi

# issue 25 item 10: mlx5_ib and ib_core lines (real ones, see
# tests/unit/test-monitor-rdma.c) are events of their RDMA device, its
# port's netdev and its PCI function; another vendor's RDMA device's are not
{
	printf '4,10,1000,-;infiniband mlx5_0: destroy_qp_common:2367:(pid 73): mlx5_ib: modify QP 0x000724 to RESET failed\n SUBSYSTEM=infiniband\n DEVICE=+infiniband:mlx5_0\n'
	printf '3,11,2000,-;mlx5_1/1: QP 137 error: unrecognized status (0x41 0x0 0x0)\n'
	printf '4,12,3000,-;infiniband efa_0: Wait for completion (polling) timeout\n SUBSYSTEM=infiniband\n DEVICE=+infiniband:efa_0\n'
} >"$cap/dev/kmsg"
run rdma --sysroot "$cap" -j monitor
e=$(jq -c 'select(.record == "event") | [.kind, .rdma_device, .pci_address, .netdev, .qpn]' "$tmp/rdma.out" | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$e" = '["rdma_qp_reset_failed","mlx5_0","0000:5e:00.0","enp94s0f0np0",1828] ["rdma_qp_error","mlx5_1","0000:5e:00.1","enp94s0f1np1",137] ' ] &&
	ok "RDMA lines: the device, its port's netdev and function; not another vendor's: $e" ||
	bad "RDMA lines: exit $rc, $e: $(cat "$tmp/rdma.err")"
run rdmad --sysroot "$cap" -j -d 0000:5e:00.1 monitor
e=$(jq -r 'select(.record == "event") | .kind' "$tmp/rdmad.out" | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$e" = "rdma_qp_error " ] && ok "-d 0000:5e:00.1: its RDMA device's line only" ||
	bad "-d and RDMA lines: exit $rc, '$e'"

# the snapshot's kernel-log block: records of 0000:5e:00.0 between those
# of another machine's function, 300 of them
i=1
while [ $i -le 300 ]; do
	printf '3,%d,%d,-;mlx5_core 0000:5e:00.0 enp94s0f0np0: ERR CQE on SQ: 0x%x\n SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n' \
		$((2 * i)) $((i * 1000)) $i
	printf '3,%d,%d,-;mlx5_core 0000:af:00.2 ens4f2: ERR CQE on SQ: 0x55\n SUBSYSTEM=pci\n DEVICE=+pci:0000:af:00.2\n' \
		$((2 * i + 1)) $((i * 1000 + 500))
	i=$((i + 1))
done >"$cap/dev/kmsg"
echo 1705320000000000 >"$cap/dev/kmsg.boottime"
run snap --sysroot "$cap" snapshot "$tmp/snap"
[ "$(cat "$tmp/snap/dev/kmsg.boottime" 2>&1)" = 1705320000000000 ] && ok "the snapshot keeps when its kernel log starts" ||
	bad "snapshot dev/kmsg.boottime: $(cat "$tmp/snap/dev/kmsg.boottime" 2>&1)"
[ $rc -eq 0 ] && [ "$(grep -c '^3,' "$tmp/snap/dev/kmsg")" = 256 ] && ! grep -q 'af:00.2' "$tmp/snap/dev/kmsg" &&
	[ "$(tail -3 "$tmp/snap/dev/kmsg" | head -1 | cut -d, -f2)" = 600 ] && grep -q '^filtered' "$tmp/snap/dev/kmsg.filter" &&
	ok "the snapshot keeps its devices' last 256 kernel-log records, marked filtered" ||
	bad "snapshot dev/kmsg: exit $rc, $(grep -c '^3,' "$tmp/snap/dev/kmsg" 2>&1) records: $(cat "$tmp/snap.err")"
run snapreplay --sysroot "$tmp/snap" -j monitor
k=$(jq -s -c '[([.[] | select(.record == "event") | .kind] | unique), ([.[] | select(.record == "end")][0].event_count)]' "$tmp/snapreplay.out")
[ $rc -eq 0 ] && [ "$k" = '[["sq_error_cqe"],256]' ] && ok "its replay: 256 events, no records_lost for the gaps" ||
	bad "snapshot replay: exit $rc, $k"

run badcount --sample=cx5-ofed monitor --count x
[ $rc -eq 2 ] && ok "--count x exits 2" || bad "--count x exits $rc"
run badsince --sample=cx5-ofed monitor --since yesterday
[ $rc -eq 2 ] && ok "--since yesterday exits 2" || bad "--since yesterday exits $rc"
run nodev --sample=cx5-ofed -d 0000:99:00.0 monitor
[ $rc -eq 3 ] && ok "-d of no device exits 3" || bad "-d of no device exits $rc"

# the systemd unit make builds: valid, hardened, running this monitor
unit=$TOP_BUILDDIR/etc/mlxcli-monitor.service
if [ -f "$unit" ] && command -v systemd-analyze >/dev/null 2>&1; then
	sed "s|^ExecStart=[^ ]*|ExecStart=$MLXCLI_REAL|" "$unit" >"$tmp/mlxcli-monitor.service"
	if systemd-analyze verify "$tmp/mlxcli-monitor.service" 2>&1 | grep -v "man mlxcli-monitor" | grep -q .; then
		bad "systemd-analyze verify: $(systemd-analyze verify "$tmp/mlxcli-monitor.service" 2>&1)"
	else
		ok "the systemd unit verifies"
	fi
	grep -q '^ExecStart=/.*/mlxcli -j monitor --poll 60$' "$unit" && grep -q '^ProtectSystem=strict' "$unit" &&
		grep -q '^CapabilityBoundingSet=CAP_SYSLOG$' "$unit" && ok "the unit runs the monitor, hardened" ||
		bad "the unit: $(grep -E '^(ExecStart|ProtectSystem|CapabilityBoundingSet)' "$unit")"
else
	echo "# skip the unit check: no $unit or no systemd-analyze"
fi

# issue 25 item 11: the settings an operator cares about, from recorded
# RTM_NEWLINK messages of the sample's port (its recorded RTEXT_FILTER_VF
# reply, then edited copies: tests/cli/rtnl-edit.py): VF 1's VLAN, the MTU,
# the address, a master
vcap=$tmp/vcap
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$vcap/" && mkdir -p "$vcap/monitor" || bad "cannot copy the sample"
g=$vcap/netlink/route/enp94s0f0np0/getlink-vf.nl
edit() { python3 "$TOP_SRCDIR/tests/cli/rtnl-edit.py" "$g" "$@"; }
{ cat "$g"; edit vf=1 vlan=10; edit vf=1 vlan=10 mtu=9000 address=02:00:00:00:00:99 master=7; } >"$vcap/monitor/rtnl.nl"
run ifla --sysroot "$vcap" -j monitor
e=$(jq -c 'select(.record == "event") | [.kind, .pci_address, .detail, .mtu, .vf, .master_ifindex]' "$tmp/ifla.out" | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$e" = '["vf_changed","0000:5e:00.0","VF 1",null,1,null] ["mtu_changed","0000:5e:00.0",null,9000,null,null] ["address_changed","0000:5e:00.0","02:00:00:00:00:99",null,null,null] ["master_changed","0000:5e:00.0","ifindex 7",null,null,7] ' ] &&
	ok "VF, MTU, address and master changes: $e" || bad "IFLA changes: exit $rc, $e: $(cat "$tmp/ifla.err")"
grep -q '"message":"enp94s0f0np0: VF 1: mac 02:c5:00:5e:01:03, vlan 10, qos 0, rate 0-0 Mb/s, spoofchk on, trust off, link auto"' \
	"$tmp/ifla.out" && ok "vf_changed says the VF's new settings" || bad "vf_changed message: $(grep vf_changed "$tmp/ifla.out")"

# ethtool's "monitor" group, recorded: ETHTOOL_MSG_PAUSE_NTF (23 in the
# uapi's kernel message enum) of the sample's port, header nest 1 with
# ETHTOOL_A_HEADER_DEV_INDEX 1 and DEV_NAME 2, PAUSE_AUTONEG 2, RX 3, TX 4
ecap=$tmp/ecap
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$ecap/" && mkdir -p "$ecap/monitor" || bad "cannot copy the sample"
python3 - "$ecap/monitor/ethtool.nl" <<'PY'
import struct, sys
def nla(t, p):
    b = struct.pack('<HH', 4 + len(p), t) + p
    return b + b'\0' * (-len(b) % 4)
body = struct.pack('<BBH', 23, 1, 0) + nla(1 | 0x8000, nla(1, struct.pack('<I', 4)) + nla(2, b'enp94s0f0np0\0'))
body += nla(2, b'\0') + nla(3, b'\1') + nla(4, b'\1')
open(sys.argv[1], 'wb').write(struct.pack('<IHHII', 16 + len(body), 0x15, 0, 0, 0) + body)
PY
run eth --sysroot "$ecap" -j monitor
e=$(jq -c 'select(.record == "event") | [.source, .kind, .netdev, .pci_address, .ifindex, .detail, .message]' "$tmp/eth.out")
[ $rc -eq 0 ] && [ "$e" = '["ethtool","pause_changed","enp94s0f0np0","0000:5e:00.0",4,"ETHTOOL_MSG_PAUSE_NTF","enp94s0f0np0: pause settings changed: autoneg off, rx on, tx on"]' ] &&
	ok "a recorded ethtool notification: $e" || bad "ethtool replay: exit $rc, '$e': $(cat "$tmp/eth.err")"

# issue 25 item 17: every Windows event number is the manual's (§5.5, its
# messages in order), checked against the manual itself
seed=$(ls "${SEEDS:-$FIXTURES/../seeds}"/000_*.txt 2>/dev/null | head -1)
if [ -n "$seed" ]; then
	python3 "$TOP_SRCDIR/tests/cli/windows-events.py" "$MLXCLI" "$seed" >"$tmp/win.out" 2>&1 &&
		ok "Windows event numbers: $(tail -1 "$tmp/win.out")" || bad "Windows event numbers: $(cat "$tmp/win.out")"
else
	echo "# skip the Windows event numbers: no WinOF-2 manual (\$SEEDS, ../shared/seeds)"
fi

run cat -j monitor --catalogue
n=$(jq '.kinds | length' "$tmp/cat.out")
t=$(jq -r '.dump_types[] | .dump_type + ":" + .dump_tag + ":" + (.enabled | tostring)' "$tmp/cat.out" | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$n" -gt 40 ] &&
	[ "$t" = "CMD_ERR:c:true EQ_STUCK:e:true TXCQ_STUCK:t:true RXCQ_STUCK:r:true PORT_STATE:p:false ON_OID:o:false FATAL_ERROR:f:true " ] &&
	ok "--catalogue: $n kinds, Table 19 $t" || bad "--catalogue: exit $rc, $n kinds, $t"
run cattext monitor --catalogue
head -1 "$tmp/cattext.out" | grep -q '^KIND  *SOURCE  *SEVERITY  *WIN  *DUMP  *MEANING' &&
	[ "$(wc -l <"$tmp/cattext.out")" -eq $((n + 1)) ] && ok "--catalogue text table" ||
	bad "--catalogue text: $(head -2 "$tmp/cattext.out")"
for k in $(jq -r '.kinds[].kind' "$tmp/cat.out"); do
	grep -q "^\.B $(echo "$k" | sed 's/-/\\\\-/g')\$" "$TOP_SRCDIR/man/mlxcli-monitor.8" ||
		bad "kind $k is not in mlxcli-monitor(8)"
done
finish
