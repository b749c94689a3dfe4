#!/usr/bin/env bash
# Reruns roadtune's experiments (docs/experiments.md, one page each in
# docs/experiments/) with `tune`, `arena` and one Go benchmark.
#
#   configs/experiments/run.sh            every experiment, then collect
#   configs/experiments/run.sh e1 e4      some of them (e1..e23), then collect
#   DOCS=docs/experiments configs/experiments/run.sh collect
#                                         update the tracked docs from $OUT
#
# Outputs go to $OUT (default runs/experiments); `collect` copies the small
# results (reports, summaries, plots, tuned weight files) to $DOCS, by
# default $OUT/docs: the tracked docs/experiments change only when DOCS
# names it. Finished steps are skipped and interrupted tune runs are
# resumed, so the script can be stopped and started again.
#
# Experiments 11 and 12 play Cloudict, a program roadtune does not ship
# (BY_HAND below): their steps run only with CLOUDICT=DIR, the directory
# holding Cloudict's gameEngine, and otherwise say where their commands
# are and skip. Every other experiment of the index is a step.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-runs/experiments}
DOCS=${DOCS:-$OUT/docs}
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

# run_seeds NAME CONFIG SEEDS [FLAG...]: the config once per seed of SEEDS
# (1,2,3) in $OUT/NAME/seed-N, with NAME/compare.md; tune continues a
# stopped sweep itself.
run_seeds() {
  local name=$1 cfg=$2 seeds=$3 start
  shift 3
  if [ -f "$OUT/$name/compare.md" ]; then log "$name: done already"; return; fi
  start=$(date +%s)
  tune -config "$cfg" -seeds "$seeds" "$@" -out "$OUT/$name" -quiet > "$OUT/$name.txt"
  log "$name: sweep took $(( $(date +%s) - start )) s"
}

