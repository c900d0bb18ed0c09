#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `qosconfig dcqcn get`, `defaults` and `describe` on both sample hosts:
#   - text equals tests/cli/expected/<host>-dcqcn-get.txt.  Those files were
#     generated with mlxcli and REVIEWED BY EYE against the mlx5cmd -Get block
#     (reference seeds-mlx5cmd-dcqcn-qos.md §2.3: header, one TAB before each
#     "Name: value", the manual's order, blank line, NP block, trailer; the two
#     parameters the manual lacks last in their block, under their file
#     names) and
#     against the values in the sample READMEs;
#   - JSON parsed back with jq: every non-null source is a file of the sysroot
#     holding exactly the value shown; a parameter missing from the layout is
#     null (CnpPrioMode on OFED, the enables on upstream);
#   - a VF is refused with exit 4; snapshot + --sysroot gives the same output;
#   - defaults shows the firmware's values; describe knows every parameter.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq
EXPECTED=$TOP_SRCDIR/tests/cli/expected

for host in cx5-ofed cx6dx-upstream; do
	root=$MLXCLI_STATE_DIR/samples/$host
	"$MLXCLI" --sample="$host" qosconfig dcqcn get >"$tmp/get.txt" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || bad "$host: get exit $rc: $(cat "$tmp/err")"
	if cmp -s "$tmp/get.txt" "$EXPECTED/$host-dcqcn-get.txt"; then
		ok "$host: get text"
	else
		bad "$host: get text differs:"
		diff "$EXPECTED/$host-dcqcn-get.txt" "$tmp/get.txt"
	fi

	"$MLXCLI" --sample="$host" -j qosconfig dcqcn get >"$tmp/get.json" || bad "$host: get -j"
	jq -e '.schema_version == 3 and (.ports | length) == 2' "$tmp/get.json" >/dev/null ||
		bad "$host: JSON: two PF ports"
	# 18 RP + 4 NP parameters per port (the manual's 15 + 3, and Linux's 2),
	# 8 enables per side.
	jq -e 'all(.ports[]; (.rp.parameters | length) == 16 and (.np.parameters | length) == 4
		and (.rp.enable | length) == 8 and (.np.enable | length) == 8)' "$tmp/get.json" \
		>/dev/null || bad "$host: JSON: parameter counts"
	jq -e 'all(.ports[].rp.parameters[], .ports[].np.parameters[];
		has("mlx5cmd_name") and has("linux_name") and has("value") and has("unit")
		and has("source") and ((.value == null) == (.source == null)))' "$tmp/get.json" \
		>/dev/null || bad "$host: JSON: parameter keys"
	# Each source holds the value shown.
	jq -r '.ports[] | (.rp.parameters[], .np.parameters[]) | select(.source != null) |
		"\(.source) \(.value)"' "$tmp/get.json" >"$tmp/src"
	n=0
	while read -r src val; do
		n=$((n + 1))
		[ "$(cat "$root$src")" = "$val" ] || bad "$host: $src holds $(cat "$root$src"), JSON says $val"
	done <"$tmp/src"
	[ "$n" -ge 36 ] || bad "$host: only $n sources"
	ok "$host: JSON: $n values equal their source files"
done

# Layout-specific facts.
"$MLXCLI" --sample=cx5-ofed -j qosconfig dcqcn get -d enp94s0f0np0 >"$tmp/o.json"
jq -e '.ports[0].layout == "ofed-sysfs" and .ports[0].rp.enable == [false,false,false,true,false,false,false,false]
	and .ports[0].np.enable == [false,false,false,true,false,false,false,false]
	and (.ports[0].np.parameters[] | select(.mlx5cmd_name == "DcqcnCnpPrioMode") |
	     .value == null and .linux_name == null)
	and (.ports[0].rp.parameters[] | select(.mlx5cmd_name == "DcqcnRpgAiRate") |
	     .value == 5 and .unit == "Mbit/s" and .linux_name == "rpg_ai_rate"
	     and .source == "/sys/class/net/enp94s0f0np0/ecn/roce_rp/rpg_ai_rate")' \
	"$tmp/o.json" >/dev/null && ok "OFED JSON facts" || bad "OFED JSON facts"
"$MLXCLI" --sample=cx6dx-upstream -j qosconfig dcqcn get -d 0000:3b:00.1 >"$tmp/u.json"
jq -e '.ports[0].layout == "debugfs" and .ports[0].rp.enable == [null,null,null,null,null,null,null,null]
	and (.ports[0].np.parameters[] | select(.mlx5cmd_name == "DcqcnCnpPrioMode") |
	     .value == 0 and .linux_name == "np_cnp_prio_mode")
	and (.ports[0].rp.parameters[] | select(.mlx5cmd_name == "DcqcnAlphaToRateShift") |
	     .linux_name == "rp_gd" and .source == "/sys/kernel/debug/mlx5/0000:3b:00.1/cc_params/rp_gd")' \
	"$tmp/u.json" >/dev/null && ok "upstream JSON facts" || bad "upstream JSON facts"

