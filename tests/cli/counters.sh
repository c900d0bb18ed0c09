#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli counters` (every view) and `show perfstats` on the two sample hosts
# (facts from gen/samples.py, issue 5 block: RoCE on priority 3,
# PFC pause on prio 3 and port discards on cx5-ofed, CNPs in hw_counters):
#   - text and JSON of show, cc, prio, errors; --filter, --nonzero, --group;
#   - the compact JSON of schema 3 (issue 28): values per source keyed by
#     name, the catalogue once; folding the catalogue back into each value
#     (tests/cli/counters-fold.jq) gives exactly what --describe prints,
#     schema 2's objects, on which the facts below are checked; the
#     catalogue holds the counters shown and no other; --catalogue prints
#     that catalogue alone; a driver's repeated name is keyed "name#2";
#     --group reads only the sources it can select;
#   - an uncatalogued counter is shown and marked, never dropped;
#   - watch --count 2 --interval 0.2 (static values: zero deltas), text and
#     the JSON stream (the "start" record, one object per sample, then the
#     "end" record);
#   - watch after a counter file is edited between two samples: a counter
#     that went backwards is a reset (delta and rates null), a 32-bit one
#     near 2^32 wraps; SIGTERM ends the JSON stream with the end record as
#     SIGINT does;
#   - --format prometheus: one metric per family, HELP/TYPE once, promtool
#     check metrics when promtool is installed;
#   - a snapshot of the sample serves the same counters (capture round trip);
#   - bad usage exits 2.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq python3

# expect_rc NAME RC: the last run exited RC
expect_rc() {
	if [ "$rc" -eq "$2" ]; then ok "$1 exits $2"; else bad "$1 exits $rc, expected $2: $(cat "$tmp/$1.err")"; fi
}

# both NAME ARGS...: mlxcli ARGS -j counters... twice: compact in
# $tmp/NAME-c.out, --describe in $tmp/NAME.out (what the checks below read);
# the compact one must fold back into the described one, and its catalogue
# name exactly the counters it shows.
both() {
	bname=$1
	shift
	errors=false
	case " $* " in *" counters errors "*) errors=true ;; esac
	run "$bname-c" "$@"
	crc=$rc
	run "$bname" "$@" --describe
	[ "$crc" -eq "$rc" ] || bad "$bname: compact exits $crc, --describe $rc"
	if jq -c --argjson errors $errors -f "$TOP_SRCDIR/tests/cli/counters-fold.jq" "$tmp/$bname-c.out" >"$tmp/$bname.fold" &&
		jq -c . "$tmp/$bname.out" >"$tmp/$bname.desc" && cmp -s "$tmp/$bname.fold" "$tmp/$bname.desc"; then
		ok "$bname: the compact document folds into --describe's"
	else
		bad "$bname: compact and --describe differ: $(diff "$tmp/$bname.fold" "$tmp/$bname.desc" | head -c 400)"
	fi
	got=$(jq -c '[([.ports[].counters | to_entries[] | .key as $s | .value | keys[] | [$s, .]] | unique),
		([.catalogue | to_entries[] | .key as $s | .value | keys[] | [$s, .]] | sort)] | .[0] == .[1]' "$tmp/$bname-c.out")
	[ "$got" = true ] && ok "$bname: the catalogue has the counters shown, no other" ||
		bad "$bname: catalogue and counters differ"
}

# jq_is NAME FILTER EXPECTED
jq_is() {
	got=$(jq -c "$2" "$tmp/$1.out" 2>&1)
	if [ "$got" = "$3" ]; then
		ok "$1: $2 = $3"
	else
		bad "$1: $2 is '$got', expected '$3'"
	fi
}

