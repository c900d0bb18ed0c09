#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# DCQCN as a RoCE operator relies on it (issue 15), on the sample hosts:
#   - defaults/restore use the firmware's factory values (not the manual's
#     -Get example) and say where they come from; restore --dry-run on a
#     working RoCE port plans nothing, and after a real restore of a port
#     whose CNP settings were changed, `show qos --check` has no CNP finding;
#   - on upstream debugfs, where writing np_cnp_prio resets np_cnp_prio_mode
#     (the captured-system write path models the driver), a set with both,
#     or with the priority alone, leaves what was asked, read back;
#   - a down port gets the "not clamped" warning once per command;
#   - counters cc: where the kernel has no per-priority enable, the enabled
#     priorities are unknown (null, "unknown"), never "none";
#   - the man page's parameter table shows the table's defaults.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq

O="$MLXCLI --sample=cx5-ofed"
U="$MLXCLI --sample=cx6dx-upstream"
P0=enp94s0f0np0
P1=enp94s0f1np1
U0=enp59s0f0np0
CC=$MLXCLI_STATE_DIR/samples/cx6dx-upstream/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params

# Defaults: the firmware's, with their source, in defaults and get -j.
$O -j qosconfig dcqcn defaults -d $P0 >"$tmp/def.json" || bad "defaults -j"
jq -e '.ports[0] | (.default_source | test("mlxconfig")) and .default_family == "ConnectX-4 Lx"
	and .default_family_captured == false
	and ([.rp.parameters[] | {(.linux_name): .value}] | add) == {"clamp_tgt_rate": 0,
		"clamp_tgt_rate_after_time_inc": 1, "rpg_time_reset": 300, "rpg_byte_reset": 32767,
		"rpg_threshold": 1, "rpg_ai_rate": 5, "rpg_hai_rate": 50, "rpg_gd": 11,
		"rpg_min_dec_fac": 50, "rpg_min_rate": 1, "rate_to_set_on_first_cnp": 0,
		"dce_tcp_g": 1019, "dce_tcp_rtt": 1, "rate_reduce_monitor_period": 4,
		"initial_alpha_value": 1023, "rpg_max_rate": 0}
	and ([.np.parameters[] | select(.linux_name) | {(.linux_name): .value}] | add) == {"cnp_dscp": 48,
		"cnp_802p_prio": 6, "min_time_between_cnps": 4}
	and .rp.enable == [true,true,true,true,true,true,true,true] and .np.enable == [true,true,true,true,true,true,true,true]' "$tmp/def.json" \
	>/dev/null && ok "defaults are the firmware's, with their source" || bad "defaults: $(cat "$tmp/def.json")"
$U -j qosconfig dcqcn get -d $U0 | jq -e '.ports[0] | (.default_source | test("ConnectX-4 Lx"))
	and ([.rp.parameters[], .np.parameters[] | {(.linux_name): .default}] | add) as $d
	| $d.rp_time_reset == 300 and $d.rp_dce_tcp_g == 1019 and $d.np_cnp_dscp == 48
	and $d.np_cnp_prio == 6 and $d.np_cnp_prio_mode == null' >/dev/null &&
	ok "get -j: default = the firmware's" || bad "get -j default"
$O qosconfig dcqcn defaults -d $P0 | head -n 1 | grep -q '^Factory defaults (firmware factory values: mlxconfig' &&
	ok "defaults text names its source" || bad "defaults text source"
$MLXCLI qosconfig dcqcn describe DcqcnRpgTimeReset >"$tmp/desc"
grep -q "$(printf '^\tdefault: 300')" "$tmp/desc" && grep -q "$(printf '^\texample: 100 ')" "$tmp/desc" &&
	ok "describe: default, and the manual's value as an example" || bad "describe: $(cat "$tmp/desc")"

# restore on working RoCE ports (the samples hold real values): nothing to do
# but the enables (the OFED sample runs DCQCN on priority 3 only, the factory
# on all): --keep-enables leaves them.
# shellcheck disable=SC2086
$O -j qosconfig dcqcn restore --dry-run -d $P0 >"$tmp/plan.json" 2>"$tmp/e" || bad "restore --dry-run"
jq -e '[.changes[] | select(.changed) | .setting] | length == 14 and all(test("enable/[0-24-7]$"))' \
	"$tmp/plan.json" >/dev/null && ok "restore --dry-run on OFED plans the 14 enables that are off" ||
	bad "restore --dry-run plans: $(jq -c '[.changes[] | select(.changed)]' "$tmp/plan.json")"
for h in "$O -d $P0 --keep-enables" "$U -d $U0"; do
	# shellcheck disable=SC2086
	$h -j qosconfig dcqcn restore --dry-run >"$tmp/plan.json" 2>"$tmp/e" || bad "$h restore --dry-run"
	jq -e '[.changes[] | select(.changed)] == []' "$tmp/plan.json" >/dev/null &&
		ok "restore --dry-run plans no change on a working port (${h#* --sample=})" ||
		bad "restore --dry-run plans: $(jq -c '[.changes[] | select(.changed)]' "$tmp/plan.json")"
done
# Break the CNP settings, restore, and the lint finds nothing about CNPs.
# (Assumed wording of show qos --check: findings are "Check [id]: ..." lines,
# the CNP ones with ids containing "cnp"; exit 0 when nothing is found.)
$O qosconfig show --check -d $P0 >"$tmp/c0" 2>&1
[ $? -eq 0 ] || bad "the sample port is not clean before: $(grep Check "$tmp/c0")"
$O qosconfig dcqcn set -d $P0 DcqcnCnpDscp 0 DcqcnCnp802pPrio 7 DcqcnRpgTimeReset 100 >/dev/null 2>&1 ||
	bad "set CNP DSCP/priority"
