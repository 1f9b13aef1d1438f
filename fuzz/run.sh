#!/usr/bin/env bash
# Runs one fuzz target with the campaign's limits, one job on one core:
#   fuzz/run.sh TARGET [SECONDS]   (default 600)
# Output goes to fuzz/logs/TARGET-<date>.log; crashes to fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-600}
case $target in
  regex) dict=dict/regex.dict; max_len=160 ;;
  structured) dict=""; max_len=4096 ;;
  *) dict=dict/json-schema.dict; max_len=4096 ;;
esac
mkdir -p logs "corpus/$target" "artifacts/$target"
log="logs/$target-$(date +%Y%m%d-%H%M%S).log"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-fuzz}
cargo fuzz build -s none -a "$target"
(cd logs && exec cargo fuzz run --fuzz-dir .. -s none -a "$target" "../corpus/$target" -- \
  -max_total_time="$seconds" -timeout=2 -rss_limit_mb=1024 -jobs=1 -workers=1 \
  -max_len="$max_len" ${dict:+-dict="../$dict"} -print_final_stats=1 \
  -artifact_prefix="../artifacts/$target/") > "$log" 2>&1 || true
cat logs/fuzz-0.log >> "$log" 2>/dev/null && rm -f logs/fuzz-0.log
echo "$log"
grep -E "stat::number_of_executed_units|Done [0-9]+ runs|SUMMARY|panicked|ERROR" "$log" | tail -5
