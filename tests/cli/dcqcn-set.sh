#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The DCQCN write paths on the sample hosts' working copies, each checked by
# reading the files back:
#   - set then get shows the new values (mlx5cmd, Linux and debugfs names, hex);
#   - one bad value (range, sign, text, overflow) changes nothing, exit 2;
#   - --dry-run lists old -> new and writes nothing;
#   - a line-rate value above the port speed is clamped, with a warning;
#   - a write failing midway puts back the values already written (exit 5):
#     one file made read-only and mlxcli run as a non-root user;
#   - enable/disable one priority touches only that priority (and side);
#   - on upstream, per-priority enable is exit 4; restore writes the defaults;
#   - default-untagged-priority: bad value exit 2, valid value exit 4.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq

O="$MLXCLI --sample=cx5-ofed"
U="$MLXCLI --sample=cx6dx-upstream"
P0=enp94s0f0np0
RP=$MLXCLI_STATE_DIR/samples/cx5-ofed/sys/class/net/$P0/ecn/roce_rp
NP=$MLXCLI_STATE_DIR/samples/cx5-ofed/sys/class/net/$P0/ecn/roce_np
CC=$MLXCLI_STATE_DIR/samples/cx6dx-upstream/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params

$O qosconfig dcqcn get >/dev/null && $U qosconfig dcqcn get >/dev/null || bad "initial get"

# set, then get.
$O qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 20 rpg_hai_rate 0x40 –DcqcnCnpDscp 26 >"$tmp/out" 2>&1 ||
	bad "set: $(cat "$tmp/out")"
$O qosconfig dcqcn get -d $P0 >"$tmp/get"
grep -q "$(printf '^\tDcqcnRpgAiRate: 20$')" "$tmp/get" && grep -q "$(printf '^\tDcqcnRpgHaiRate: 64$')" "$tmp/get" &&
	grep -q "$(printf '^\tDcqcnCnpDscp: 26$')" "$tmp/get" && [ "$(cat "$RP/rpg_ai_rate")" = 20 ] &&
	ok "set then get (mlx5cmd, linux, en-dash names, hex)" || bad "set then get"
$U qosconfig dcqcn set -d enp59s0f0np0 rp_time_reset 131071 DcqcnCnpPrioMode 1 >/dev/null 2>&1 &&
	[ "$(cat "$CC/rp_time_reset")" = 131071 ] && [ "$(cat "$CC/np_cnp_prio_mode")" = 1 ] &&
	ok "set on debugfs" || bad "set on debugfs"

# One bad value: nothing changes, exit 2, the message gives range and unit.
$O qosconfig dcqcn get >"$tmp/before"
for bv in "DcqcnRpgThreshold 32" "DcqcnRpgThreshold 0" "DcqcnCnpDscp 64" "DcqcnRpgTimeReset 131072" \
	"DcqcnRpgAiRate abc" "DcqcnRpgAiRate 99999999999999999999999" "DcqcnRpgAiRate 4294967296" \
	"DcqcnRpgMinDecFac 0" "NoSuchParam 1"; do
	# shellcheck disable=SC2086
	$O qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 30 $bv >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc -eq 2 ] || bad "set '$bv': exit $rc"
	$O qosconfig dcqcn get >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" || bad "set '$bv' changed something"
done
$O qosconfig dcqcn set -d $P0 -- DcqcnRpgAiRate -5 >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] && grep -q 'range 1 - line rate (at most 4294967295) Mbit/s' "$tmp/e" || bad "negative value"
$O qosconfig dcqcn set -d $P0 DcqcnRpgThreshold 32 2>"$tmp/e"
grep -q 'outside the range 1 - 31 iterations' "$tmp/e" && ok "bad values rejected, nothing changed" ||
	bad "range message: $(cat "$tmp/e")"
$O qosconfig dcqcn set DcqcnRpgAiRate 30 >/dev/null 2>&1
[ $? -eq 2 ] || bad "set without -d is not exit 2"

# --dry-run writes nothing.
$O qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 33 DcqcnDceTcpG 0x3ff --dry-run >"$tmp/dry"
grep -qx 'DcqcnRpgAiRate: 20 -> 33' "$tmp/dry" && grep -qx 'DcqcnDceTcpG: 1019 -> 1023' "$tmp/dry" ||
	bad "dry-run text: $(cat "$tmp/dry")"
$O -j qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 33 --dry-run |
	jq -e '.dry_run == true and .changes == [{"setting":"rpg_ai_rate","old":20,"new":33,
		"unit":"Mbit/s","changed":true,"note":null}]' \
	>/dev/null || bad "dry-run JSON"
$O qosconfig dcqcn restore -d $P0 --dry-run >/dev/null
$O qosconfig dcqcn get >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && [ "$(cat "$RP/rpg_ai_rate")" = 20 ] && ok "--dry-run writes nothing" ||
	bad "--dry-run wrote"

