#!/usr/bin/env bash
# Reruns roadtune's reproduction of the papers' experiments (docs/experiments.md)
# with `tune` and `arena` only.
#
#   configs/experiments/run.sh            all experiments, then collect
#   configs/experiments/run.sh e1 e4      some of them (e1..e10, e14..e18), then collect
#
# Outputs go to $OUT (default runs/experiments); `collect` copies the small
# results (reports, summaries, plots, tuned weight files) to docs/experiments.
# Finished steps are skipped and interrupted tune runs are resumed, so the
# script can be stopped and started again.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-runs/experiments}
DOCS=${DOCS:-docs/experiments}
W=configs/weights
mkdir -p "$OUT/bin"
go build -o "$OUT/bin/tune" ./cmd/tune
go build -o "$OUT/bin/arena" ./cmd/arena
tune() { "$OUT/bin/tune" "$@"; }
# The experiments below were measured on the generated 3-stone suite,
# arena's default before 2026-11-27; -openings generated keeps them so.
arena() { "$OUT/bin/arena" -openings generated "$@"; }
log() { echo "[$(date -u +%H:%M:%S)] $*"; }

# run_tune NAME CONFIG [FLAG...]: a tune run in $OUT/NAME (the flags
# override the config); resumed if interrupted.
run_tune() {
  local name=$1 cfg=$2 dir=$OUT/$1 start
  shift 2
  if [ -f "$dir/checkpoint.json" ] && grep -q '"phase": "done"' "$dir/checkpoint.json"; then
    log "$name: done already"; return
  fi
  start=$(date +%s)
  if [ -f "$dir/checkpoint.json" ]; then tune -resume "$dir" -quiet; else tune -config "$cfg" "$@" -out "$dir" -quiet; fi
  log "$name: tune took $(( $(date +%s) - start )) s"
}

# export_step RUN K: the best of generation/iteration K of a run, as RUN-gK.json.
export_step() {
  local f=$OUT/$1-g$2.json
  [ -f "$f" ] || tune export "$OUT/$1" -step "$2" -o "$f" >/dev/null
  echo "$f"
}

# run_arena NAME ARGS...: an arena match or round robin into $OUT/NAME.
run_arena() {
  local name=$1 start; shift
  if [ -f "$OUT/$name/summary.json" ]; then log "$name: done already"; return; fi
  rm -rf "${OUT:?}/$name"   # a match interrupted midway is replayed whole
  start=$(date +%s)
  arena -out "$OUT/$name" "$@" > "$OUT/$name.txt" 2>/dev/null
  log "$name: arena took $(( $(date +%s) - start )) s"
  cat "$OUT/$name.txt"
}

# Steps (generations, iterations) are numbered from 0: "generation 15" of the
# thesis is index 14, its PSO iteration 15 (the last) index 14,
# "generation 30" index 29.
e1() {
  run_tune e1-ga configs/experiments/chen2010-ga.toml
  run_arena e1-g15-vs-zhou2015 -pairs 300 -depth 3 -width 10 "$(export_step e1-ga 14)" $W/zhou2015.json
  run_arena e1-g30-vs-zhou2015 -pairs 300 -depth 3 -width 10 "$(export_step e1-ga 29)" $W/zhou2015.json
}

e2() {
  run_tune e2-ga-original configs/experiments/chen2010-ga-original.toml
  tune compare -o "$OUT/e2-diversity" "$OUT/e1-ga" "$OUT/e2-ga-original"
  tune compare -o "$OUT/e2-gene-std" -metric gene-std "$OUT/e1-ga" "$OUT/e2-ga-original"
}

e3() {
  run_tune e3-pso-chen configs/experiments/chen2010-pso.toml
  run_tune e3-pso-bounded configs/experiments/pso-bounded.toml
  run_tune e3c-pso-wide configs/experiments/pso-wide.toml
  local ga30 chen bounded wide
  ga30=$(export_step e1-ga 29)
  chen=$(export_step e3-pso-chen 14)
  bounded=$(export_step e3-pso-bounded 14)
  run_arena e3-pso-chen-vs-zhou2015 -pairs 300 -depth 3 -width 10 "$chen" $W/zhou2015.json
  run_arena e3-pso-chen-vs-ga30 -pairs 300 -depth 3 -width 10 "$chen" "$ga30"
  run_arena e3-pso-bounded-vs-zhou2015 -pairs 300 -depth 3 -width 10 "$bounded" $W/zhou2015.json
  run_arena e3-pso-bounded-vs-ga30 -pairs 300 -depth 3 -width 10 "$bounded" "$ga30"
  wide=$(export_step e3c-pso-wide 14)
  run_arena e3c-pso-wide-vs-zhou2015 -pairs 300 -depth 3 -width 10 "$wide" $W/zhou2015.json
}

