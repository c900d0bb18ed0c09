#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bad command lines and bad systems: each row gives the command line, the
# exit status (mlxcli(8) EXIT STATUS: 2 bad usage or value, 3 no such
# device) and a fragment of the error on stderr.  Nothing may go to stdout
# on a usage error, and nothing may crash (status >= 128).  Then damaged
# copies of a sample host: a PF whose `config` is truncated to 10 bytes, or
# is 4096 bytes of 0xff (what a function that fell off the bus returns): the
# tool must still answer from sysfs and must not invent a PCIe link from the
# garbage.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq

n=0

# expect RC FRAGMENT ARGS...: mlxcli ARGS exits RC with FRAGMENT on stderr
# and, for exit 2 and 3, nothing on stdout.
expect() {
	want_rc=$1 frag=$2
	shift 2
	n=$((n + 1))
	"$MLXCLI" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ge 128 ]; then
		bad "mlxcli $*: killed by signal $((rc - 128))"
	elif [ "$rc" -ne "$want_rc" ]; then
		bad "mlxcli $*: exit $rc, want $want_rc; stderr: $(cat "$tmp/err")"
	elif ! grep -F -q -e "$frag" "$tmp/err"; then
		bad "mlxcli $*: stderr lacks '$frag': $(cat "$tmp/err")"
	elif [ "$want_rc" -ge 2 ] && [ -s "$tmp/out" ]; then
		bad "mlxcli $*: stdout not empty on exit $rc: $(head -3 "$tmp/out")"
	elif ! head -1 "$tmp/err" | grep -q '^mlxcli: error: '; then
		bad "mlxcli $*: first stderr line is not 'mlxcli: error: ...': $(head -1 "$tmp/err")"
	else
		ok "exit $rc '$frag': mlxcli $*"
	fi
}

echo "== command lines"
expect 2 "unknown command 'devcies'" devcies
expect 2 "did you mean 'devices'?" devcies
expect 2 "did you mean 'ports'?" prots
expect 2 "did you mean 'snapshot'?" snapshto /tmp/x
expect 2 "unknown command 'device' in 'mlxcli show'" show device
expect 2 "did you mean 'devices'?" show device
expect 2 "unknown option '--jsno'" devices --jsno
expect 2 "did you mean '--json'?" devices --jsno
expect 2 "did you mean '--sysroot'?" devices --sysrot /
expect 2 "unknown option '--jsno'" --jsno devices
expect 2 "did you mean '--json'?" --jsno devices
expect 2 "unknown option '-z'" devices -z
expect 2 "unknown option '-z' in '-jz'" -jz devices
expect 2 "no command given"
expect 2 "'mlxcli show' needs a command" show
expect 2 "'mlxcli sample' needs a command" sample
expect 2 "'mlxcli snapshot' needs DIR" snapshot
expect 2 "unexpected argument 'b' for 'mlxcli snapshot'" snapshot a b
expect 2 "unexpected argument 'x' for 'mlxcli devices'" devices x
expect 2 "unexpected argument 'x' for 'mlxcli show ports'" show ports x
expect 2 "unexpected argument 'b' for 'mlxcli sample reset'" sample reset a b
expect 2 "option '-d' needs a device" devices -d
expect 2 "option '--device' needs a device" devices --device
expect 2 "option '--sysroot' needs a directory" devices --sysroot
expect 2 "option '--sysroot' needs a directory" devices --sysroot=
expect 2 "has no JSON output" -j help
expect 2 "has no JSON output" help devices --json
expect 2 "no help for 'nosuch'" help nosuch

echo "== --sysroot"
mkdir -p "$tmp/nopci/sys/bus" "$tmp/emptydir"
: >"$tmp/regular"
expect 2 "cannot use '$tmp/missing' as system root" --sysroot "$tmp/missing" devices
expect 2 "is not a captured system: sys/bus/pci/devices is missing" --sysroot "$tmp/nopci" devices
expect 2 "is not a captured system" --sysroot "$tmp/emptydir" ports
expect 2 "Not a directory" --sysroot "$tmp/regular" devices
expect 2 "--sysroot and --sample both name the system" --sysroot "$tmp/emptydir" --sample devices

echo "== --sample"
expect 2 "no sample host 'nosuch'" --sample=nosuch devices
expect 2 "sample host 'cx5-ofed'" --sample=nosuch devices          # lists the samples
expect 2 "sample host 'cx6dx-upstream'" --sample=nosuch devices
expect 2 "invalid sample name '..'" --sample=.. devices
expect 2 "invalid sample name" --sample=../samples/cx5-ofed devices
expect 2 "no sample host 'nosuch'" sample reset nosuch

