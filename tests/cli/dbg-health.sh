#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The issue-7 follow-up debug tools on the sample hosts (mlxcli-dbg(8)):
#   - get-state: the recorded devlink health reporters (fw, fw_fatal, tx,
#     rx), fw's one historical error on cx5-ofed, the fw_fatal state and the
#     fw diagnose syndrome; a VF: null with a reason;
#   - pddrinfo: the recorded ethtool link state (up; down "no cable"), the
#     sysfs fallback with a note for a port without a recorded reply;
#   - cmd-stats: the debugfs commands/ table sorted by count, --all, JSON;
#     absent (cx5-ofed has no debugfs) exit 4 with the reason; unreadable
#     debugfs (a non-root user on a root-only tree) exit 5 with a hint;
#   - sw-reset: no -d exit 2; no terminal and no --yes exit 2; a captured
#     system exit 4 (devlink reload needs the live device).
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq

echo "== get-state: devlink health"
"$MLXCLI" --sample -j -d 5e:00.0 dbg get-state >"$tmp/gs" 2>"$tmp/err" || bad "get-state: $(cat "$tmp/err")"
h='.devices[0].devlink_health'
[ "$(jq -c "[$h.reporters[] | [.name, .state, .error_count, .port_index]]" "$tmp/gs")" = \
  '[["fw","healthy",1,null],["fw_fatal","healthy",0,null],["tx","healthy",0,65535],["rx","healthy",0,65535]]' ] &&
	ok "cx5-ofed 5e:00.0: fw, fw_fatal, tx, rx; fw saw 1 error" || bad "reporters $(jq -c "$h" "$tmp/gs")"
[ "$(jq -c "$h.fw_state" "$tmp/gs")" = '{"is_fatal":false,"fatal_errors":0,"syndrome":0,"description":null}' ] &&
	[ "$(jq -r '.devices[0].devlink_health_error' "$tmp/gs")" = null ] &&
	ok "firmware: not fatal, syndrome 0" || bad "firmware $(jq -c "$h.fw_state" "$tmp/gs")"
"$MLXCLI" --sample -d 5e:00.0 dbg get-state >"$tmp/txt" 2>&1
grep -q '^  devlink health: fw healthy (errors 1, recovered 0), fw_fatal healthy' "$tmp/txt" &&
	grep -q '^  firmware: ok, 0 fatal errors so far$' "$tmp/txt" && ok "text" || bad "text: $(cat "$tmp/txt")"
"$MLXCLI" --sample=cx6dx-upstream -j dbg get-state | jq -e '[.devices[] | .devlink_health.reporters[0].error_count] == [0, 0]' >/dev/null &&
	ok "cx6dx-upstream: no fw errors" || bad "cx6dx-upstream health"
"$MLXCLI" --sample -j -d 5e:00.2 dbg get-state | jq -e '.devices[0].devlink_health == null and (.devices[0].devlink_health_error | test("VF"))' >/dev/null &&
	ok "VF: null with a reason" || bad "VF health"

echo "== pddrinfo"
"$MLXCLI" --sample -j -d 5e:00.1 dbg pddrinfo >"$tmp/p" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(jq -c '.ports[0] | [.netdev, .source, .link, .ext_state, .ext_state_code, .operstate]' "$tmp/p")" = \
  '["enp94s0f1np1","ethtool-netlink",false,"no cable",4,"down"]' ] && [ ! -s "$tmp/err" ] &&
	ok "down, no cable (ethtool netlink)" || bad "pddrinfo 5e:00.1: $(cat "$tmp/p" "$tmp/err")"
"$MLXCLI" --sample -d 5e:00.0 dbg pddrinfo 2>&1 | grep -qx 'enp94s0f0np0: link up \[ethtool netlink, operstate up\]' &&
	ok "up (text)" || bad "pddrinfo 5e:00.0 text"
"$MLXCLI" --sample -j -d 5e:00.2 dbg pddrinfo >"$tmp/p" 2>"$tmp/err"
[ $? -eq 0 ] && jq -e '.ports[0].source == "sysfs" and .ports[0].link == true and (.ports[0].note | test("sysfs"))' "$tmp/p" >/dev/null &&
	grep -q 'no ethtool link state' "$tmp/err" && ok "VF netdev without a recorded reply: sysfs fallback with a note" ||
	bad "fallback: $(cat "$tmp/p" "$tmp/err")"