for host in cx5-ofed cx6dx-upstream; do
	echo "== $host"
	S="--sample=$host"
	case $host in
	cx5-ofed) pf=enp94s0f0np0 nports=6 ;;
	*) pf=enp59s0f0np0 nports=2 ;;
	esac

	run show-$host $S counters
	expect_rc show-$host 0
	if grep -q '^NAME  *VALUE  *UNIT  *GROUP  *SOURCE  *DESCRIPTION' "$tmp/show-$host.out" &&
	   grep -q '^rx_prio3_bytes ' "$tmp/show-$host.out"; then
		ok "$host: text table with a prio counter"
	else
		bad "$host: text output lacks the table"
	fi
	[ -s "$tmp/show-$host.err" ] && bad "$host: stderr not empty: $(cat "$tmp/show-$host.err")"

	both json-$host $S -j counters
	expect_rc json-$host 0
	jq_is json-$host-c 'keys_unsorted' '["schema_version","ports","catalogue"]'
	jq_is json-$host-c '[.ports[].counters | type] | unique' '["object"]'
	jq_is json-$host-c "[.ports[] | select(.netdev == \"$pf\") | .counters.ethtool.rx_bytes_phy, (.counters.ethtool | has(\"rx_prio3_bytes\"))]" \
		"$(jq -c "[.ports[] | select(.netdev == \"$pf\") | .counters[] | select(.source == \"ethtool\" and .name == \"rx_bytes_phy\") | .value] + [true]" "$tmp/json-$host.out")"
	jq_is json-$host-c '.catalogue.ib_counters.port_xmit_data | [.unit, .scale]' '["bytes",4]'
	jq_is json-$host-c '.catalogue.ethtool.rx_bytes_phy | [.unit, .group, .width, .gauge]' '["bytes","port",64,false]'
	c=$(wc -c <"$tmp/json-$host-c.out")
	d=$(wc -c <"$tmp/json-$host.out")
	[ $((c * 3)) -lt $((d * 2)) ] && ok "$host: compact $c bytes, described $d" || bad "$host: compact $c bytes, described $d"
	# --catalogue: that catalogue alone (same counters, no values)
	run cat-$host $S -j counters --catalogue
	expect_rc cat-$host 0
	[ "$(jq -c '.catalogue' "$tmp/cat-$host.out")" = "$(jq -c '.catalogue' "$tmp/json-$host-c.out")" ] &&
		[ "$(jq -c 'keys_unsorted' "$tmp/cat-$host.out")" = '["schema_version","catalogue"]' ] &&
		ok "$host: --catalogue is the document's catalogue" || bad "$host: --catalogue differs"
	run cattxt-$host $S counters --catalogue --filter '^rx_bytes_phy$'
	grep -q '^rx_bytes_phy  *ethtool  *bytes  *port  *64  *bytes received' "$tmp/cattxt-$host.out" &&
		ok "$host: --catalogue text" || bad "$host: --catalogue text: $(cat "$tmp/cattxt-$host.out")"
	# -g netdev reads the netdev source only
	run gnet-$host $S -j counters -g netdev
	jq_is gnet-$host '[.ports[] | (.sources | keys), (.counters | keys)] | unique' '[["netdev"]]'
	[ "$(jq -c '[.ports[].counters.netdev]' "$tmp/gnet-$host.out")" = "$(jq -c '[.ports[].counters.netdev]' "$tmp/json-$host-c.out")" ] &&
		ok "$host: -g netdev: the same netdev values as a full read" || bad "$host: -g netdev values differ"
	jq_is json-$host '.ports | length' "$nports"
	jq_is json-$host '[.ports[].sources.ethtool] | unique' '["ok"]'
	jq_is json-$host '[.ports[].counters[] | select(.group == null or .unit == null or .source == null)] | length' 0
	jq_is json-$host "[.ports[] | select(.netdev == \"$pf\") | .counters[] | select(.name == \"rx_bytes_phy\") | .group, .unit, .source]" '["port","bytes","ethtool"]'
	jq_is json-$host "[.ports[] | select(.netdev == \"$pf\") | .counters[] | select(.name == \"rx_prio3_pause\") | .labels.priority]" \
		"$([ $host = cx5-ofed ] && echo '["3"]' || echo '[]')"
	jq_is json-$host "[.ports[] | select(.netdev == \"$pf\") | .counters[] | select(.source == \"ib_counters\" and .name == \"port_xmit_data\") | .value == .raw_value * 4] | unique" '[true]'
	jq_is json-$host '[.ports[].counters[] | select(.catalogued == false)] | length' 0
	jq_is json-$host "[.ports[] | select(.netdev == \"$pf\") | .counters[].source] | unique" '["aer","ethtool","fec","hw_counters","ib_counters","module","netdev"]'

	# --filter, --nonzero, --group
	both filt-$host $S -j counters -d "$pf" --filter '^rx_prio[0-9]+_bytes$'
	jq_is filt-$host '[.ports[0].counters[].name] | length' 8
	jq_is filt-$host '[.ports[0].counters[].name | test("^rx_prio[0-9]+_bytes$")] | unique' '[true]'
	both nz-$host $S -j counters --nonzero
	jq_is nz-$host '[.ports[].counters[] | select(.value == 0)] | length' 0
	jq_is nz-$host '[.ports[].counters[]] | length > 50' true
	both grp-$host $S -j counters -d "$pf" --group prio,pcie
	jq_is grp-$host '[.ports[0].counters[].group] | unique' '["pcie","prio"]'
	both gerr-$host $S -j counters -d "$pf" --group errors --nonzero
	jq_is gerr-$host '[.ports[0].counters[] | select(.name == "rx_crc_errors_phy")] | length' 1
	jq_is gerr-$host '[.ports[0].counters[] | select(.name == "rx_bytes_phy")] | length' 0

	# views
	both cc-$host $S -j counters cc -d "$pf"
	expect_rc cc-$host 0
	jq_is cc-$host '.ports[0].counters | map(.name) | index("np_cnp_sent") != null' true
	jq_is cc-$host '[.ports[0].counters[] | select(.name == "np_cnp_sent") | .value]' '[402]'
	run prio-$host $S -j counters prio -d "$pf"
	jq_is prio-$host '.ports[0].per_priority | length' 8
	jq_is prio-$host 'keys_unsorted' '["schema_version","ports"]'     # no catalogue: no counters
	jq_is prio-$host '.ports[0].per_priority[3].rx_packets' 52341
	run prio-txt-$host $S counters prio -d "$pf"
	expect_rc prio-txt-$host 0
	grep -q '^PRIO  *RX BYTES' "$tmp/prio-txt-$host.out" && ok "$host: prio table header" ||
		bad "$host: prio text has no table"
	both err-$host $S -j counters errors
	expect_rc err-$host 0
	jq_is err-$host '[.ports[].counters[] | select(.value == 0)] | length' 0
	jq_is err-$host "[.ports[] | select(.netdev == \"$pf\") | .counters[] | select(.name == \"rx_discards_phy\")] | length" 1
	jq_is err-$host '[.ports[].counters[] | select(.meaning == null)] | length' 0
	run err-txt-$host $S counters errors
	grep -q 'USUALLY MEANS' "$tmp/err-txt-$host.out" && ok "$host: errors text" || bad "$host: errors text"
	run perf-$host $S -j show perfstats -d "$pf"
	expect_rc perf-$host 0
	jq_is perf-$host '.ports[0].rings | length' 4
	jq_is perf-$host '.ports[0].rings[1].tx_stopped' 3

	# watch: values are static, so no counter moved
	run watch-$host $S -j counters watch --count 2 --interval 0.2 -d "$pf"
	expect_rc watch-$host 0
	if [ "$(wc -l < "$tmp/watch-$host.out")" -eq 4 ]; then ok "$host: watch stream has 4 lines"; else bad "$host: watch stream: $(cat "$tmp/watch-$host.out")"; fi
	got=$(jq -c '[.record, .sample, (.ports[0].counters | length)]' "$tmp/watch-$host.out" | tr '\n' ' ')
	[ "$got" = '["start",null,0] ["sample",1,0] ["sample",2,0] ["end",null,0] ' ] &&
		ok "$host: start, two samples with zero deltas, then end" || bad "$host: watch records are '$got'"
	got=$(head -1 "$tmp/watch-$host.out" | jq -c '[.interval_msec, .ports[0].netdev, .ports[0].gone, (.time | test("Z$"))]')
	[ "$got" = "[200,\"$pf\",false,true]" ] && ok "$host: the start record names what is watched" ||
		bad "$host: start record: $got"
	run watchall-$host $S -j counters watch --count 1 --interval 0.2 --all -d "$pf"
	got=$(jq -c 'select(.record == "sample")' "$tmp/watchall-$host.out" | jq -c '[([.ports[0].counters[].delta] | unique), ([.ports[0].counters[]] | length > 100), (.interval_msec >= 150)]')
	[ "$got" = '[[0],true,true]' ] && ok "$host: --all shows unmoved counters with delta 0" || bad "$host: watch --all: $got"
	run watchtxt-$host $S counters watch --count 2 --interval 0.2
	expect_rc watchtxt-$host 0
	[ "$(grep -c '^sample ' "$tmp/watchtxt-$host.out")" -eq 2 ] && ok "$host: two text screens" || bad "$host: text watch"

	# Prometheus
	run prom-$host $S counters --format prometheus
	expect_rc prom-$host 0
	dup=$(grep '^# TYPE ' "$tmp/prom-$host.out" | sort | uniq -d | wc -l)
	fams=$(grep -c '^# TYPE ' "$tmp/prom-$host.out")
	names=$(grep -v '^#' "$tmp/prom-$host.out" | sed 's/{.*//' | sort -u | wc -l)
	[ "$dup" -eq 0 ] && [ "$fams" -eq "$names" ] && ok "$host: HELP/TYPE once per family ($fams families)" ||
		bad "$host: $dup duplicated TYPE lines, $fams TYPE lines for $names metric names"
	grep -q "^mlxcli_prio_rx_bytes_total{pci_address=\"[0-9a-f:.]*\",netdev=\"$pf\",port=\"1\",priority=\"3\"} [0-9]*$" "$tmp/prom-$host.out" &&
		ok "$host: prio family with a priority label" || bad "$host: no mlxcli_prio_rx_bytes_total priority 3"
	grep -q '^mlxcli_queue_packets_total{.*queue="0",direction="rx"}' "$tmp/prom-$host.out" &&
		ok "$host: queue family with queue and direction" || bad "$host: no queue family"
	if [ "$names" -gt 400 ]; then bad "$host: $names metric names: the families do not group"; fi
	if command -v promtool >/dev/null 2>&1; then
		if promtool check metrics <"$tmp/prom-$host.out" >"$tmp/promtool.out" 2>&1; then
			ok "$host: promtool check metrics"
		else
			bad "$host: promtool: $(head -5 "$tmp/promtool.out")"
		fi
	else
		echo "  note: promtool not installed (Debian package prometheus): exposition not validated"
	fi

	# a snapshot of the sample serves the same counters
	run snap-$host $S snapshot "$tmp/snap-$host"
	expect_rc snap-$host 0
	both snapjson-$host --sysroot "$tmp/snap-$host" -j counters
	a=$(jq -c '[.ports[] | [.netdev, [.counters[] | [.source, .name, .value]]]]' "$tmp/json-$host.out" | cksum)
	b=$(jq -c '[.ports[] | [.netdev, [.counters[] | [.source, .name, .value]]]]' "$tmp/snapjson-$host.out" | cksum)
	[ "$a" = "$b" ] && ok "$host: snapshot round trip" || bad "$host: counters from the snapshot differ"
done

# An uncatalogued counter: shown and marked, never dropped; its width is
# unknown, so null (not 64: the registry's rule), as the catalogued ones
# say theirs.
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/host"
chmod -R u+w "$tmp/host"
hw=$(find "$tmp/host/sys/devices" -path '*infiniband/mlx5_0/ports/1/hw_counters' -type d)
echo 77 >"$hw/np_made_up_counter"
both uncat --sysroot "$tmp/host" -j counters -d mlx5_0
jq_is uncat '[.ports[0].counters[] | select(.name == "np_made_up_counter") | [.catalogued, .group, .value, .description, .width]]' \
	'[[false,"uncatalogued",77,"(uncatalogued)",null]]'
jq_is uncat '[.ports[0].counters[] | select(.name == "out_of_sequence" or .name == "np_cnp_sent") | [.name, .width]] | sort' '[["np_cnp_sent",64],["out_of_sequence",32]]'
run uncatp --sysroot "$tmp/host" counters -d mlx5_0 --format prometheus
grep -q '^mlxcli_uncatalogued{.*source="hw_counters",name="np_made_up_counter"} 77$' "$tmp/uncatp.out" &&
	ok "uncatalogued counter in Prometheus output" || bad "uncatalogued counter missing from Prometheus output"

# A driver that names two statistics alike (the capture's STRSET reply
# edited: its "tx_bytes" renamed "rx_bytes"): text shows both rows as
# named, the compact document keys the second "rx_bytes#2" (a JSON object
# cannot hold one key twice), the catalogue has both keys, --describe both
# objects named rx_bytes.
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/dup"
chmod -R u+w "$tmp/dup"
python3 - "$tmp/dup/netlink/ethtool/enp94s0f0np0/strset-stats.nl" <<'PY'
import struct, sys
p = sys.argv[1]
b = open(p, 'rb').read()
old = struct.pack('<HH', 4 + 9, 2) + b'tx_bytes\0'
assert b.count(old) == 1, 'one tx_bytes in the reply'
open(p, 'wb').write(b.replace(old, struct.pack('<HH', 4 + 9, 2) + b'rx_bytes\0'))
PY
both dupj --sysroot "$tmp/dup" -j counters -d enp94s0f0np0 --filter '^rx_bytes(#2)?$' --group driver
jq_is dupj-c '.ports[0].counters.ethtool | keys' '["rx_bytes","rx_bytes#2"]'
jq_is dupj-c '.catalogue.ethtool | keys' '["rx_bytes","rx_bytes#2"]'
jq_is dupj '[.ports[0].counters[] | .name]' '["rx_bytes","rx_bytes"]'
run duptxt --sysroot "$tmp/dup" counters -d enp94s0f0np0 --filter '^rx_bytes$' --group driver
[ "$(grep -c '^rx_bytes ' "$tmp/duptxt.out")" -eq 2 ] && ok "text: both rx_bytes rows" ||
	bad "text of a repeated name: $(cat "$tmp/duptxt.out")"

# watch: a counter that goes backwards was reset (driver reload), not
# wrapped: JSON reset true with delta and rates null, text "reset"; only a
# 32-bit counter (out_of_sequence, an mlx5 q counter) wraps, and only
# when the wrap is plausible (issue 15: 12 -> 5 showed 10.7 G packets/s).
# The hw_counters files of a copy of the sample are edited between two
# samples: after the start record (JSON) or the first screen (text).
# wait_for FILE PATTERN: until FILE has a line matching PATTERN (30 s)
wait_for() {
	n=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		n=$((n + 1))
		[ $n -gt 300 ] && return 1
		sleep 0.1
	done
}
printf '12\n' >"$hw/out_of_sequence"
printf '4294967290\n' >"$hw/duplicate_request"
printf '402\n' >"$hw/np_cnp_sent"
printf '100\n' >"$hw/rp_cnp_handled"
"$MLXCLI" --sysroot "$tmp/host" -j counters watch -d mlx5_0 --interval 2 --count 1 \
	--filter '^(out_of_sequence|duplicate_request|np_cnp_sent|rp_cnp_handled)$' \
	>"$tmp/wreset.out" 2>"$tmp/wreset.err" &
wpid=$!
if wait_for "$tmp/wreset.out" '"record":"start"'; then
	printf '5\n' >"$hw/out_of_sequence"        # 32 bits, 12 -> 5: reset
	printf '6\n' >"$hw/duplicate_request"      # 32 bits, near 2^32 -> 6: wrap of 12
	printf '3\n' >"$hw/np_cnp_sent"            # 64 bits, backwards: reset
	printf '150\n' >"$hw/rp_cnp_handled"       # forwards: delta 50
fi
wait $wpid
rc=$?
expect_rc wreset 0
jq_is wreset 'select(.record == "sample") | [.ports[0].counters[] | [.name, .delta, (.rate_per_second == null), (.bits_per_second == null), .reset]] | sort' \
	'[["duplicate_request",12,false,true,false],["np_cnp_sent",null,true,true,true],["out_of_sequence",null,true,true,true],["rp_cnp_handled",50,false,true,false]]'
jq_is wreset 'select(.record == "sample") | [.ports[0].counters[] | select(.reset == false) | .rate_per_second > 0] | unique' '[true]'
jq_is wreset 'select(.record == "sample") | [.ports[0].counters[] | select(.name == "out_of_sequence") | .value]' '[5]'
printf '12\n' >"$hw/out_of_sequence"
"$MLXCLI" --sysroot "$tmp/host" counters watch -d mlx5_0 --interval 2 --count 2 \
	--filter '^out_of_sequence$' >"$tmp/wresettxt.out" 2>"$tmp/wresettxt.err" &
wpid=$!
wait_for "$tmp/wresettxt.out" '^sample 1 ' && printf '5\n' >"$hw/out_of_sequence"
wait $wpid
rc=$?
expect_rc wresettxt 0
sed -n '/^sample 2 /,$p' "$tmp/wresettxt.out" >"$tmp/wresettxt.2"
if grep -q '^out_of_sequence  *hw_counters  *reset  *-  ' "$tmp/wresettxt.2" && ! grep -q 'G/s' "$tmp/wresettxt.2"; then
	ok "text watch says reset for a counter that went backwards"
else
	bad "text watch after a reset: $(cat "$tmp/wresettxt.2")"
fi

# watch -j ends its stream with the end record on SIGTERM (systemd's stop)
# as on SIGINT (^C), with the same exit status (0, mlxcli-counters(8)).
for sig in INT TERM; do
	"$MLXCLI" --sample -j counters watch -d enp94s0f0np0 --interval 0.2 \
		>"$tmp/wsig$sig.out" 2>"$tmp/wsig$sig.err" &
	wpid=$!
	if wait_for "$tmp/wsig$sig.out" '"record":"start"'; then
		kill -"$sig" $wpid
	else
		bad "SIG$sig: no start record"
		kill $wpid
	fi
	wait $wpid
	rc=$?
	expect_rc wsig$sig 0
	got=$(tail -1 "$tmp/wsig$sig.out" | jq -c '[.record, .interrupted]')
	[ "$got" = '["end",true]' ] && ok "SIG$sig: the stream ends with the end record" ||
		bad "SIG$sig: last line is '$(tail -1 "$tmp/wsig$sig.out")'"
	[ -s "$tmp/wsig$sig.err" ] && bad "SIG$sig: stderr: $(cat "$tmp/wsig$sig.err")"
done

# bad usage
for args in "counters bogus" "counters --group nosuch" "counters --interval 1" \
	    "-j counters --format prometheus" "counters cc --format prometheus" \
	    "counters watch --interval 0" "counters watch --count x" "counters --filter (" \
	    "counters --describe --catalogue" "counters --describe --format prometheus" \
	    "counters watch --describe" "counters prio --catalogue"; do
	# shellcheck disable=SC2086
	run badusage --sample $args
	if [ "$rc" -eq 2 ] && [ ! -s "$tmp/badusage.out" ]; then ok "'$args' exits 2"; else bad "'$args' exits $rc"; fi
done
# --any-netdev without -d: every interface of the system, ConnectX ports
# with their RDMA sources, the others (the sample's Intel eno1) bare.
both anyall --sample -j counters --any-netdev
jq_is anyall '[.ports[] | select(.netdev == "enp94s0f0np0" or .netdev == "eno1") | [.netdev, (.rdma_device != null)]]' \
	'[["eno1",false],["enp94s0f0np0",true]]'
jq_is anyall '[.ports[] | select(.netdev == "eno1") | .counters[] | select(.name == "rx_packets" and .source == "netdev")] | length' '1'
# Issue 18: the physical layer as group phy.  Per port of each sample host,
# the module readings equal `module -j`'s (same keys, same integer units)
# and the FEC counters `link -j`'s, total and per lane; the empty cage of
# cx5-ofed's second port and its missing FEC statistics are null, never 0;
# --group phy selects only them and another group none of them; watch
# shows the module readings as values (gauges table), the FEC counters as
# rates.
for host in cx5-ofed cx6dx-upstream; do
	run phymod --sample="$host" -j module
	run phylink --sample="$host" -j link
	for nd in $(jq -r '.modules[].netdev' "$tmp/phymod.out"); do
		both phyc --sample="$host" -j counters -d "$nd" --group phy
		want=$(jq -c --arg nd "$nd" '.modules[] | select(.netdev == $nd) |
			[.temperature.value, .voltage.value, [.channels[]? | .bias.value, .tx_power.value, .rx_power.value]]' "$tmp/phymod.out")
		got=$(jq -c '.ports[0].counters | [(.[] | select(.name == "temperature") | .value),
			(.[] | select(.name == "voltage") | .value),
			[.[] | select(.name == "bias" or .name == "tx_power" or .name == "rx_power") | .value]]' "$tmp/phyc.out")
		if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "$host $nd: counters phy = module -j ($got)"
		else bad "$host $nd: counters phy module readings $got, module -j $want"; fi
		want=$(jq -c --arg nd "$nd" '[.. | objects | select(.netdev? == $nd and has("fec")) | .fec |
			.corrected_blocks, .uncorrectable_blocks, [.per_lane[]? | .corrected_blocks, .uncorrectable_blocks]]' "$tmp/phylink.out")
		got=$(jq -c '.ports[0].counters | [(.[] | select(.name == "corrected_blocks" and .labels.lane_number == null) | .value),
			(.[] | select(.name == "uncorrectable_blocks" and .labels.lane_number == null) | .value),
			[.[] | select((.name == "corrected_blocks" or .name == "uncorrectable_blocks") and .labels.lane_number != null) | .value]]' "$tmp/phyc.out")
		if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "$host $nd: counters phy = link -j FEC ($got)"
		else bad "$host $nd: counters phy FEC $got, link -j $want"; fi
		jq_is phyc '[.ports[0].counters[] | .group] | unique' '["phy"]'
	done
done
both phyempty --sample=cx5-ofed -j counters -d enp94s0f1np1
jq_is phyempty '[.ports[0].counters[] | select(.group == "phy") | [.name, .value]]' \
	'[["temperature",null],["voltage",null],["corrected_blocks",null],["uncorrectable_blocks",null]]'
run phyemptyt --sample=cx5-ofed counters -d enp94s0f1np1 --group phy
if grep -q '^temperature  *-  *millidegrees C  *phy  *module' "$tmp/phyemptyt.out"; then ok "empty cage: text '-'"
else bad "empty cage text: $(cat "$tmp/phyemptyt.out")"; fi
both phyport --sample -j counters --group port
jq_is phyport '[.ports[].counters[] | select(.group == "phy")] | length' '0'
both phydef --sample=cx6dx-upstream -j counters -d enp59s0f1np1
jq_is phydef '[.ports[0].counters[] | select(.group == "phy" and .name == "uncorrectable_blocks" and .labels.lane_number == null) | .value, .unit]' '[12,"events"]'
run phywatch --sample=cx6dx-upstream -j counters watch -d enp59s0f0np0 --group phy --all --count 1 --interval 0.2
jq_is phywatch 'select(.record == "sample") | .ports[0] | [(.gauges[] | select(.name == "temperature") | .value), ([.counters[] | select(.name == "corrected_blocks") | .delta] | length)]' '[49742,5]'
run nodev --sample counters -d nosuch0
expect_rc nodev 3

exit $fail
