#!/bin/bash
# usage: expect-exit.sh CODE command [args...]
# Runs the command (its output passes through) and succeeds only if it exits
# with CODE: the tests check bpfprobe-run's documented exit codes with it.
want=$1
shift
"$@"
got=$?
if [ "$got" != "$want" ]; then
	echo "expect-exit: '$*' exited with $got, expected $want" >&2
	exit 1
fi
exit 0