echo "== -d"
expect 2 "invalid device name 'eth/0'" --sample -d eth/0 ports
expect 2 "invalid device name '..'" --sample -d .. ports
expect 2 "invalid device name '../enp94s0f0np0'" --sample -d ../enp94s0f0np0 ports
expect 2 "invalid device name" --sample -d "$(printf 'enp\001')" devices
expect 2 "invalid device name" --sample -d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa devices
expect 2 "empty device name" --sample -d "" devices
expect 2 "invalid device '1 2 3 4'" --sample -d "1 2 3 4" devices
expect 2 "unknown command '4'" --sample -d 1 2 3 4 devices     # three words taken, the 4th is left
expect 2 "invalid device '94 0'" --sample -d "94 0" devices
expect 2 "invalid PCI address '300 0 0'" --sample -d 300 0 0 devices
expect 2 "invalid PCI address '0000:5e:00.8'" --sample -d 0000:5e:00.8 devices
expect 2 "invalid PCI address '5e:20.0'" --sample -d 5e:20.0 devices
expect 2 "invalid PCI address '5e:00.'" --sample -d 5e:00. devices
expect 2 "invalid PCI address" --sample -d 10000:5e:00.0 devices
expect 2 "mlxcli: error: " --sysroot "$tmp/missing" -d ../x devices  # both are bad: exit 2
expect 2 "-d is not taken" --sample -d 5e:00.0 snapshot "$tmp/snap"
expect 3 "no ConnectX device '5e:00.7'" --sample -d 5e:00.7 devices
expect 3 "no ConnectX device 'eno1'" --sample -d eno1 ports
expect 3 "no ConnectX device 'lo'" --sample -d lo devices
expect 3 "no ConnectX device 'mlx5_9'" --sample -d mlx5_9 ports
expect 3 "no ConnectX device '0001:5e:00.0'" --sample -d 0001:5e:00.0 devices
expect 3 "'mlxcli devices' lists the ConnectX functions" --sample -d 3b:00.0 devices
[ -e "$tmp/snap" ] && bad "a refused snapshot wrote $tmp/snap"

echo "== damaged config space"
# damaged HOW: a copy of cx5-ofed whose PF0 config is damaged
damaged() {
	rm -rf "$tmp/host"
	cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/host" || exit 1
	cfg=$tmp/host/sys/bus/pci/devices/0000:5e:00.0/config
	case $1 in
	truncated) head -c 10 "$MLXCLI_SAMPLES_DIR/cx5-ofed/sys/bus/pci/devices/0000:5e:00.0/config" >"$cfg.new" ;;
	ff) head -c 4096 /dev/zero | tr '\000' '\377' >"$cfg.new" ;;
	empty) : >"$cfg.new" ;;
	esac
	mv "$cfg.new" "$cfg"
}
for how in truncated ff empty; do
	damaged $how
	"$MLXCLI" --sysroot "$tmp/host" -j devices >"$tmp/out" 2>"$tmp/err"
	rc=$?
	pf0=$(jq -c '.devices[0] | {pci_address, vendor_id, device_id, product, pcie, config_space_bytes}' "$tmp/out" 2>&1)
	echo "  $how config: exit $rc; PF0 shows $pf0"
	[ -s "$tmp/err" ] && echo "  stderr: $(cat "$tmp/err")"
	if [ "$rc" -ge 128 ]; then
		bad "$how config: crashed (signal $((rc - 128)))"
		continue
	fi
	[ "$rc" -eq 0 ] || bad "$how config: exit $rc"
	# identity comes from the sysfs files, which are intact
	[ "$(jq -r '.devices | length' "$tmp/out")" = 6 ] || bad "$how config: not 6 functions"
	[ "$(jq -r '.devices[0].device_id' "$tmp/out")" = 0x1017 ] || bad "$how config: device_id"
	[ "$(jq -r '.devices[0].product' "$tmp/out")" = ConnectX-5 ] || bad "$how config: product"
	# no PCIe link decoded from garbage: the link is the kernel's (sysfs) view
	[ "$(jq -r '.devices[0].pcie.source' "$tmp/out")" = sysfs ] ||
		bad "$how config: pcie.source is not sysfs"
	[ "$(jq -c '.devices[0].pcie.status' "$tmp/out")" = '{"speed":"8GT/s","width":16}' ] ||
		bad "$how config: pcie.status not the sysfs 8GT/s x16"
	[ "$(jq -r '.devices[0].pcie.degraded' "$tmp/out")" = false ] || bad "$how config: degraded"
	# the other PF is untouched
	[ "$(jq -r '.devices[1].pcie.source' "$tmp/out")" = config ] || bad "$how config: PF1 changed"
	# text and ports work too
	"$MLXCLI" --sysroot "$tmp/host" devices >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && grep -q '^0000:5e:00\.0 .* 8GT/s x16$' "$tmp/out" ||
		bad "$how config: text devices exit $rc: $(head -2 "$tmp/out")"
	"$MLXCLI" --sysroot "$tmp/host" -d 5e:00.0 ports >/dev/null 2>&1 || bad "$how config: ports failed"
	"$MLXCLI" --sysroot "$tmp/host" snapshot "$tmp/host-snap" >/dev/null 2>&1 ||
		bad "$how config: snapshot failed"
	rm -rf "$tmp/host-snap"
done

echo "$n command lines checked"
finish
