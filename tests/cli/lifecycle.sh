#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 27's writes on the sample hosts' working copies (their emulator
# answers HEALTH_REPORTER_SET and PAUSE/LINKMODES/FEC_SET as the kernel
# would, from the same request bytes), each read back with a read command:
#   - health show: mlx5's reporters with their policy and Windows sensors;
#   - health set: a grace period, auto_dump of every reporter; --dry-run
#     writes nothing; a reporter without a recovery has no grace period
#     (exit 4), an unknown reporter changes nothing;
#   - health recover and clear need the live device (exit 4), recover needs
#     --yes first;
#   - link set fec, speed and autoneg, pause: read back by `link`; bad words
#     exit 2 before any device is read; a VF exits 4 with the shared words;
#     global pause over PFC needs --yes and says why;
#   - fw flash refuses a file that is no MFA2 archive (exit 2) and a VF;
#     fw activate with nothing new stored changes nothing.
# The same writes on a real kernel (netdevsim): tests/vm/guest/nsim-lifecycle.sh.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq

S="$MLXCLI --sample"
P0=enp94s0f0np0
F0=0000:5e:00.0

# ---- health ----
run hs --sample -j health -d $F0
check "health show: exit 0" "$rc" 0
check "health show: mlx5's reporters, their grace periods, Windows sensors" \
	"$(jq -c '[.devices[0].reporters[] | [.name, .grace_period_ms, .auto_recover, .windows_sensor_mask]]' "$tmp/hs.out")" \
	'[["fw",null,null,null],["fw_fatal",60000,true,null],["tx",500,true,131096],["rx",500,true,65600]]'
check "health show: the devlink handle" "$(jq -r '.devices[0].devlink_handle' "$tmp/hs.out")" "pci/$F0"

run hd --sample health set -d $F0 tx grace_period 1000 --dry-run
check "health set --dry-run: exit 0" "$rc" 0
check "health set --dry-run: old -> new" "$(cat "$tmp/hd.out")" "tx.grace_period_ms: 500 -> 1000"
check "health set --dry-run: nothing written" \
	"$($S -j health -d $F0 | jq -c '.devices[0].reporters[] | select(.name == "tx") | .grace_period_ms')" 500
run hset --sample health set -d $F0 tx grace_period 1000
check "health set: exit 0" "$rc" 0
check "health set: read back" \
	"$($S -j health -d $F0 | jq -c '.devices[0].reporters[] | select(.name == "tx") | .grace_period_ms')" 1000
run hall --sample -j health set -d $F0 auto_dump off
check "health set of every reporter: exit 0" "$rc" 0
check "health set of every reporter: read back" \
	"$($S -j health -d $F0 | jq -c '[.devices[0].reporters[].auto_dump]')" '[false,false,false,false]'
$S -j health -d $F0 >"$tmp/before"
run hfw --sample health set -d $F0 fw grace_period 5
check "a reporter without a recovery has no grace period: exit 4" "$rc" 4
grep -q 'has no recovery' "$tmp/hfw.err" && ok "  ... and says so" || bad "fw grace: $(cat "$tmp/hfw.err")"
run hno --sample health set -d $F0 nosuch grace_period 5
check "an unknown reporter is a bad value: exit 2" "$rc" 2
grep -q "has no health reporter 'nosuch'" "$tmp/hno.err" && ok "  ... naming the ones there are" ||
	bad "unknown reporter: $(cat "$tmp/hno.err")"
run hbad --sample health set -d $F0 tx grace_period x
check "a bad grace period: exit 2" "$rc" 2
$S -j health -d $F0 >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && ok "refused sets changed nothing" || bad "a refused set changed something"

run hr --sample health recover -d $F0 tx </dev/null
[ "$rc" -ne 0 ] && grep -q 'confirm with --yes' "$tmp/hr.err" && ok "health recover asks for --yes" ||
	bad "recover without --yes: exit $rc $(cat "$tmp/hr.err")"
