#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 27's writes through mlxcli's own code on a real kernel driver:
# netdevsim in the kernel lab, each result read back with the tool a user
# would otherwise run (devlink, ethtool).
#   - health show lists netdevsim's reporters as devlink health shows them;
#   - health set: the dummy reporter's grace period, auto_recover and
#     auto_dump (DEVLINK_CMD_HEALTH_REPORTER_SET), as devlink shows them
#     after; --dry-run changes nothing; an unknown reporter changes nothing;
#   - health recover needs --yes, then the kernel counts the recovery of a
#     reporter in error;
#   - link set pause rx/tx (ETHTOOL_MSG_PAUSE_SET) as ethtool -a shows it;
#     pause autoneg on, which netdevsim refuses (it has no ksettings),
#     fails with the kernel's reason and changes nothing (all or nothing);
#   - link set speed: netdevsim has no link modes to set: exit 4;
#   - fw flash of a file (DEVLINK_CMD_FLASH_UPDATE, netdevsim takes any
#     image) with the status notifications counted; fw activate (devlink
#     reload fw_activate) performs the action where devlink lists it, and
#     says which actions there are where it does not.
# mlx5's MFA2/PSID checks, FEC, speed and PFC interplay stay on the
# captured samples (tests/cli/lifecycle.sh).
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need jq devlink ethtool
make_nsim 1

# the dummy reporter as devlink sees it: [grace_period, auto_recover, auto_dump]
dl_dummy() {
	devlink -j health show "$nsim" reporter dummy |
		jq -c '[.health[][0] | (.grace_period // .grace), .auto_recover, .auto_dump]'
}
ml_dummy() {
	jq -c '[.devices[0].reporters[] | select(.name == "dummy") |
		.grace_period_ms, .auto_recover, .auto_dump][0:3]' "$1"
}

run hs0 -j health --any-device -d "$nsim_if"
check "health show: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/hs0.err"
check "health show: netdevsim's reporters" \
	"$(jq -c '[.devices[0].reporters[].name] | sort' "$tmp/hs0.out" 2>/dev/null)" '["dummy","empty"]'
echo "devlink: $(dl_dummy) mlxcli: $(ml_dummy "$tmp/hs0.out")"

before=$(dl_dummy)
run hd -j health set --any-device -d "$nsim_if" dummy grace_period 4321 auto_recover off --dry-run
check "health set --dry-run: exit 0" "$rc" 0
check "health set --dry-run: nothing written" "$(dl_dummy)" "$before"
run hx health set --any-device -d "$nsim_if" nosuch grace_period 1
[ "$rc" -ne 0 ] && ok "health set of an unknown reporter fails (exit $rc)" || bad "unknown reporter: exit 0"
check "unknown reporter: nothing written" "$(dl_dummy)" "$before"

run hset -j health set --any-device -d "$nsim_if" dummy grace_period 4321 auto_recover off auto_dump off
check "health set: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/hset.err"
devlink -j health show "$nsim" reporter dummy >"$tmp/dl.json"
check "health set: devlink's grace period" \
	"$(jq -c '.health[][0] | (.grace_period // .grace)' "$tmp/dl.json")" 4321
check "health set: devlink's auto_recover, auto_dump" \
	"$(jq -c '.health[][0] | [.auto_recover, .auto_dump]' "$tmp/dl.json")" '[false,false]'
run hs1 -j health --any-device -d "$nsim_if"
check "health show reads back what devlink shows" "$(ml_dummy "$tmp/hs1.out")" '[4321,false,false]'
run hset2 health set --any-device -d "$nsim_if" dummy auto_recover on auto_dump on
check "health set back: exit 0" "$rc" 0

# devlink runs a recovery only for a reporter in error (net/devlink
# health.c devlink_health_reporter_recover: a healthy one returns at once),
# so the dummy reporter is put in error first: its recovery made to fail
# while an error is reported, then allowed again
recs() { devlink -j health show "$nsim" reporter dummy | jq -c '.health[][0] | [.state, .recover]'; }
echo Y >"$nsim_dbg/health/fail_recover"
echo "lab recover test" >"$nsim_dbg/health/break_health" 2>/dev/null
echo N >"$nsim_dbg/health/fail_recover"
rec0=$(devlink -j health show "$nsim" reporter dummy | jq '.health[][0].recover')
check "the dummy reporter is in error" "$(recs)" "[\"error\",$rec0]"
run hr0 health recover --any-device -d "$nsim_if" dummy </dev/null
[ "$rc" -ne 0 ] && ok "health recover without --yes refused (exit $rc)" || bad "recover ran without --yes"
check "refused: no recovery" "$(recs)" "[\"error\",$rec0]"
run hr1 health recover --any-device -d "$nsim_if" dummy --yes
check "health recover --yes: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/hr1.err"
check "health recover: healthy, the kernel counts one more recovery" "$(recs)" "[\"healthy\",$((rec0 + 1))]"