"$MLXCLI" --sample -d nosuch0 dbg pddrinfo --any-netdev >/dev/null 2>&1
[ $? -eq 3 ] && ok "--any-netdev unknown: exit 3" || bad "--any-netdev unknown"

echo "== cmd-stats"
"$MLXCLI" --sample=cx6dx-upstream -j -d 3b:00.0 dbg cmd-stats >"$tmp/c" 2>"$tmp/err" || bad "cmd-stats: $(cat "$tmp/err")"
[ "$(jq -c '[.devices[0].commands[] | .count]' "$tmp/c")" = '[5212,3120,1024,42,36,18,9,6,1]' ] &&
	ok "sorted by count, count-0 commands hidden" || bad "order $(jq -c '[.devices[0].commands[] | .count]' "$tmp/c")"
[ "$(jq -c '.devices[0].commands[1] | [.name, .failed, .failed_mbox_status, .last_failed_errno, .last_failed_mbox_status, .last_failed_syndrome]' "$tmp/c")" = \
  '["ACCESS_REG",12,12,22,3,null]' ] && [ "$(jq '.devices[0].failed' "$tmp/c")" = 12 ] &&
	ok "ACCESS_REG failures; 6.1 has no last_failed_syndrome" || bad "ACCESS_REG $(jq -c '.devices[0].commands[1]' "$tmp/c")"
[ "$("$MLXCLI" --sample=cx6dx-upstream -j -d 3b:00.0 dbg cmd-stats --all | jq '.devices[0].commands | length')" = 10 ] &&
	ok "--all: 10" || bad "--all"
[ "$("$MLXCLI" --sample=cx6dx-upstream -j dbg cmd-stats | jq -c '[.devices[] | .pci_address]')" = '["0000:3b:00.0","0000:3b:00.1"]' ] &&
	ok "every PF" || bad "every PF"
"$MLXCLI" --sample=cx6dx-upstream dbg cmd-stats -d 3b:00.0 | head -2 | tail -1 | grep -q '^COMMAND  *COUNT  *AVG(ns)' &&
	ok "text table" || bad "text table"
"$MLXCLI" --sample dbg cmd-stats >/dev/null 2>"$tmp/err"
[ $? -eq 4 ] && grep -q 'debugfs is not mounted' "$tmp/err" && ok "no debugfs: exit 4, $(head -1 "$tmp/err")" ||
	bad "absent: $(cat "$tmp/err")"
# a root-only debugfs, read by another user
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	cp -a "$MLXCLI_SAMPLES_DIR/cx6dx-upstream" "$tmp/host"
	chmod 755 "$tmp"
	chmod 700 "$tmp/host/sys/kernel/debug"
	chmod -R a+rX "$tmp/host/sys/bus" "$tmp/host/sys/devices" "$tmp/host/sys/class" 2>/dev/null
	priv_setup
	as_nobody env MLXCLI_STATE_DIR="$tmp/ustate" "$NOBODY_MLXCLI" --sysroot "$tmp/host" dbg cmd-stats -d 3b:00.0 >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 5 ] && grep -q 'hint: .*only root' "$tmp/err" && ok "root-only debugfs: exit 5 with a hint" ||
		bad "permission: exit $rc, $(cat "$tmp/err")"
else
	echo "  skipped: the permission case needs root and setpriv"
fi

echo "== sw-reset"
"$MLXCLI" --sample dbg sw-reset </dev/null >/dev/null 2>&1
[ $? -eq 2 ] && ok "no -d: exit 2" || bad "no -d"
"$MLXCLI" --sample -d 5e:00.0 dbg sw-reset </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'confirm with --yes' "$tmp/err" && ok "no terminal, no --yes: exit 2" || bad "no --yes: $(cat "$tmp/err")"
"$MLXCLI" --sample -d 5e:00.0 dbg sw-reset --yes </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 4 ] && grep -q 'needs the live device' "$tmp/err" && ok "captured system: exit 4" || bad "sysroot: $(cat "$tmp/err")"

finish