# --names linux shows the file names of the layout.
"$MLXCLI" --sample=cx6dx-upstream qosconfig dcqcn get -d 0000:3b:00.0 --names linux >"$tmp/l.txt"
grep -q "$(printf '^\trp_gd: 11$')" "$tmp/l.txt" && grep -q "$(printf '^\tnp_cnp_prio_mode: 0$')" "$tmp/l.txt" &&
	grep -q "$(printf '^\tenable/3: n/a$')" "$tmp/l.txt" && ok "--names linux" || bad "--names linux"
"$MLXCLI" --sample qosconfig dcqcn get --names nonsense >/dev/null 2>&1
[ $? -eq 2 ] && ok "--names checks its value" || bad "--names nonsense not exit 2"

# A VF: exit 4, pointing at the PF.
"$MLXCLI" --sample -d enp94s0f2 qosconfig dcqcn get >"$tmp/vf.out" 2>"$tmp/vf.err"
rc=$?
[ $rc -eq 4 ] && [ ! -s "$tmp/vf.out" ] && grep -q 'is a VF; give its PF 0000:5e:00.0' "$tmp/vf.err" &&
	ok "VF refused (exit 4)" || bad "VF: exit $rc, $(cat "$tmp/vf.err")"

# Offline: a snapshot serves the same answers.
for host in cx5-ofed cx6dx-upstream; do
	rm -rf "$tmp/snap"
	"$MLXCLI" --sample="$host" snapshot "$tmp/snap" >/dev/null 2>&1 || bad "$host: snapshot"
	"$MLXCLI" --sysroot "$tmp/snap" qosconfig dcqcn get >"$tmp/snap.txt" 2>&1
	cmp -s "$tmp/snap.txt" "$EXPECTED/$host-dcqcn-get.txt" && ok "$host: snapshot + --sysroot" ||
		bad "$host: snapshot + --sysroot differs"
done

# defaults: the firmware's factory values, whatever the device holds
# (dcqcn-roce.sh checks them all and their source).
"$MLXCLI" --sample qosconfig dcqcn defaults -d enp94s0f0np0 >"$tmp/def.txt"
for kv in DcqcnRpgTimeReset:300 DcqcnRpgByteReset:32767 DcqcnRpgThreshold:1 DcqcnRpgAiRate:5 \
	DcqcnRpgHaiRate:50 DcqcnAlphaToRateShift:11 DcqcnRpgMinDecFac:50 DcqcnRpgMinRate:1 \
	DcqcnRateToSetOnFirstCnp:0 DcqcnDceTcpG:1019 DcqcnDceTcpRtt:1 \
	DcqcnRateReduceMonitorPeriod:4 DcqcnInitialAlphaValue:1023 DcqcnClampTgtRate:0 \
	DcqcnClampTgtRateAfterTimeInc:1 DcqcnCnpDscp:48 DcqcnCnp802pPrio:6 DcqcnCnpPrioMode:n/a; do
	grep -q "$(printf '^\t%s: %s$' "${kv%%:*}" "${kv#*:}")" "$tmp/def.txt" || bad "defaults: $kv"
done
# the manual's 34 lines, and Linux's two (rpg_max_rate, min_time_between_cnps:
# issue 25, the text hid what the JSON had)
[ "$(grep -c "$(printf '^\t')" "$tmp/def.txt")" -eq 36 ] && tail -n 1 "$tmp/def.txt" |
	grep -qx 'The command was executed successfully' && ok "defaults" || bad "defaults layout"
"$MLXCLI" --sample -j qosconfig dcqcn defaults -d enp94s0f0np0 |
	jq -e '.ports[0].np.parameters[] | select(.mlx5cmd_name == "DcqcnCnpPrioMode") | .value == null' \
	>/dev/null && ok "defaults: no invented value for DcqcnCnpPrioMode" || bad "defaults DcqcnCnpPrioMode"

# describe: every parameter, one by name in every spelling.
"$MLXCLI" -j qosconfig dcqcn describe >"$tmp/d.json" || bad "describe -j"
jq -e '(.parameters | length) == 28 and ([.parameters[] | select(.mlx5cmd_name != null)] | length) == 26
	and (.algorithm.rp_steps | length) >= 3 and (.algorithm.np_steps | length) >= 1' "$tmp/d.json" >/dev/null &&
	ok "describe -j" || bad "describe -j content"
for name in DcqcnRpgAiRate dcqcnrpgairate -DcqcnRpgAiRate rpg_ai_rate rp_ai_rate; do
	"$MLXCLI" qosconfig dcqcn describe -- "$name" >"$tmp/one.txt" 2>&1
	grep -q '^DcqcnRpgAiRate (rp)$' "$tmp/one.txt" && grep -q 'range: 1 - line rate' "$tmp/one.txt" ||
		bad "describe $name"
done
"$MLXCLI" qosconfig dcqcn describe DcqcnRpgAiRat >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "did you mean 'DcqcnRpgAiRate'" "$tmp/e" && ok "describe: unknown name" ||
	bad "describe unknown name"

exit $fail
