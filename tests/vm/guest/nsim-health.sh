#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# devlink health through mlxcli's own code on a real kernel driver:
# netdevsim's reporters "empty" and "dummy" (drivers/net/netdevsim/
# health.c) in the kernel lab.  With --any-device -d naming its port:
#   - dbg get-state lists both reporters as devlink health shows them
#     (name, state, error and recovery counts), healthy;
#   - after an error (debugfs health/break_health: devlink_health_report,
#     which recovers at once), the counts say 1 error and 1 recovery, as
#     devlink health show says;
#   - dump-me-now --any-device keeps both reporters with the dummy's
#     diagnose and the dump the error made (the kernel's own contents);
#   - with recovery made to fail (health/fail_recover), the reporter is
#     in error, and get-state's verdict says so.
# mlx5's reporters (tx, rx, fw, fw_fatal, vnic) and their diagnose
# contents stay on captures (README "What was tested how").
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need jq devlink
make_nsim 1

# reporters as devlink sees them: [name, state, errors, recoveries]
dl() {
	# (iproute2 6.1 wants a reporter name with a device: all, then its own)
	devlink -j health show | jq -c --arg h "$nsim" '[.health[$h][] | [.reporter // .name, .state, .error, .recover]]'
}
ml() {
	jq -c '[.devices[0].devlink_health.reporters[] | [.name, .state, .error_count, .recover_count]]' "$1"
}

dl >"$tmp/dl0" && [ "$(cat "$tmp/dl0")" != "[]" ] && [ -s "$tmp/dl0" ] ||
	{ bad "devlink health show says nothing of $nsim: $(devlink -j health show 2>&1)"; finish; }
run gs0 -j dbg get-state --any-device -d "$nsim_if"
check "get-state: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/gs0.err"
check "get-state: the reporters as devlink shows them" "$(ml "$tmp/gs0.out" 2>/dev/null)" "$(dl)"
check "get-state: the two" "$(jq -c '[.devices[0].devlink_health.reporters[].name] | sort' "$tmp/gs0.out" 2>/dev/null)" \
	'["dummy","empty"]'

echo "lab test error" >"$nsim_dbg/health/break_health"
run gs1 -j dbg get-state --any-device -d "$nsim_if"
check "after an error: as devlink shows it" "$(ml "$tmp/gs1.out" 2>/dev/null)" "$(dl)"
check "after an error: dummy 1 error, 1 recovery" \
	"$(jq -c '.devices[0].devlink_health.reporters[] | select(.name == "dummy") | [.error_count, .recover_count]' \
	"$tmp/gs1.out" 2>/dev/null)" '[1,1]'

# The error above made the dummy reporter take a dump (auto_dump): a
# dump-me-now incident keeps the reporters with their diagnose and that dump.
run dmn -j dump-me-now --any-device -d "$nsim_if" --no-crdump --dir "$tmp/dmn"
check "dump-me-now: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/dmn.err"
inc=$(jq -r '.incidents[0].path' "$tmp/dmn.out" 2>/dev/null)
check "dump-me-now: devlink-health.json's reporters" \
	"$(jq -c '[.reporters[].name] | sort' "$inc/devlink-health.json" 2>/dev/null)" '["dummy","empty"]'
check "dump-me-now: the dummy reporter's diagnose" \
	"$(jq -c '.reporters[] | select(.name == "dummy") | .diagnose != null' "$inc/devlink-health.json" 2>/dev/null)" true
check "dump-me-now: the dummy reporter's held dump" "$(test -s "$inc/devlink-health-dump-dummy.json" && echo kept)" kept
check "dump-me-now: no item failed (the PCI ones unavailable, with why)" \
	"$(jq -c '[.incidents[0].items[] | select(.result == "failed") | .name]' "$tmp/dmn.out" 2>/dev/null)" '[]'
devlink -j health dump show "$nsim" reporter dummy >"$tmp/dump.json" 2>/dev/null
check "the dump is the kernel's (break message)" \
	"$(grep -c 'lab test error' "$inc/devlink-health-dump-dummy.json" 2>/dev/null)" \
	"$(grep -c 'lab test error' "$tmp/dump.json")"

echo Y >"$nsim_dbg/health/fail_recover"
echo "lab test error 2" >"$nsim_dbg/health/break_health" 2>/dev/null
run gs2 -j dbg get-state --any-device -d "$nsim_if"
check "recovery failed: dummy in error" \
	"$(jq -r '.devices[0].devlink_health.reporters[] | select(.name == "dummy") | .state' "$tmp/gs2.out" 2>/dev/null)" error
check "recovery failed: as devlink shows it" "$(ml "$tmp/gs2.out" 2>/dev/null)" "$(dl)"
echo N >"$nsim_dbg/health/fail_recover"
finish
