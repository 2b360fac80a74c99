#!/usr/bin/env bash
# Budget sweep (issue 5): the same workload under several memory budgets,
# one `cuzk bench` process per budget (so each peak RSS is its own), then a
# markdown table and an SVG plot of seconds per proof and peak RSS against
# the budget.
#   bench/budget_sweep.sh CUZK OUT_DIR [BUDGETS...] -- [cuzk bench options]
# e.g. bench/budget_sweep.sh .devbin/cuzk $OUT/sweep 2GiB 3GiB 4GiB 6GiB auto -- \
#        --kind hash-chain --size 4194304 --proofs 8 --concurrency 4
set -u
CUZK=$1 DIR=$2
shift 2
budgets=()
while [[ $# -gt 0 && $1 != -- ]]; do budgets+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
mkdir -p "$DIR"
table=$DIR/sweep.md
echo "| budget | s/proof | peak RSS | prove-worker (GPU) busy | result |" > "$table"
echo "|---|---|---|---|---|" >> "$table"
: > "$DIR/sweep.tsv"
for b in "${budgets[@]}"; do
  log=$DIR/bench_$b.txt
  timeout 300 "$CUZK" bench --budget "$b" --quiet "$@" > "$log" 2>&1
  rc=$?
  spp=$(sed -n 's/.*throughput: *\([0-9.]*\) s\/proof.*/\1/p' "$log" | head -n1)
  rss=$(sed -n 's/.*peak RSS \([0-9.]* [KMGT]*i*B\).*/\1/p' "$log" | head -n1)
  busy=$(sed -n 's/.*busy \([0-9.]*\) %.*/\1/p' "$log" | head -n1)
  result=ok
  [[ $rc != 0 ]] && result="exit $rc: $(grep -m1 -i 'error\|never fit\|refused' "$log" | cut -c1-80)"
  echo "| $b | ${spp:--} | ${rss:--} | ${busy:--} % | $result |" >> "$table"
  # Budget in GiB for the plot ("auto" plotted at the right end with its real budget, if printed).
  gib=$(echo "$b" | sed -n 's/^\([0-9.]*\)GiB$/\1/p')
  [[ -z $gib ]] && gib=$(sed -n 's/.*budget \([0-9.]*\) GiB.*/\1/p' "$log" | head -n1)
  rss_gib=$(echo "$rss" | awk '{v=$1; if ($2=="MiB") v/=1024; if ($2=="KiB") v/=1048576; if ($2=="TiB") v*=1024; print v}')
  [[ -n $spp && -n $gib ]] && printf '%s\t%s\t%s\t%s\n' "$b" "$gib" "$spp" "$rss_gib" >> "$DIR/sweep.tsv"
done
cat "$table"
# Two panels side by side: s/proof and peak RSS (GiB) against the budget (GiB).
awk -F'\t' '
  { lab[NR]=$1; x[NR]=$2; s[NR]=$3; r[NR]=$4; if ($2>xm) xm=$2; if ($3>sm) sm=$3; if ($4>rm) rm=$4 }
  function panel(ox, title, ys, ymax, unit,   i, px, py, path) {
    printf "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>\n", ox + 10, title
    printf "<line x1=\"%d\" y1=\"260\" x2=\"%d\" y2=\"260\" stroke=\"black\"/><line x1=\"%d\" y1=\"40\" x2=\"%d\" y2=\"260\" stroke=\"black\"/>\n", ox+40, ox+360, ox+40, ox+40
    printf "<text x=\"%d\" y=\"290\" font-size=\"11\">budget (GiB), 0 .. %.1f</text>\n", ox + 150, xm
    printf "<text x=\"%d\" y=\"38\" font-size=\"11\">%.2f %s</text>\n", ox + 2, ymax, unit
    path = ""
    for (i = 1; i <= NR; ++i) {
      px = ox + 40 + 320 * x[i] / xm; py = 260 - 210 * ys[i] / ymax
      path = path (i == 1 ? "M" : "L") px "," py " "
      printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s: %.2f</text>\n", px, py, px + 4, py - 6, lab[i], ys[i]
    }
    printf "<path d=\"%s\" fill=\"none\" stroke=\"steelblue\"/>\n", path
  }
  END {
    if (NR == 0) exit
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"300\" font-family=\"sans-serif\">\n"
    panel(0, "seconds per proof", s, sm * 1.15, "s")
    panel(380, "peak RSS", r, rm * 1.15, "GiB")
    printf "</svg>\n"
  }' "$DIR/sweep.tsv" > "$DIR/sweep.svg"
echo "wrote $table and $DIR/sweep.svg"
