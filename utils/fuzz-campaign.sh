#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Mutation campaigns for the libFuzzer targets, run by hand, outside CI (CI
# only replays the corpora and regression inputs, each once: a libFuzzer
# mutation path differs from machine to machine). docs/how-it-works.md,
# "Fuzzing", says what each target checks.
#
#   utils/fuzz-campaign.sh FUZZER [SEEDS] [RUNS]
#
#   FUZZER  spec, plan, dwarf, record, tracepage or metadata
#           (bpfprobe-FUZZER-fuzzer)
#   SEEDS   how many campaigns, with -seed=1..SEEDS (default 10)
#   RUNS    mutations per seed (default 10000)
#
# Each seed starts from a fresh copy of the fuzzer's corpus and its
# regression inputs (test/fuzz/regress-FUZZER, where there is one). Crashes, timeouts, leaks and OOMs are collected
# in OUT/seed-N/ with that seed's log; OUT/summary lists them. Exit status:
# 0 nothing found, 1 something found, 2 usage or setup error.
#
# BUILD_DIR  the build (default build; configured with -DBPFPROBE_FUZZERS=ON)
# OUT        where findings go (default fuzz-campaign-FUZZER-YYYYmmdd-HHMMSS)
# JOBS       seeds run at once (default 1; the machine's cores are shared)
#
# A finding becomes a regression input: minimize it
# (bpfprobe-FUZZER-fuzzer -minimize_crash=1 -runs=10000 FILE), fix the code,
# add the file to test/fuzz/regress-FUZZER/ (create it and list it in the
# fuzzer's test/*/FUZZER-fuzz.test) and raise the count that test checks.
set -euo pipefail

usage() {
  echo "usage:" >&2
  sed -n '/^#   utils/,/^#   RUNS/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

top=$(cd "$(dirname "$0")/.." && pwd)
fuzzer=${1:-}
seeds=${2:-10}
runs=${3:-10000}
build=${BUILD_DIR:-$top/build}
jobs=${JOBS:-1}

case "$fuzzer" in
spec)     corpus=(test/fuzz/corpus-spec); max_len=256; extra=() ;;
plan)     corpus=(test/fuzz/corpus-plan); max_len=1024; extra=() ;;
dwarf)    corpus=(test/fuzz/corpus-dwarf); max_len=16384; extra=(-timeout=20) ;;
record)   corpus=(test/fuzz/corpus-record); max_len=2048; extra=() ;;
tracepage) corpus=(test/fuzz/corpus-tracepage); max_len=4200; extra=() ;;
metadata) corpus=(test/Inputs/runtime/fuzz-corpus); max_len=4096; extra=() ;;
"")       usage ;;
*)        echo "fuzz-campaign.sh: unknown fuzzer '$fuzzer', expected spec, plan, dwarf, record, tracepage or metadata" >&2
          exit 2 ;;
esac
# Inputs that once crashed it are seeds too.
if [ -d "$top/test/fuzz/regress-$fuzzer" ]; then
  corpus+=("test/fuzz/regress-$fuzzer")
fi
for n in "$seeds" "$runs" "$jobs"; do
  if ! [[ "$n" =~ ^[1-9][0-9]{0,8}$ ]]; then
    echo "fuzz-campaign.sh: expected a positive number for SEEDS, RUNS and JOBS, found '$n'" >&2
    exit 2
  fi
done
bin=$build/bin/bpfprobe-$fuzzer-fuzzer
if [ ! -x "$bin" ]; then
  echo "fuzz-campaign.sh: $bin is not built (configure with -DBPFPROBE_FUZZERS=ON" \
    "and run ninja -C $build bpfprobe-$fuzzer-fuzzer, or set BUILD_DIR)" >&2
  exit 2
fi
out=${OUT:-$PWD/fuzz-campaign-$fuzzer-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# One seed: a private copy of the corpus (libFuzzer adds what it finds to the
# first directory), artifacts and log in OUT/seed-N.
campaign() {
  local seed=$1 dir=$out/seed-$1
  mkdir -p "$dir/corpus"
  for d in "${corpus[@]}"; do
    cp "$top/$d"/* "$dir/corpus/"
  done
  local status=0
  "$bin" -seed="$seed" -runs="$runs" -max_len="$max_len" "${extra[@]}" \
    -artifact_prefix="$dir/" "$dir/corpus" > "$dir/fuzz.log" 2>&1 || status=$?
  rm -rf "$dir/corpus"
  echo "$status" > "$dir/exit"
  echo "seed $seed: exit $status, $(tail -n 1 "$dir/fuzz.log")"
}

echo "fuzz-campaign.sh: $bin, $seeds seed(s) x $runs runs, max_len $max_len, findings in $out"
start=$(date +%s)
running=0
for seed in $(seq 1 "$seeds"); do
  campaign "$seed" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

found=$(find "$out" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' \
  -o -name 'oom-*' \) | sort)
# A seed that failed without leaving an input behind is a finding too.
for seed in $(seq 1 "$seeds"); do
  dir=$out/seed-$seed
  if [ "$(cat "$dir/exit")" != 0 ] && ! ls "$dir" | grep -qE '^(crash|timeout|leak|oom)-'; then
    found+="${found:+$'\n'}$dir/fuzz.log (exit $(cat "$dir/exit"), no input saved)"
  fi
done
{
  echo "fuzzer: $fuzzer ($bin)"
  echo "seeds: 1..$seeds, $runs runs each, max_len $max_len, $(( $(date +%s) - start )) s"
  if [ -n "$found" ]; then
    echo "findings:"
    echo "$found"
  else
    echo "findings: none"
  fi
} > "$out/summary"
cat "$out/summary"
[ -z "$found" ]