# Qi 2018 Figs 3-13/3-14: 100 games (50 game pairs) each.
e4() {
  local d w
  for dw in 3:20 4:20 4:10 4:30 2:20; do
    d=${dw%:*}; w=${dw#*:}
    run_arena "e4-dual-vs-single-d$d-w$w" -pairs 50 -depth "$d" -width "$w" $W/qi2018-dual.json $W/qi2018-table3-1.json
  done
}

e5() {
  run_arena e5-round-robin -pairs 30 -depth 3 -width 10 \
    "$(export_step e1-ga 29)" "$(export_step e1-ga 14)" "$(export_step e3-pso-chen 14)" "$(export_step e3-pso-bounded 14)" \
    $W/zhou2015.json $W/qi2018-table3-1.json
  run_tune e5-symmetric-d2 configs/experiments/symmetric-d2.toml
  run_tune e5-dual-d2 configs/experiments/dual-d2.toml
  run_arena e5-dual-vs-symmetric-d2 -pairs 200 -depth 2 -width 10 "$(export_step e5-dual-d2 29)" "$(export_step e5-symmetric-d2 29)"
  run_arena e5-dual-vs-symmetric-d3 -pairs 100 -depth 3 -width 10 "$(export_step e5-dual-d2 29)" "$(export_step e5-symmetric-d2 29)"
}

# Beyond the papers: Chen's GA with 4 game pairs per pairing (less noisy
# fitness), same seed and initial population as e1.
e6() {
  run_tune e6-ga-4pairs configs/experiments/chen2010-ga-4pairs.toml
  run_arena e6-g15-vs-zhou2015 -pairs 300 -depth 3 -width 10 "$(export_step e6-ga-4pairs 14)" $W/zhou2015.json
  run_arena e6-g30-vs-zhou2015 -pairs 300 -depth 3 -width 10 "$(export_step e6-ga-4pairs 29)" $W/zhou2015.json
  tune compare -o "$OUT/e6-gene-S4" -metric gene:S4 "$OUT/e1-ga" "$OUT/e6-ga-4pairs"
}

# Chen 2010's published vectors (configs/weights/chen2010-*.json) replayed in
# roadtune's engine against zhou2015 at depths 3 and 4: does roadtune's
# engine or roadtune's tuner explain the gap to the thesis?
e7() {
  local v d
  for v in chen2010-ga15 chen2010-ga30 chen2010-pso15; do
    for d in 3 4; do
      run_arena "e7-$v-vs-zhou2015-d$d" -pairs 300 -depth "$d" -width 10 $W/$v.json $W/zhou2015.json
    done
  done
}

# run_sweep NAME CONFIG STEPS: the config with a budget of STEPS over seeds
# 1, 2, 3 in $OUT/NAME/seed-N, with NAME/compare.md (tune continues a
# stopped sweep itself).
run_sweep() {
  local name=$1 cfg=$2 steps=$3 start
  start=$(date +%s)
  tune -config "$cfg" -steps "$steps" -seeds 1,2,3 -out "$OUT/$name" -quiet > "$OUT/$name.txt"
  log "$name: sweep took $(( $(date +%s) - start )) s"
}

# Methods compared (issue 11): GA, PSO, SPSA and Texel from random starts,
# tuned at depth 2 over the balanced suite, each at two budgets (about 6,000
# and 20,000 games), three seeds each, every best vector against zhou2015 at
# depths 3 and 4 (300 pairs); e8-methods.md puts all 24 runs side by side.
e8() {
  local spec m steps
  for spec in texel:6 texel:20 ga:9 ga:30 pso:30 pso:100 spsa:750 spsa:2500; do
    m=${spec%:*}; steps=${spec#*:}
    run_sweep "e8-$m-$steps" "configs/experiments/m-$m.toml" "$steps"
  done
  tune compare -o "$OUT/e8-methods" -metric gene:S4 "$OUT"/e8-*/seed-* > /dev/null
}

# The README's main job (the embedded configs/default.toml) over seeds 1, 2, 3,
# with the symmetric schema it tuned until experiment 16.
e9() {
  local start
  start=$(date +%s)
  tune -schema symmetric -seeds 1,2,3 -out "$OUT/e9-default" -quiet > "$OUT/e9-default.txt"
  log "e9-default: sweep took $(( $(date +%s) - start )) s"
}

# SPSA refining the main job's vectors of e9 (configs/refine-spsa.toml with
# -start), each against zhou2015, chen2010-pso15 and its start.
e10() {
  local s
  for s in 1 2 3; do
    run_tune "e10-refine-seed-$s" configs/experiments/refine-spsa-symmetric.toml -start "$OUT/e9-default/seed-$s" -seed "$s"
  done
  tune compare -o "$OUT/e10-refine" -metric gene:S4 "$OUT"/e10-refine-seed-* > /dev/null
}

# The overnight chain as it was until experiment 16
# (experiments/overnight-symmetric.toml: Texel, then SPSA at depth 3),
# symmetric and asymmetric schema, seed 1; a chain is continued with -resume.
e14() {
  local name cfg start
  for name in e14-overnight e14-overnight-asymmetric; do
    cfg=configs/experiments/overnight-symmetric.toml
    [ "$name" = e14-overnight ] || cfg=configs/experiments/overnight-asymmetric.toml
    start=$(date +%s)
    if [ -f "$OUT/$name/chain.json" ]; then tune -resume "$OUT/$name" -quiet; else tune -config "$cfg" -out "$OUT/$name" -quiet; fi
    log "$name: chain took $(( $(date +%s) - start )) s"
  done
}

# e15: SPSA against a pool of opponents, from experiment 14's vectors.
e15() {
  run_tune e15-pool configs/experiments/pool-overnight.toml
  run_tune e15-asymmetric configs/experiments/pool-asymmetric.toml
}

# e16: the tempo schema: the main job (now tempo) over seeds 1-3, the
# refine-spsa preset on its vectors, and experiment 14's chain (Texel from
# a random start, then SPSA at depth 3 against experiment 15's pool).
e16() {
  local name=e16-tempo start s
  start=$(date +%s)
  [ -f "$OUT/e16-default-tempo/compare.md" ] || tune -seeds 1,2,3 -out "$OUT/e16-default-tempo" -quiet > "$OUT/e16-default-tempo.txt"
  log "e16-default-tempo: sweep took $(( $(date +%s) - start )) s"
  for s in 1 2 3; do
    run_tune "e16-refine-seed-$s" configs/refine-spsa.toml -start "$OUT/e16-default-tempo/seed-$s" -seed "$s"
  done
  tune compare -o "$OUT/e16-refine" -metric gene:T2 "$OUT"/e16-refine-seed-* > /dev/null
  [ -f "$OUT/e16-texel-4k/compare.md" ] || tune -config configs/experiments/texel-tempo-4k.toml -seeds 1,2,3 -out "$OUT/e16-texel-4k" -quiet > "$OUT/e16-texel-4k.txt"
  start=$(date +%s)
  if [ -f "$OUT/$name/chain.json" ]; then tune -resume "$OUT/$name" -quiet; else tune -config configs/overnight.toml -out "$OUT/$name" -quiet; fi
  log "$name: chain took $(( $(date +%s) - start )) s"
  run_tune e16-tempo-d4 configs/experiments/tempo-d4.toml
}

# e17: refining roadtune-tempo under the engine binary's search
# (engine.settings = "play"; its match against Cloudict is in the docs).
e17() {
  run_tune e17-play configs/experiments/tempo-play.toml
}

# e18: the cross schema refined from roadtune-tempo (its match against
# Cloudict is in the docs).
e18() {
  run_tune e18-cross configs/experiments/cross-refine.toml
}

# collect copies the small results into $DOCS: no game logs or SGFs.
collect() {
  local d name
  mkdir -p "$DOCS"
  for d in "$OUT"/e*/; do
    name=$(basename "$d")
    mkdir -p "$DOCS/$name"
    for f in report.md validation.json ladder.json config.toml best.json summary.json winrate.png chain.json; do
      [ -f "$d/$f" ] && cp "$d/$f" "$DOCS/$name/"
    done
    if [ -d "$d/plots" ]; then mkdir -p "$DOCS/$name/plots"; cp "$d"/plots/*.png "$DOCS/$name/plots/"; fi
    for f in compare.md compare-ladder.png; do [ -f "$d/$f" ] && cp "$d/$f" "$DOCS/$name/"; done
    # sweeps and chains (and a sweep's chains): each run's ladder, best
    # vector, config and report with the plots/ its report shows
    for s in "$d"/seed-*/ "$d"/stage-*/ "$d"/seed-*/stage-*/; do
      [ -d "$s" ] || continue
      local to=$DOCS/$name/${s#"$d"}
      mkdir -p "$to"
      for f in ladder.json best.json config.toml report.md; do [ -f "$s/$f" ] && cp "$s/$f" "$to"; done
      if [ -d "$s/plots" ]; then mkdir -p "$to/plots"; cp "$s"/plots/*.png "$to/plots/"; fi
    done
    [ -f "$OUT/$name.txt" ] && cp "$OUT/$name.txt" "$DOCS/$name/table.txt"
  done
  cp "$OUT"/e2-*.png "$OUT"/e2-*.csv "$OUT"/e6-*.png "$OUT"/e6-*.csv "$DOCS/" 2>/dev/null || true
  cp "$OUT"/e8-methods.md "$OUT"/e8-methods-ladder.png "$OUT"/e10-refine.md "$OUT"/e10-refine-ladder.png "$DOCS/" 2>/dev/null || true
  cp "$OUT"/e*-g*.json "$DOCS/" 2>/dev/null || true
  log "collected into $DOCS"
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e14 e15 e16 e17 e18)
for s in "${steps[@]}"; do
  case $s in
    e1|e2|e3|e4|e5|e6|e7|e8|e9|e10|e14|e15|e16|e17|e18|collect) log "== $s"; "$s" ;;
    *) echo "unknown experiment $s (want e1..e10, e14..e18 or collect)" >&2; exit 2 ;;
  esac
done
[[ " ${steps[*]} " == *" collect "* ]] || collect
