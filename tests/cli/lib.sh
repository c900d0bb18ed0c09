# SPDX-License-Identifier: GPL-2.0-or-later
# What the cli test scripts share; each sources it first:
#
#     . "$(dirname "$0")/lib.sh"
#
# It checks that MLXCLI names the binary under test, finds the sample
# hosts (MLXCLI_SAMPLES_DIR, else the source tree's), gives the test a
# private state directory (MLXCLI_STATE_DIR: sample working copies,
# history) and a scratch directory $tmp, both removed on exit, and defines
#
#     need TOOL...         exit 77 (skip) unless every TOOL is installed
#     ok TEXT / bad TEXT   report a check; bad makes the test fail ($nbad
#                          counts them; BAD_SHOW=N prints the first N only)
#     check WHAT GOT WANT  ok when GOT is WANT, else bad showing both
#     fresh NAME SAMPLE    $tmp/NAME, a writable copy of a sample host
#     tree_sum DIR [TEST...]  one line per regular file (checksum, name)
#                          and per symlink (name -> target) of DIR, sorted:
#                          equal output, equal tree; find TESTs narrow it
#                          (tree_sum "$d" ! -name '*.lock')
#     run NAME ARGS...     mlxcli ARGS: stdout in $tmp/NAME.out, stderr in
#                          $tmp/NAME.err, exit status in $rc
#     finish               print PASS or FAIL and exit 0 or 1
#     wait_until SEC CMD...  run CMD every 0.1 s until it succeeds; fail
#                          (status 1) after SEC seconds times
#                          $TEST_TIME_SCALE (1; a slow machine or valgrind
#                          sets more): a test waits for a condition, never
#                          for a fixed time (issue 30)
#
# and the fault shim's matrix (tests/fault/fault-shim.c: a failure
# injected at the k-th open for writing of a captured system's files):
#
#     fault_usable         0 when the shim is built and MLXCLI runs bare
#                          (no valgrind wrapper); else a "# SKIP" line, 1
#     fault K PATH ARGS... mlxcli ARGS with the K-th open for writing of a
#                          file whose path contains PATH failing with EIO
#                          (K 0: none fails; the opens are counted in
#                          $tmp/count and listed in $tmp/log); stdout in
#                          $tmp/o, stderr in $tmp/e, exit status in $rc;
#                          FCALL=rename fails the K-th rename instead (a
#                          captured file's write is its new file renamed
#                          over it)
#     fault_matrix COPY SAMPLE TOTAL OLD ARGS...
#                          for K = 1..TOTAL on $tmp/COPY (fresh from SAMPLE),
#                          fault K "" ARGS must exit 1 with nothing on
#                          stdout and leave `state -j` of the copy as the
#                          file OLD; one check counts them
#
# and, for the tests that drop privileges (as root, to uid 65534):
#
#     priv_setup [SAMPLE...]  copy the binary under test (and its wrapper,
#                          under check-valgrind) and the named sample hosts
#                          into $PRIV, a private directory every user may
#                          read (mode 755, removed on exit): the checkout
#                          may be where nobody can enter (/root/mlxcli, under
#                          a 0700 home), and nobody must still run them.
#                          Exit 77, saying why, when nobody cannot reach it.
#     as_nobody CMD...     CMD as uid and gid 65534 without groups, with
#                          MLXCLI_SAMPLES_DIR the copies; $NOBODY_MLXCLI
#                          names the copied binary (or wrapper) for CMD;
#                          run under $priv_prefix (ip netns exec NS) if set
#
# A test with more to undo on exit sets on_exit to a command first.

: "${MLXCLI:?MLXCLI must name the binary under test}"
TOP_SRCDIR=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
MLXCLI_SAMPLES_DIR=${MLXCLI_SAMPLES_DIR:-$TOP_SRCDIR/tests/data/samples}
export MLXCLI_SAMPLES_DIR

need() {
	for t in "$@"; do
		if ! command -v "$t" >/dev/null 2>&1; then
			echo "SKIP: $t not installed"
			exit 77
		fi
	done
}

MLXCLI_STATE_DIR=$(mktemp -d) || exit 1
export MLXCLI_STATE_DIR
tmp=$(mktemp -d) || exit 1
on_exit=:
PRIV=
trap 'eval "$on_exit"; priv_cleanup; rm -rf "$MLXCLI_STATE_DIR" "$tmp"' EXIT
# a signal ends the test (the EXIT trap cleans up), with the shell's status
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
fail=0