# pause: netdevsim keeps rx and tx (ethtool.c nsim_set_pauseparam)
ea() { ethtool -a "$nsim_if" | awk '/^RX:/ {r=$2} /^TX:/ {t=$2} END {print r "," t}'; }
ethtool -A "$nsim_if" rx off tx off 2>/dev/null
run lp link set --any-netdev -d "$nsim_if" pause rx on tx off
check "link set pause: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/lp.err"
check "link set pause: ethtool -a" "$(ea)" "on,off"
run lp2 -j link set --any-netdev -d "$nsim_if" pause rx off tx on
check "link set pause again: ethtool -a" "$(ea)" "off,on"
run lpa link set --any-netdev -d "$nsim_if" pause rx on autoneg on
[ "$rc" -ne 0 ] && ok "pause autoneg on refused by netdevsim (exit $rc): $(cat "$tmp/lpa.err")" ||
	bad "pause autoneg on: exit 0"
check "refused: rx and tx as they were" "$(ea)" "off,on"
run ls link set --any-netdev -d "$nsim_if" speed 10000
check "link set speed on netdevsim: exit 4 (no link modes)" "$rc" 4
[ "$rc" -eq 4 ] || cat "$tmp/ls.err"

# firmware: netdevsim takes any image and reports status (dev.c
# nsim_dev_flash_update).  The kernel's firmware loader opens the file
# from the root of the guest's init (the initramfs), and this script runs
# chrooted into the host's tree: so the image is put at the same path in
# both (/proc/1/root is init's root), and mlxcli, given a file already in
# /lib/firmware, names it as it is.
head -c 4096 /dev/urandom >"$tmp/nsim-fw.bin"
for r in "" /proc/1/root; do
	mkdir -p "$r/lib/firmware" && cp "$tmp/nsim-fw.bin" "$r/lib/firmware/mlxcli-lab-$$.bin"
done
on_exit="rm -f /lib/firmware/mlxcli-lab-$$.bin /proc/1/root/lib/firmware/mlxcli-lab-$$.bin; $on_exit"
run ff0 fw flash --any-device -d "$nsim_if" /lib/firmware/mlxcli-lab-$$.bin </dev/null
[ "$rc" -ne 0 ] && ok "fw flash without --yes refused (exit $rc)" || bad "fw flash ran without --yes"
# what devlink itself makes of the same file: mlxcli must agree
if devlink dev flash "$nsim" file "mlxcli-lab-$$.bin" >"$tmp/dl-flash" 2>&1; then dlf=0; else dlf=1; fi
echo "devlink dev flash: exit $dlf: $(tr '\n' ' ' <"$tmp/dl-flash")"
ls -l /proc/1/root/lib/firmware/ 2>&1 | tail -3
dmesg | grep -i firmware | tail -3
run ff -j fw flash --any-device -d "$nsim_if" /lib/firmware/mlxcli-lab-$$.bin --yes
check "fw flash: the exit devlink's own flash has" "$rc" "$dlf"
[ "$rc" -eq 0 ] || cat "$tmp/ff.err"
if [ "$dlf" -eq 0 ]; then
	check "fw flash: named as it is, not copied" "$(jq -c '[.loaded_as, .copied]' "$tmp/ff.out" 2>/dev/null)" \
		"[\"mlxcli-lab-$$.bin\",false]"
	n=$(jq '.status_count' "$tmp/ff.out" 2>/dev/null)
	[ "${n:-0}" -gt 0 ] && ok "fw flash: $n status notifications, last '$(jq -r .last_status "$tmp/ff.out")'" ||
		bad "fw flash: no status notifications: $(cat "$tmp/ff.out")"
fi
# fw activate: the reload actions devlink lists for the instance itself
# (iproute2: stats.reload; stats.remote_reload lists every action) decide
devlink -s -j dev show "$nsim" >"$tmp/dl-dev.json" 2>&1
echo "devlink -s dev show: $(cat "$tmp/dl-dev.json")"
acts=$(jq -r '[.dev[] | (.stats.reload // {}) | keys[]] | join(",")' "$tmp/dl-dev.json" 2>/dev/null)
echo "devlink reload actions of $nsim: $acts"
run fa -j fw activate --any-device -d "$nsim_if" --yes
case ",$acts," in
*,fw_activate,*)
	check "fw activate (devlink lists fw_activate): exit 0" "$rc" 0
	[ "$rc" -eq 0 ] || cat "$tmp/fa.err"
	check "fw activate: the kernel performed fw_activate" \
		"$(jq -c '.actions_performed | index("fw_activate") != null' "$tmp/fa.out" 2>/dev/null)" true ;;
*)
	check "fw activate (devlink lists no fw_activate): exit 4" "$rc" 4
	grep -q "actions it offers: $(echo "$acts" | sed 's/,/, /g'))" "$tmp/fa.err" &&
		ok "  ... naming the actions devlink lists: $(cat "$tmp/fa.err")" || bad "fw activate: $(cat "$tmp/fa.err")" ;;
esac
finish