# (--keep-enables: the port keeps DCQCN on priority 3 alone, as it runs)
$O qosconfig dcqcn restore --keep-enables -d $P0 >/dev/null 2>"$tmp/e" || bad "restore: $(cat "$tmp/e")"
$O qosconfig show --check -d $P0 >"$tmp/c1" 2>&1
rc=$?
! grep -i 'check.*cnp' "$tmp/c1" >/dev/null && [ $rc -eq 0 ] &&
	[ "$($O -j qosconfig dcqcn get -d $P0 | jq -c '[.ports[0].np.parameters[] | select(.linux_name) | .value]')" = "[48,6,4]" ] &&
	ok "restore leaves a working RoCE port (no CNP finding)" ||
	bad "after restore (exit $rc): $(grep -i check "$tmp/c1")"

# Upstream: np_cnp_prio resets np_cnp_prio_mode in the driver.
$U qosconfig dcqcn set -d $U0 DcqcnCnpPrioMode 1 >/dev/null 2>&1 && [ "$(cat "$CC/np_cnp_prio_mode")" = 1 ] ||
	bad "set DcqcnCnpPrioMode 1 alone"
$U -j qosconfig dcqcn set -d $U0 DcqcnCnp802pPrio 5 DcqcnCnpPrioMode 1 >"$tmp/s.json" 2>"$tmp/e" ||
	bad "set priority and mode: $(cat "$tmp/e")"
[ "$(cat "$CC/np_cnp_prio")" = 5 ] && [ "$(cat "$CC/np_cnp_prio_mode")" = 1 ] &&
	jq -e '[.changes[] | {(.setting): [.old, .new]}] | add == {"np_cnp_prio": [6, 5], "np_cnp_prio_mode": [1, 1]}' \
	"$tmp/s.json" >/dev/null && ok "priority and mode in one set: both as asked" ||
	bad "priority + mode: prio $(cat "$CC/np_cnp_prio") mode $(cat "$CC/np_cnp_prio_mode") $(cat "$tmp/s.json")"
$U -j qosconfig dcqcn set -d $U0 DcqcnCnp802pPrio 4 >"$tmp/s.json" 2>"$tmp/e" || bad "set priority alone"
[ "$(cat "$CC/np_cnp_prio")" = 4 ] && [ "$(cat "$CC/np_cnp_prio_mode")" = 1 ] &&
	jq -e '.changes[] | select(.setting == "np_cnp_prio_mode") | (.note | startswith("kept")) and .new == 1 and (.changed | not)' "$tmp/s.json" \
	>/dev/null && ok "priority alone: the mode the driver reset is written back and reported" ||
	bad "priority alone: mode $(cat "$CC/np_cnp_prio_mode") $(cat "$tmp/s.json")"

# A down port: one "not clamped" warning per command, not one per value.
$O qosconfig dcqcn restore -d $P1 >/dev/null 2>"$tmp/e"
$O qosconfig dcqcn set -d $P1 DcqcnRpgAiRate 7 DcqcnRpgHaiRate 70 DcqcnRpgMinRate 2 \
	DcqcnRateToSetOnFirstCnp 9 >/dev/null 2>"$tmp/e" || bad "set on the down port"
[ "$(grep -c 'not clamped' "$tmp/e")" -eq 1 ] && ok "down port: one clamp warning" ||
	bad "down port warnings: $(cat "$tmp/e")"

# counters cc: unknown is unknown.
$U -j counters cc -d $U0 2>/dev/null | jq -e '.ports[0].dcqcn | .rp_enabled_priorities == null and
	.np_enabled_priorities == null' >/dev/null || bad "counters cc -j on upstream: enable state not null"
$U counters cc -d $U0 2>/dev/null | grep 'enabled on priorities' >"$tmp/cc"
[ "$(grep -c ': unknown$' "$tmp/cc")" -eq 2 ] && ! grep -q none "$tmp/cc" &&
	ok "counters cc: unknown enable state on upstream" || bad "counters cc text: $(cat "$tmp/cc")"
$O -j counters cc -d $P0 2>/dev/null | jq -e '.ports[0].dcqcn.rp_enabled_priorities == [3]' >/dev/null ||
	bad "counters cc on OFED"

# The man page's table: every row's default is the table's (describe -j).
MAN=$TOP_SRCDIR/man/mlxcli-dcqcn.8
if [ -r "$MAN" ]; then
	$MLXCLI -j qosconfig dcqcn describe | jq -r '.parameters[] | select(.priority == null or .priority == 0)
		| "\(.mlx5cmd_name // .ofed_name // .debugfs_name | sub("0$"; "0..7")) \(.default // "-")"' \
		| sort >"$tmp/want"
	awk '/^\.SH PARAMETERS/ { on = 1 } /^\.TE/ { on = 0 }
		on && /^T\{$/ { getline name; if (name == "\\(em") { getline; getline name2; name = name2 }
			sub(/^\\fI/, "", name); sub(/[,\\].*/, "", name); next }
		on && /^T\};/ { n = split($0, f, ";"); d = f[n]; if (d == "\\(em") d = "-"; print name, d }' \
		"$MAN" | sort >"$tmp/man"
	cmp -s "$tmp/want" "$tmp/man" && ok "man page defaults = the table's" ||
		{ bad "man page defaults differ from the table"; diff "$tmp/want" "$tmp/man"; }
fi

finish