priv_setup() {
	PRIV=$(mktemp -d) || exit 1
	chmod 755 "$PRIV"
	real=${MLXCLI_REAL:-$MLXCLI}
	cp "$real" "$PRIV/mlxcli" || exit 1
	NOBODY_MLXCLI=$PRIV/mlxcli
	if [ "$MLXCLI" != "$real" ]; then
		# a wrapper (tests/valgrind-wrap.sh) that runs $MLXCLI_REAL;
		# its logs go to a directory nobody can write, copied back on exit
		cp "$MLXCLI" "$PRIV/wrapper" || exit 1
		NOBODY_MLXCLI=$PRIV/wrapper
		mkdir -m 1777 "$PRIV/logs"
	fi
	mkdir "$PRIV/samples"
	for s in "$@"; do
		cp -a "$MLXCLI_SAMPLES_DIR/$s" "$PRIV/samples/" || exit 1
	done
	# a checkout made under umask 077 has files only their owner reads
	chmod -R a+rX "$PRIV"
	if ! as_nobody test -x "$NOBODY_MLXCLI" -a -r "$NOBODY_MLXCLI"; then
		echo "SKIP: uid 65534 cannot run $NOBODY_MLXCLI (is TMPDIR=${TMPDIR:-/tmp} private?)"
		exit 77
	fi
}

priv_prefix=
as_nobody() {
	# shellcheck disable=SC2086
	$priv_prefix setpriv --reuid=65534 --regid=65534 --clear-groups env MLXCLI_SAMPLES_DIR="$PRIV/samples" \
		MLXCLI_REAL="$PRIV/mlxcli" VALGRIND_LOGDIR="$PRIV/logs" "$@"
}

priv_cleanup() {
	[ -n "$PRIV" ] || return 0
	if [ -n "${VALGRIND_LOGDIR:-}" ] && [ -d "$PRIV/logs" ]; then
		mkdir -p "$VALGRIND_LOGDIR" && find "$PRIV/logs" -type f -exec cp {} "$VALGRIND_LOGDIR/" \;
	fi
	rm -rf "$PRIV"
}

nbad=0
bad() {
	nbad=$((nbad + 1))
	[ -n "${BAD_SHOW:-}" ] && [ "$nbad" -gt "$BAD_SHOW" ] || echo "FAIL: $*"
	fail=1
}

ok() {
	echo "  ok: $*"
}

# check WHAT GOT WANT: ok when GOT is WANT, else a failure showing both
check() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (got '$2', want '$3')"; fi; }

# fresh NAME SAMPLE: $tmp/NAME, a writable copy of a sample host
fresh() { rm -rf "$tmp/$1"; cp -a "$MLXCLI_SAMPLES_DIR/$2" "$tmp/$1"; chmod -R u+w "$tmp/$1"; }

# tree_sum DIR [TEST...]: every regular file's checksum and every symlink's
# target, by name; extra find(1) TESTs narrow the files looked at
tree_sum() {
	ts_dir=$1
	shift
	(cd "$ts_dir" && find . -type f "$@" -exec md5sum {} + | sort -k2 &&
		find . -type l "$@" -printf '%p -> %l\n' | sort)
}

fault_usable() {
	SHIM=${TOP_BUILDDIR:-.}/tests/fault/fault-shim.so
	if [ -r "$SHIM" ] && [ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ]; then
		return 0
	fi
	echo "# SKIP fault injection: $SHIM not built, or under a wrapper (valgrind)"
	return 1
}

fault() {
	ft_k=$1 ft_path=$2
	shift 2
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	LD_PRELOAD=$SHIM MLXCLI_FAULT_CALL=${FCALL:-wopen} MLXCLI_FAULT_NTH=$ft_k MLXCLI_FAULT_ERRNO=EIO \
		MLXCLI_FAULT_PATH=$ft_path MLXCLI_FAULT_COUNT=$tmp/count MLXCLI_FAULT_LOG=$tmp/log \
		"$MLXCLI" "$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	return $rc
}

fault_matrix() {
	fm_copy=$1 fm_sample=$2 fm_total=$3 fm_old=$4
	shift 4
	fm_k=1 fm_held=0
	fresh "$fm_copy" "$fm_sample"
	while [ "$fm_k" -le "$fm_total" ]; do
		fault "$fm_k" "" "$@"
		# a copy whose state held is the pristine one for the next k
		if [ "$rc" = 1 ] && [ ! -s "$tmp/o" ] &&
		   "$MLXCLI" --sysroot "$tmp/$fm_copy" -j state | cmp -s - "$fm_old"; then
			fm_held=$((fm_held + 1))
		else
			bad "failure at write $fm_k of $fm_total: exit $rc, or the state changed: $(tail -2 "$tmp/e")"
			fresh "$fm_copy" "$fm_sample"
		fi
		fm_k=$((fm_k + 1))
	done
	check "a failure at each of the $fm_total writes: exit 1, state -j as before" "$fm_held" "$fm_total"
}

run() {
	name=$1
	shift
	"$MLXCLI" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
}

wait_until() {
	_wu_end=$(( $(date +%s) + $1 * ${TEST_TIME_SCALE:-1} ))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_wu_end" ] || return 1
		sleep 0.1
	done
}

finish() {
	if [ "$fail" -ne 0 ]; then
		echo "FAIL"
		exit 1
	fi
	echo "PASS"
	exit 0
}