# run_chain NAME CONFIG [FLAG...]: a chain in $OUT/NAME, continued with
# -resume when it was stopped.
run_chain() {
  local name=$1 cfg=$2 start
  shift 2
  start=$(date +%s)
  if [ -f "$OUT/$name/chain.json" ]; then tune -resume "$OUT/$name" -quiet; else tune -config "$cfg" "$@" -out "$OUT/$name" -quiet; fi
  log "$name: chain took $(( $(date +%s) - start )) s"
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
  run_chain e14-overnight configs/experiments/overnight-symmetric.toml
  run_chain e14-overnight-asymmetric configs/experiments/overnight-asymmetric.toml
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
  run_chain "$name" configs/overnight.toml
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

# The experiments that play Cloudict: run only with CLOUDICT=DIR.
BY_HAND=(e11 e12)

# needs_cloudict ID PAGE: false (and a line saying where the commands are)
# unless CLOUDICT names Cloudict's directory.
needs_cloudict() {
  if [ -n "${CLOUDICT:-}" ] && [ -x "$CLOUDICT/gameEngine" ]; then return 0; fi
  log "$1: skipped: it plays Cloudict; set CLOUDICT=DIR (the directory holding its gameEngine) or run the commands of docs/experiments/$2 by hand"
  return 1
}

# e11: arena against Cloudict at depth 2 without wrapper scripts.
e11() {
  needs_cloudict e11 11-cloudict-arena.md || return 0
  run_arena e11-cloudict-d2 -pairs 24 -concurrency 2 -openings balanced \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 2" \
    -engine name=roadtune-d6w20 weights=zhou2015 depth=6 width=20
}

# e12: issue 14's steps against Cloudict, each with its command in its
# section; the step replays today's headline (12.11: the engine binary's
# PlaySettings at tc=5 against Cloudict at depth 3, the command experiment
# 20 measured it with).
e12() {
  needs_cloudict e12 12-issue-14-engine-against-cloudict.md || return 0
  run_arena e12-cloudict-d3-tc5 -pairs 375 -concurrency 2 -openings balanced -movetime 60s \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 3" \
    -engine name=rt weights=roadtune-tempo settings=play width=15 tc=5
}

# e13: what playing through the NATS queue costs (a Go benchmark).
e13() {
  if [ -f "$OUT/e13-many-machines.txt" ]; then log "e13: done already"; return; fi
  ROADTUNE_PIN=1 go test ./cluster -run '^$' -bench Workers -benchtime 4x -count 6 > "$OUT/e13-many-machines.txt"
  cat "$OUT/e13-many-machines.txt"
}

# e19: the robust GA, Chen's PSO and CMA-ES presets (with ordered chains)
# over seeds 1-3 at the main budget and overnight, and their learning
# curves.
e19() {
  local p
  for p in ga pso cmaes overnight-ga overnight-pso overnight-cmaes; do
    run_seeds "e19-$p" "configs/$p.toml" 1,2,3
  done
  runs() { echo "$OUT/e19-$1/seed-1,$OUT/e19-$1/seed-2,$OUT/e19-$1/seed-3"; }
  [ -f "$OUT/e19-curves-monotone.csv" ] || tune compare -curve -o "$OUT/e19-curves-monotone" \
    ga="$(runs ga)" "pso (Chen)=$(runs pso)" cmaes="$(runs cmaes)" > /dev/null
}

# e20: SPSA on seven PlaySettings knobs at 0.02 s a move (timed games:
# not reproducible); with CLOUDICT, the tuned and the hand-set settings
# against Cloudict at depth 3, tc=5.
e20() {
  run_tune e20-search-spsa configs/search-spsa.toml -iterations 15000 -concurrency 1
  needs_cloudict e20 20-search-settings-spsa.md || return 0
  run_arena e20-cloudict-d3-tc5-tuned -pairs 375 -concurrency 2 -openings balanced -movetime 60s \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 3" \
    -engine name=rt-tuned weights=roadtune-tempo settings=play tc=5 param=Width=12 param=DefendWide=60 \
      param=DefendMaxDepth=11 param=DefendShare=0.4558420604189135 param=DefendGrowth=2.5036149156317573 \
      param=GameMoves=8 param=ThreatNodes=46737
}

# e21: the main budget on six seeds (Chen's PSO with three starts on 1-6,
# the GA and CMA-ES on 4-6: their 1-3 are e19's), the two long GA runs
# (seed 1) and the depth-4 chain (seed 5). The runs with -hours measure
# the machine, not the method, and are left out.
e21() {
  run_seeds e21-pso configs/pso.toml 1,2,3,4,5,6
  run_seeds e21-ga configs/ga.toml 4,5,6
  run_seeds e21-cmaes configs/cmaes.toml 4,5,6
  run_tune e21-night-ga configs/experiments/e21-night-ga.toml -seed 1
  run_tune e21-night-hof configs/experiments/e21-night-hof.toml -seed 1
  run_chain e21-depth4-chain configs/experiments/e21-depth4-chain.toml -seed 5
  # the second session: a fitness pool outside the population, SPSA after
  # the GA, and the GA → SPSA chain by the clock (its split and its
  # stopping depend on this machine's speed)
  run_seeds e21-pool configs/experiments/e21-pool-ga.toml 1
  run_tune e21-night-pool configs/experiments/e21-night-pool.toml -seed 1
  for s in 4 5; do run_tune "e21-refine-ga-s$s" configs/refine-spsa.toml -seed "$s" -start "$OUT/e21-ga/seed-$s"; done
  run_chain e21-night-chain-ga configs/experiments/e21-night-chain-ga.toml -hours 1.5 -seed 4
  # the third session: CMA-ES variants against its weak seed, how high
  # the Elo against zhou2015 goes on the balanced suite, and the PSO
  # chain by the clock (its split and stop depend on this machine)
  local b=configs/openings/balanced.txt s
  run_seeds e21-cmaes-sigma configs/experiments/e21-cmaes-sigma.toml 1,2,3,4,6
  run_seeds e21-cmaes-lambda-pairs configs/experiments/e21-cmaes-lambda-pairs.toml 1,2,3,4,5,6
  run_arena e21-ceiling-zhou-d4 -openings $b -pairs 300 -seed 77 -width 10 -engine weights=zhou2015 depth=4 name=zhou2015-d4 -engine weights=zhou2015 depth=3 name=zhou2015-d3
  for s in 3 4; do run_arena "e21-ceiling-tempo-d$s" -openings $b -pairs 300 -seed 77 -width 10 -engine weights=roadtune-tempo depth=$s name=tempo-d$s -engine weights=zhou2015 depth=3 name=zhou2015-d3; done
  run_arena e21-ceiling-tempo-d5 -openings $b -pairs 150 -seed 77 -width 10 -engine weights=roadtune-tempo depth=5 name=tempo-d5 -engine weights=zhou2015 depth=3 name=zhou2015-d3
  run_chain e21-pso-chain configs/overnight-pso.toml -hours 1 -seed 4
  run_seeds e21-pso4 configs/pso.toml 4
  for s in 3 4; do run_arena "e21-pso-chain-vs-main-d$s" -openings $b -pairs 300 -seed 91 -depth $s -width 10 "$OUT/e21-pso-chain/stage-2-spsa/best.json" "$OUT/e21-pso4/seed-4/best.json"; done
  run_arena e21-pso-chain-vs-half -openings $b -pairs 300 -seed 92 -depth 3 -width 10 "$OUT/e21-pso-chain/stage-2-spsa/best.json" "$(tune export "$OUT/e21-pso-chain/stage-2-spsa" -step 18833 -o "$OUT/e21-pso-chain-half.json" >/dev/null && echo "$OUT/e21-pso-chain-half.json")"
  # the fourth session: CMA-ES with tied candidates sharing their weights
  # (cmaes.toml since, seeds 1-12) and the variants screened before it
  run_seeds e21-cmaes-max-sigma-1 configs/experiments/e21-cmaes-max-sigma-1.toml 1,2,3,4,5,6
  run_seeds e21-cmaes-share-ties configs/experiments/e21-cmaes-share-ties.toml 1,2,3,4,5,6
  run_seeds e21-cmaes-share-ties-sigma configs/experiments/e21-cmaes-share-ties-sigma.toml 1,2,3,4,5,6
  run_seeds e21-cmaes-shared configs/cmaes.toml 1,2,3,4,5,6,7,8,9,10,11,12
}

# e22: +50 Elo in 2,000 games — Texel at 248 to 2,000 games, Bayesian
# optimisation alone from random starts, and the bayes.toml chain (Texel,
# then the model around its vector) at 2,000 and 20,000 games.
e22() {
  local b=configs/openings/balanced.txt s
  run_seeds e22-texel-250 configs/experiments/e22-texel-250.toml 1,2,3
  run_seeds e22-texel-500 configs/experiments/e22-texel-500.toml 1,2,3,4,5,6
  run_seeds e22-texel-1000 configs/experiments/e22-texel-1000.toml 1,2,3,4,5,6
  run_seeds e22-texel-2000 configs/experiments/e22-texel-2000.toml 1,2,3,4,5,6
  for s in 1 2 3 4 5 6; do
    run_arena "e22-texel-500-s$s-pso15" -openings $b -pairs 300 -seed 77 -width 10 -depth 3 "$OUT/e22-texel-500/seed-$s/best.json" chen2010-pso15
    run_arena "e22-texel-500-s$s-zhou-d4" -openings $b -pairs 300 -seed 77 -width 10 -depth 4 "$OUT/e22-texel-500/seed-$s/best.json" zhou2015
  done
  run_seeds e22-bayes-random configs/experiments/e22-bayes-random.toml 1,2,3
  run_tune e22-bayes-random-992 configs/experiments/e22-bayes-random.toml -seed 1 -steps 62
  run_seeds e22-bayes configs/bayes.toml 1,2,3,4,5,6
  run_chain e22-bayes-20k configs/experiments/e22-bayes-20k.toml -seed 1
  run_arena e22-bayes-20k-vs-ga -openings $b -pairs 300 -seed 93 -width 10 -depth 3 "$OUT/e22-bayes-20k/stage-2-bayes/best.json" docs/experiments/e19-ga-seed-1.json
  run_chain e22-bayes-20k-s2 configs/experiments/e22-bayes-20k.toml -seed 2
  run_tune e22-ga-s2 configs/ga.toml -seed 2
  run_arena e22-bayes-20k-s2-vs-ga -openings $b -pairs 300 -seed 93 -width 10 -depth 3 "$OUT/e22-bayes-20k-s2/stage-2-bayes/best.json" "$OUT/e22-ga-s2/best.json"
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
  if [ -f "$OUT/e23-losses.md" ]; then mkdir -p "$DOCS/e23-cloudict-d4"; cp "$OUT/e23-losses.md" "$DOCS/e23-cloudict-d4/losses.md"; fi
  cp "$OUT"/e23-play-clock.txt "$DOCS/" 2>/dev/null || true
  for f in deep-census white-move1 white-moves23; do
    if [ -f "$OUT/e23-$f.log" ]; then mkdir -p "$DOCS/e23-quiet-later"; cp "$OUT/e23-$f.log" "$DOCS/e23-quiet-later/$f.log"; fi
  done
  if [ -f "$OUT/e23-play-suite.txt" ]; then mkdir -p "$DOCS/e23-play-suite"; cp "$OUT/e23-play-suite.txt" "$DOCS/e23-play-suite/openings.txt"; fi
  cp "$OUT"/e*-g*.json "$OUT"/e13-*.txt "$OUT"/e19-curves*.png "$OUT"/e19-curves*.csv "$DOCS/" 2>/dev/null || true
  log "collected into $DOCS"
}

# e23: the engine binary against Cloudict at depth 4 on its own clock
# (-time 'move 4', one game at a time: the time a move is measured), the
# post-mortem of the games it lost, the benchmark of its search at that
# clock, the binary against itself at that clock, and a first look at
# depth 5 (-time 'move 20').
e23() {
  if [ ! -f "$OUT/e23-play-clock.txt" ]; then
    go test ./engine -run '^$' -bench PlayClock -benchtime 1x -count 2 > "$OUT/e23-play-clock.txt"
    cat "$OUT/e23-play-clock.txt"
  fi
  # how often a self-play game pair is decided at the binary's clock
  # (item 3's signal): width 15 against 12, the cheap clock and the binary's
  local st
  for st in 0.3 4; do
    run_arena "e23-self-st$st" -pairs 30 -concurrency 1 -seed 7 \
      -engine name=w15 weights=roadtune-tempo settings=play width=15 st=$st \
      -engine name=w12 weights=roadtune-tempo settings=play width=12 st=$st
  done
  # the quiet-attack check against the binary's search without it, equal clock
  run_arena e23-quiet-self -pairs 300 -concurrency 2 -openings balanced -movetime 60s \
    -engine name=quiet weights=roadtune-tempo settings=play width=15 st=4 param=QuietSafe=60 \
    -engine name=play weights=roadtune-tempo settings=play width=15 st=4
  # the quiet-attack census at deeper bounds (one core, about 20 minutes)
  [ -f "$OUT/e23-deep-census.log" ] || (cd engine && go test -run TestQuietCensus -quiet-census -quiet-deep \
    -quiet-top 60 -v -timeout 10h) > "$OUT/e23-deep-census.log"
  # an opening suite balanced at play strength (about 13 minutes on 2 cores)
  [ -f "$OUT/e23-play-suite.txt" ] || "$OUT/bin/arena" openings -settings play -depth 3 -width 15 -ref roadtune-tempo \
    -ref roadtune-overnight -ref zhou2015 -concurrency 2 -seed 11 -radius 6 -o "$OUT/e23-play-suite.txt"
  # on it: the self-play signal pilot (its first 30 openings) and the check
  # against the search without it, at the binary's clock
  run_arena e23-play-suite-signal -pairs 30 -concurrency 1 -movetime 60s \
    -openings file="$OUT/e23-play-suite.txt" order=sequential \
    -engine name=w15 weights=roadtune-tempo settings=play width=15 st=4 \
    -engine name=w12 weights=roadtune-tempo settings=play width=12 st=4
  run_arena e23-play-suite-self -pairs 141 -concurrency 1 -movetime 60s \
    -openings file="$OUT/e23-play-suite.txt" order=sequential \
    -engine name=quiet weights=roadtune-tempo settings=play width=15 st=4 param=QuietSafe=60 \
    -engine name=play weights=roadtune-tempo settings=play width=15 st=4
  needs_cloudict e23 23-depth-four.md || return 0
  go build -o "$OUT/bin/roadtune-engine" ./cmd/engine
  local eng
  eng=$(cd "$OUT/bin" && pwd)/roadtune-engine
  # the binary before the quiet-attack check (-quiet 0), then with it (its default)
  run_arena e23-cloudict-d4 -pairs 375 -concurrency 1 -openings balanced -movetime 60s \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 4" \
    -engine name=rt cmd="$eng" arg=-time "arg=move 4" arg=-quiet arg=0
  run_arena e23-quiet-d4 -pairs 375 -concurrency 1 -openings balanced -movetime 60s \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 4" \
    -engine name=rt cmd="$eng" arg=-time "arg=move 4"
  [ -f "$OUT/e23-losses.md" ] || "$OUT/bin/arena" losses -player rt -o "$OUT/e23-losses.md" "$OUT/e23-cloudict-d4" > /dev/null
  # the check at White's first three moves, on 50 openings the binary lost
  # as White with it at the first only; the positions of the lost games
  # before White's moves 1, 2 and 3 (the census files of the page) go to
  # TestQuietCensus -quiet-file
  local later=docs/experiments/e23-quiet-later
  run_arena e23-quiet-later -pairs 50 -concurrency 1 -movetime 60s \
    -openings file=$later/screen-openings.txt order=sequential \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 4" \
    -engine name=rt cmd="$eng" arg=-time "arg=move 4" arg=-quietmoves arg=3
  local f
  for f in white-move1 white-moves23; do
    [ -f "$OUT/e23-$f.log" ] || (cd engine && go test -run TestQuietCensus -quiet-census -quiet-deep -quiet-top 60 \
      -quiet-file "$PWD/../$later/$f.txt" -v -timeout 10h) > "$OUT/e23-$f.log"
  done
  # Cloudict against itself (deterministic: both games of a pair alike)
  run_arena e23-cloudict-self -pairs 40 -concurrency 1 -openings balanced -movetime 60s \
    -engine name=ClB dir="$CLOUDICT" cmd=./gameEngine initstr="depth 4" \
    -engine name=ClW dir="$CLOUDICT" cmd=./gameEngine initstr="depth 4"
  # the binary on the suite balanced at play strength
  run_arena e23-play-suite-d4 -pairs 141 -concurrency 1 -movetime 60s \
    -openings file="$OUT/e23-play-suite.txt" order=sequential \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 4" \
    -engine name=rt cmd="$eng" arg=-time "arg=move 4"
  run_arena e23-play-suite-d3 -pairs 141 -concurrency 1 -movetime 60s \
    -openings file="$OUT/e23-play-suite.txt" order=sequential \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 3" \
    -engine name=rt weights=roadtune-tempo settings=play width=15 tc=5 param=QuietSafe=60
  # depth 3, the whole suite in its seed-1 order, the binary's search in-process
  run_arena e23-cloudict-d3 -pairs 375 -concurrency 1 -openings balanced -movetime 60s \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 3" \
    -engine name=rt weights=roadtune-tempo settings=play width=15 tc=5
  run_arena e23-quiet-d3 -pairs 375 -concurrency 1 -openings balanced -movetime 60s \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 3" \
    -engine name=rt weights=roadtune-tempo settings=play width=15 tc=5 param=QuietSafe=60
  # depth 5, a first look: 40 pairs of the suite's first openings
  run_arena e23-cloudict-d5 -pairs 40 -concurrency 1 -movetime 120s \
    -openings file=configs/openings/balanced.txt order=sequential \
    -engine name=Cloudict dir="$CLOUDICT" cmd=./gameEngine initstr="depth 5" \
    -engine name=rt cmd="$eng" arg=-time "arg=move 20" arg=-quiet arg=0
}

# STEPS: every experiment of docs/experiments/README.md's index, in order.
STEPS=(e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 e14 e15 e16 e17 e18 e19 e20 e21 e22 e23)
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("${STEPS[@]}")
for s in "${steps[@]}"; do
  if [ "$s" = collect ] || [[ " ${STEPS[*]} " == *" $s "* ]]; then
    log "== $s"; "$s"
  else
    echo "unknown experiment $s (want e1..e23 or collect)" >&2; exit 2
  fi
done
[[ " ${steps[*]} " == *" collect "* ]] || collect