run hry --sample health recover -d $F0 tx --yes
check "health recover on a captured system: exit 4" "$rc" 4
run hc --sample health clear -d $F0 fw
check "health clear on a captured system: exit 4" "$rc" 4

# ---- link set ----
run lbad --sample link set -d $P0 fec bogus
check "link set fec bogus: exit 2" "$rc" 2
for w in "speed 0" "speed x" "rx on" "duplex full" "pause rx maybe" "fec rs fec off" "nosuch 1"; do
	# shellcheck disable=SC2086
	run lb --sample link set -d $P0 $w
	[ "$rc" -eq 2 ] || bad "link set $w: exit $rc, want 2"
done
run lb0 --sample link set -d $P0
check "link set without a setting: exit 2" "$rc" 2
run lvf --sample link set -d 0000:5e:00.2 fec rs
check "link set on a VF: exit 4" "$rc" 4
grep -q 'is a VF; give its PF' "$tmp/lvf.err" && ok "  ... with the shared words" || bad "VF: $(cat "$tmp/lvf.err")"

$S -j link -d $P0 >"$tmp/l0"
run ld --sample -j link set -d $P0 fec rs speed 50000 autoneg off --dry-run
check "link set --dry-run: exit 0" "$rc" 0
check "link set --dry-run: the changes" "$(jq -c '[.dry_run, [.changes[] | [.setting, .new]]]' "$tmp/ld.out")" \
	'[true,[["autoneg",false],["speed_mbps",50000],["fec","rs"]]]'
$S -j link -d $P0 >"$tmp/l1"
cmp -s "$tmp/l0" "$tmp/l1" && ok "link set --dry-run wrote nothing" || bad "link set --dry-run wrote"
run lf --sample link set -d $P0 fec rs
check "link set fec rs: exit 0" "$rc" 0
check "link set fec rs: read back" "$($S -j link -d $P0 | jq -c '.port_links[0].fec | [.auto, .configured]')" \
	'[false,["RS"]]'
run ls --sample link set -d $P0 speed 50000 autoneg off
check "link set speed autoneg off: exit 0" "$rc" 0
check "link set speed: read back" "$($S -j link -d $P0 | jq -c '.port_links[0] | [.autoneg, .speed_mbps]')" \
	'[false,50000]'
# the sample has PFC on priorities 3 and 6: pause tx turns it off on mlx5
run lp0 --sample link set -d $P0 pause tx off
check "pause tx off: exit 0" "$rc" 0
run lp --sample link set -d $P0 pause tx on </dev/null
[ "$rc" -ne 0 ] && grep -q 'turns its PFC off' "$tmp/lp.err" && ok "pause over PFC asks for --yes, says why" ||
	bad "pause over PFC: exit $rc $(cat "$tmp/lp.err")"
check "refused: pause tx stays off" "$($S -j link -d $P0 | jq -c '.port_links[0].pause.tx')" false
run lpy --sample link set -d $P0 pause tx on --yes
check "pause over PFC with --yes: exit 0" "$rc" 0
check "pause tx read back" "$($S -j link -d $P0 | jq -c '.port_links[0].pause.tx')" true

# ---- firmware ----
run ff --sample fw flash -d $F0 "$TOP_SRCDIR/README" --yes
check "fw flash of no MFA2 image on mlx5: exit 2" "$rc" 2
grep -q 'is no MFA2 firmware archive' "$tmp/ff.err" && ok "  ... and says so" || bad "flash: $(cat "$tmp/ff.err")"
run fvf --sample fw flash -d 0000:5e:00.2 "$TOP_SRCDIR/README" --yes
check "fw flash on a VF: exit 4" "$rc" 4
# the sample's stored firmware is the running one: nothing to activate
run fa --sample -j fw activate -d $F0 --yes
check "fw activate with nothing stored beyond what runs: exit 0, no change" \
	"$rc $(jq -c '[.changes, .actions_performed]' "$tmp/fa.out")" '0 [[],[]]'
finish