# Line rate: PF0 is up at 100000 Mb/s.
$O qosconfig dcqcn set -d $P0 DcqcnRateToSetOnFirstCnp 500000 >/dev/null 2>"$tmp/e"
[ "$(cat "$RP/rate_to_set_on_first_cnp")" = 100000 ] && grep -q 'above the line rate.*setting 100000' "$tmp/e" &&
	ok "line-rate clamp" || bad "clamp: $(cat "$RP/rate_to_set_on_first_cnp") $(cat "$tmp/e")"

# enable/disable one priority: exactly the lines of that priority change.
$O qosconfig dcqcn get -d $P0 >"$tmp/b"
$O qosconfig dcqcn enable -d $P0 5 >/dev/null || bad "enable 5"
$O qosconfig dcqcn get -d $P0 >"$tmp/a"
diff "$tmp/b" "$tmp/a" | grep '^>' | sort >"$tmp/d"
printf '> \tDcqcnNPEnablePrio5: 1\n> \tDcqcnRPEnablePrio5: 1\n' | sort | cmp -s - "$tmp/d" &&
	ok "enable 5 touches priority 5 only" || { bad "enable 5:"; cat "$tmp/d"; }
$O qosconfig dcqcn disable -d $P0 3 --np >/dev/null || bad "disable 3 --np"
$O qosconfig dcqcn get -d $P0 >"$tmp/c"
diff "$tmp/a" "$tmp/c" | grep '^>' >"$tmp/d"
printf '> \tDcqcnNPEnablePrio3: 0\n' | cmp -s - "$tmp/d" && [ "$(cat "$RP/enable/3")" = 1 ] &&
	ok "disable 3 --np touches NP priority 3 only" || { bad "disable 3 --np:"; cat "$tmp/d"; }
$O qosconfig dcqcn enable -d $P0 8 >/dev/null 2>&1
[ $? -eq 2 ] || bad "enable 8 not exit 2"
$O qosconfig dcqcn disable -d $P0 >/dev/null && [ "$(cat "$RP"/enable/* "$NP"/enable/* | sort -u)" = 0 ] &&
	ok "disable all" || bad "disable all"
$U qosconfig dcqcn enable -d enp59s0f0np0 3 >/dev/null 2>"$tmp/e"
[ $? -eq 4 ] && grep -q 'ROCE_CC_PRIO_MASK' "$tmp/e" && ok "upstream enable: exit 4" || bad "upstream enable"
$O qosconfig dcqcn set -d $P0 DcqcnCnpPrioMode 1 >/dev/null 2>&1
[ $? -eq 4 ] && ok "OFED has no CnpPrioMode: exit 4" || bad "OFED CnpPrioMode"

# A write failing midway: earlier writes are put back.  Table order is
# Threshold, AiRate, HaiRate: make HaiRate read-only, run as a non-root user.
$O qosconfig dcqcn get -d $P0 >"$tmp/b"
run_as() { $O "$@"; }
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		chmod 755 "$MLXCLI_STATE_DIR"
		chown -R 65534:65534 "$MLXCLI_STATE_DIR"
		priv_setup cx5-ofed
		run_as() { as_nobody "$NOBODY_MLXCLI" --sample=cx5-ofed "$@"; }
	else
		run_as() { return 77; }
	fi
fi
chmod 0444 "$RP/rpg_hai_rate"
run_as qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 77 DcqcnRpgHaiRate 200 DcqcnRpgThreshold 7 \
	>/dev/null 2>"$tmp/e"
rc=$?
if [ $rc -eq 77 ]; then
	echo "  skip: midway failure (root without setpriv)"
else
	$O qosconfig dcqcn get -d $P0 >"$tmp/a"
	[ $rc -eq 5 ] && cmp -s "$tmp/b" "$tmp/a" && grep -q 'DcqcnRpgHaiRate.*put back, newest first; nothing was changed' "$tmp/e" &&
		ok "midway failure restores (exit 5)" || { bad "midway failure: exit $rc: $(cat "$tmp/e")"; diff "$tmp/b" "$tmp/a"; }
fi
chmod 0644 "$RP/rpg_hai_rate"

# restore: the firmware's values; then get shows them.
$O qosconfig dcqcn restore -d $P0 >/dev/null 2>&1 || bad "restore"
$O qosconfig dcqcn defaults -d $P0 | tail -n +2 >"$tmp/def"
$O qosconfig dcqcn get -d $P0 >"$tmp/get"
grep -v Enable "$tmp/def" | grep -v CnpPrioMode >"$tmp/d1"
grep -v Enable "$tmp/get" | grep -v CnpPrioMode >"$tmp/d2"
cmp -s "$tmp/d1" "$tmp/d2" && [ "$(cat "$RP/rpg_time_reset")" = 300 ] && ok "restore = defaults" ||
	{ bad "restore"; diff "$tmp/d1" "$tmp/d2"; }
