#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The test scripts themselves:
#   - one that runs jq or python3 (not in a minimal install) says so with
#     lib.sh's `need TOOL`, so that a machine without the tool skips it
#     (exit 77) instead of failing it with "jq: not found" read as a wrong
#     answer;
#   - every shell test of the cli, kernel, captured and pkg tiers sources
#     tests/cli/lib.sh (the kernel tier: tests/kernel/lib.sh, which brings
#     it), and none defines a helper lib.sh has (ok, bad, check, fresh,
#     tree_sum, run, fault, ...): lib.sh is their only home, so a script
#     cannot call one it never got (sriov-live.sh's eight checks were
#     "check: not found" and passed) nor report in a dialect of its own;
#   - no Makemodule.am of tests/ names a file twice (a test listed by hand
#     in TESTS and again in EXTRA_DIST): one list per tier.
. "$(dirname "$0")/lib.sh"
n=0
for f in "$TOP_SRCDIR"/tests/cli/*.sh; do
	name=$(basename "$f")
	case $name in lib.sh | test-scripts.sh) continue ;; esac
	n=$((n + 1))
	for tool in jq python3; do
		# a command word: at the start, after a pipe, $( or &&
		grep -v '^\s*#' "$f" | grep -q "\(^\|[|(;&]\)\s*$tool\b" || continue
		grep -q "^\s*need\b.*\b$tool\b" "$f" || bad "$name runs $tool without 'need $tool'"
		grep -q '^\. .*lib\.sh' "$f" || bad "$name runs $tool but does not source lib.sh (need)"
	done
done
ok "$n cli test scripts read for need"

# The names lib.sh defines: no script defines them again.
helpers=$(sed -n 's/^\([a-z_][a-z_0-9]*\)() *{.*/\1/p' "$TOP_SRCDIR/tests/cli/lib.sh" \
	"$TOP_SRCDIR/tests/kernel/lib.sh" | sort -u | tr '\n' '|' | sed 's/|$//')
[ -n "$helpers" ] && ok "lib.sh's helpers: $(echo "$helpers" | tr '|' ' ')" || bad "no helper found in lib.sh"
n=0
for f in "$TOP_SRCDIR"/tests/cli/*.sh "$TOP_SRCDIR"/tests/kernel/*.sh \
	 "$TOP_SRCDIR"/tests/captured/*.sh "$TOP_SRCDIR"/tests/pkg/*.sh; do
	rel=${f#"$TOP_SRCDIR"/}
	case $rel in tests/cli/lib.sh | tests/kernel/lib.sh) continue ;; esac
	n=$((n + 1))
	grep -q '^\. "$(dirname "$0")/\(\.\./cli/\)\?lib\.sh"$' "$f" ||
		bad "$rel does not source lib.sh"
	case $rel in
	tests/kernel/*) grep -q '^\. "$(dirname "$0")/lib\.sh"$' "$f" ||
		bad "$rel does not source tests/kernel/lib.sh" ;;
	esac
	grep -n -E "^\s*($helpers)\s*\(\)" "$f" | while IFS=: read -r line def; do
		echo "$rel:$line: defines lib.sh's $(echo "$def" | sed 's/^\s*//; s/(.*//')"
	done >"$tmp/defs"
	[ -s "$tmp/defs" ] && bad "$(cat "$tmp/defs")"
done
ok "$n test scripts: each sources lib.sh, none redefines its helpers"

# One list: no file named twice in a tier's Makemodule.am.
for mk in "$TOP_SRCDIR"/tests/*/Makemodule.am; do
	rel=${mk#"$TOP_SRCDIR"/}
	# the words of TESTS, EXTRA_DIST and *_TESTS, continuation lines too
	awk '/^(TESTS|EXTRA_DIST|[A-Z_]*_TESTS)[ \t]*\+?=/ { sub(/^[^=]*=/, ""); on = 1 }
	     on { line = $0; on = line ~ /\\$/; gsub(/\\/, " ", line); print line }' "$mk" |
		tr ' \t' '\n\n' | grep -v -e '^$' -e '^\$(' | sort | uniq -d >"$tmp/twice"
	[ -s "$tmp/twice" ] && bad "$rel names twice: $(tr '\n' ' ' <"$tmp/twice")" ||
		ok "$rel names each file once"
done
finish
