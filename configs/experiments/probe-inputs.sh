#!/usr/bin/env bash
# The file-input probe of issue 43: each command given a regular (valid)
# file, a FIFO, a directory, /dev/zero, a 100 MB file and a corrupt file
# where it reads one; prints a Markdown table of wall time, max RSS and
# exit status (2 = refused as bad input). Needs GNU time (/usr/bin/time)
# and takes a few seconds:
#
#   bash configs/experiments/probe-inputs.sh > table.md
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
P=$(mktemp -d); trap 'rm -rf "$P"' EXIT; cd "$P"
ERR=$P/stderr.txt
go build -C "$root" -o "$P/tune" ./cmd/tune && go build -C "$root" -o "$P/arena" ./cmd/arena && go build -C "$root" -o "$P/engine" ./cmd/engine || exit 1
TUNE=$P/tune; ARENA=$P/arena; ENGINE=$P/engine
cat > tiny.toml <<'T'
method = "ga"
seed = 5
schema = "symmetric"
[engine]
depth = 1
width = 4
[ga]
population = 6
groups = 2
generations = 1
[validation]
opponents = []
T
head -c 100000000 /dev/urandom | base64 > big.txt
mkfifo fifo
mkdir dir
printf 'this is {not" valid = [\n' > corrupt.txt
cp "$root/configs/weights/zhou2015.json" w.json
printf 'JJ KJJK\nJJ HHKK\n' > open.txt
$TUNE -config tiny.toml -out run -quiet >/dev/null 2>&1
kind_path() { case $1 in regular) echo "$2";; fifo) echo $P/fifo;; directory) echo $P/dir;; zero) echo /dev/zero;; 100MB) echo $P/big.txt;; corrupt) echo $P/corrupt.txt;; esac; }
measure() { # label kind cmd... (stdin from /dev/null unless STDIN set)
  local label=$1 kind=$2; shift 2
  local out; out=$( { /usr/bin/time -f "%e %M" timeout 20 "$@" < ${STDIN:-/dev/null} >/dev/null 2>$ERR; echo "rc=$?"; } 2>&1 )
  local rc=${out##*rc=}; local tm; tm=$(tail -1 $ERR)
  [ "$rc" = 124 ] && rc="124 (timeout)"
  printf '| %s | %s | %s s | %.0f MB | %s |\n' "$label" "$kind" "${tm% *}" "$(echo "${tm#* } / 1024" | bc -l)" "$rc"
}
echo "| input | kind | time | max RSS | exit |"; echo "|---|---|---|---|---|"
for k in regular fifo directory zero 100MB corrupt; do
  measure "tune -config" $k $TUNE -config "$(kind_path $k $P/tiny.toml)" -out $P/o-$k -quiet
  measure "tune -openings" $k $TUNE -config $P/tiny.toml -openings "$(kind_path $k $P/open.txt)" -out $P/op-$k -quiet
  measure "tune -start" $k $TUNE -config $P/tiny.toml -method spsa -steps 1 -start "$(kind_path $k $P/w.json)" -out $P/st-$k -quiet
  for f in checkpoint.json config.toml generations.jsonl; do
    rm -rf $P/r-$k; cp -r $P/run $P/r-$k
    if [ $k != regular ]; then rm -rf $P/r-$k/$f; case $k in fifo) mkfifo $P/r-$k/$f;; directory) mkdir $P/r-$k/$f;; zero) ln -s /dev/zero $P/r-$k/$f;; 100MB) cp $P/big.txt $P/r-$k/$f;; corrupt) cp $P/corrupt.txt $P/r-$k/$f;; esac; fi
    measure "tune -resume ($f)" $k $TUNE -resume $P/r-$k -quiet
    measure "tune export ($f)" $k $TUNE export $P/r-$k
    measure "tune compare ($f)" $k $TUNE compare $P/r-$k
  done
  measure "arena weights" $k $ARENA -pairs 1 -depth 1 "$(kind_path $k $P/w.json)" zhou2015
  measure "arena -openings" $k $ARENA -pairs 1 -depth 1 -openings "$(kind_path $k $P/open.txt)" zhou2015 chen2010-pso15
  measure "engine -weights" $k $ENGINE -weights "$(kind_path $k $P/w.json)"
  STDIN=<(printf 'weights %s\nquit\n' "$(kind_path $k $P/w.json)") measure "engine \`weights\` command" $k $ENGINE
done