# restore restores every setting get shows, the per-priority enables too
# (issue 25: after disable 3, restore kept priority 3 off while defaults
# shows it on), or says which it keeps and why
$O qosconfig dcqcn disable 3 -d $P0 >/dev/null 2>&1 || bad "disable 3"
$O -j qosconfig dcqcn restore -d $P0 >"$tmp/r.json" 2>"$tmp/r.err" || bad "restore after disable 3"
$O qosconfig dcqcn defaults -d $P0 | tail -n +2 | grep -v CnpPrioMode >"$tmp/d1"
$O qosconfig dcqcn get -d $P0 | grep -v CnpPrioMode >"$tmp/d2"
cmp -s "$tmp/d1" "$tmp/d2" && [ "$(cat "$RP/enable/3")" = 1 ] && [ "$(cat "$NP/enable/3")" = 1 ] &&
	[ "$(cat "$RP/enable/0")" = 1 ] && ok "restore after disable 3: get = defaults, the enables included" ||
	{ bad "restore after disable 3"; diff "$tmp/d1" "$tmp/d2"; }
check "restore on OFED keeps nothing it shows" "$(jq -c '.kept' "$tmp/r.json") $(wc -c <"$tmp/r.err")" '[] 0'
# --keep-enables: the old behaviour, said
$O qosconfig dcqcn disable 3 -d $P0 >/dev/null 2>&1
$O -j qosconfig dcqcn restore --keep-enables -d $P0 >"$tmp/r.json" 2>"$tmp/r.err" || bad "restore --keep-enables"
[ "$(cat "$RP/enable/3")" = 0 ] && [ "$(cat "$NP/enable/3")" = 0 ] &&
	check "restore --keep-enables: the 16 enables kept, with why" \
	"$(jq -c '[([.kept[] | select(.reason | test("keep-enables"))] | length), ([.changes[].setting] | map(select(test("enable"))) | length)]' "$tmp/r.json")" \
	'[16,0]' || bad "restore --keep-enables changed an enable"
grep -q "restore keeps the per-priority enables (--keep-enables)" "$tmp/r.err" && ok "... said on stderr" ||
	bad "--keep-enables note: $(cat "$tmp/r.err")"
$O qosconfig dcqcn restore -d $P0 >/dev/null 2>&1
# upstream has no per-priority enable: restore keeps them and says why
$U -j qosconfig dcqcn restore -d enp59s0f0np0 --dry-run >"$tmp/r.json" 2>"$tmp/r.err" || bad "upstream restore"
check "upstream restore: what it keeps" "$(jq -c '[.kept[].setting]' "$tmp/r.json")" '["per-priority enables","DcqcnCnpPrioMode"]'
grep -q "restore keeps per-priority enables: not exposed upstream" "$tmp/r.err" &&
	grep -q "restore keeps DcqcnCnpPrioMode: its factory value is not known" "$tmp/r.err" &&
	ok "... each said on stderr, with why" || bad "upstream kept notes: $(cat "$tmp/r.err")"
# get and defaults show the two parameters Linux has and the manual lacks
for c in get defaults; do
	$O qosconfig dcqcn $c -d $P0 >"$tmp/g"
	grep -q "$(printf '^\trpg_max_rate: 0$')" "$tmp/g" && grep -q "$(printf '^\tmin_time_between_cnps: 4$')" "$tmp/g" &&
		ok "dcqcn $c text: rpg_max_rate and min_time_between_cnps" || bad "dcqcn $c text: $(cat "$tmp/g")"
done
$U qosconfig dcqcn get -d enp59s0f0np0 >"$tmp/g"
grep -q "$(printf '^\trp_max_rate: ')" "$tmp/g" && grep -q "$(printf '^\tnp_min_time_between_cnps: ')" "$tmp/g" &&
	ok "upstream get text: the debugfs names" || bad "upstream get text: $(cat "$tmp/g")"
# The mode has no known default: restore leaves it (and keeps it across the
# np_cnp_prio write that resets it in the driver).
$U qosconfig dcqcn set -d enp59s0f0np0 np_cnp_prio 3 rp_max_rate 5 >/dev/null 2>&1
$U qosconfig dcqcn restore -d enp59s0f0np0 >/dev/null 2>&1 && [ "$(cat "$CC/np_cnp_prio")" = 6 ] &&
	[ "$(cat "$CC/np_cnp_prio_mode")" = 1 ] && [ "$(cat "$CC/rp_max_rate")" = 0 ] &&
	ok "restore on debugfs" || bad "restore on debugfs"

# default-untagged-priority.
$O qosconfig default-untagged-priority set -d $P0 8 >/dev/null 2>&1
[ $? -eq 2 ] || bad "untagged set 8 not exit 2"
$O qosconfig default-untagged-priority set -d $P0 3 >/dev/null 2>"$tmp/e"
[ $? -eq 4 ] && grep -q 'not supported by the mlx5 driver' "$tmp/e" && ok "untagged priority: 2 / 4" ||
	bad "untagged set 3"
$O qosconfig default-untagged-priority get -d $P0 >/dev/null 2>&1
[ $? -eq 4 ] || bad "untagged get not exit 4"

exit $fail
