# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate pml other
$d0 << EOD
"baseline" 0.0299136 0.0195103 0.0625657 0 0 0.0131979 0 0 0 0 0 0 0 0
"default 1.6x" 0.00742876 0.0197613 0 0.051623 0 0 0 0 0 0 0 0 0 0
"tuned 3.6x" 0 0 0 0 0 0 0 0 0 0 0.0266019 0.00784834 0 0
EOD
$d1 << EOD
"baseline" 0.0249293 0.0150268 0.0400654 0 0 0.0160145 0 0 0 0 0 0 0 0
"default 1.5x" 0.0130441 0.0151908 0 0.0344746 0 0 0 0 0 0 0 0 0 0
"tuned 2.5x" 0 0 0 0 0 0 0 0 0 0 0.0292226 0.00949062 0 0
EOD
$d2 << EOD
"baseline" 0.0203574 0.0113787 0.0294604 0 0 0.0133658 0 0 0 0 0 0 0 0
"default 1.4x" 0.0142206 0.011459 0 0.0277618 0 0 0 0 0 0 0 0 0 0
"tuned 1.9x" 0 0 0 0 0 0 0 0 0 0 0.031853 0.00797056 0 0
EOD
$d3 << EOD
"baseline" 0.0324394 0.0103379 0.0351534 0 0 0.0137666 0 0 0 0 0 0 0 0
"default 1.0x" 0.023427 0.0104305 0 0.0581842 0 0 0 0 0 0 0 0 0 0
"tuned 1.6x" 0.0211646 0 0 0 0.0215423 0.0138407 0 0 0 0 0 0 0 0
EOD
$d4 << EOD
"baseline" 0.0328737 0.00917271 0.0311725 0 0 0.013544 0 0 0 0 0 0 0 0
"default 1.1x" 0.0284676 0.00926184 0 0.041066 0 0 0 0 0 0 0 0 0 0
"tuned 1.6x" 0.0219145 0.00919209 0 0.0223447 0 0 0 0 0 0 0 0 0 0
EOD
$d5 << EOD
"baseline" 0.0491655 0.0085651 0.040423 0 0 0.0134319 0 0 0 0 0 0 0 0
"default 1.0x" 0.0488492 0.00856896 0 0.0519884 0 0 0 0 0 0 0 0 0 0
"tuned 1.5x" 0.0355523 0.00858053 0 0.0288923 0 0 0 0 0 0 0 0 0 0
EOD
set terminal pngcairo size 1080,600 font ',9' noenhanced
set output 'variants.png'
set title 'NVIDIA H100 80GB HBM3: where a stage spends its time (double)'
set ylabel 'ns per field DOF per RK stage'
set grid y
set style data histograms
set style histogram rowstacked title offset 0,-0.5
set style fill solid 0.9 border -1
set boxwidth 0.8
set key outside right
set xtics rotate by -45 font ',8'
set bmargin 8
set yrange [0:*]
colors = '#1f77b4 #ff7f0e #2ca02c #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #d62728 #393b79 #e7ba52 #637939 #aaaaaa'
plot newhistogram 'N=1' lt 1, \
    $d0 using 2:xtic(1) lc rgb word(colors, 1) title 'volume', \
    $d0 using 3 lc rgb word(colors, 2) title 'flux', \
    $d0 using 4 lc rgb word(colors, 3) title 'lift', \
    $d0 using 5 lc rgb word(colors, 4) title 'liftupdate', \
    $d0 using 6 lc rgb word(colors, 5) title 'fluxlift', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
    $d0 using 12 lc rgb word(colors, 11) title 'rhsres', \
    $d0 using 13 lc rgb word(colors, 12) title 'qupdate', \
  newhistogram 'N=2' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 6 lc rgb word(colors, 5) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
    $d1 using 12 lc rgb word(colors, 11) notitle, \
    $d1 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=3' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 6 lc rgb word(colors, 5) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
    $d2 using 12 lc rgb word(colors, 11) notitle, \
    $d2 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=4' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 6 lc rgb word(colors, 5) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
    $d3 using 12 lc rgb word(colors, 11) notitle, \
    $d3 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=5' lt 1, \
    $d4 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d4 using 3 lc rgb word(colors, 2) notitle, \
    $d4 using 4 lc rgb word(colors, 3) notitle, \
    $d4 using 5 lc rgb word(colors, 4) notitle, \
    $d4 using 6 lc rgb word(colors, 5) notitle, \
    $d4 using 7 lc rgb word(colors, 6) notitle, \
    $d4 using 12 lc rgb word(colors, 11) notitle, \
    $d4 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=6' lt 1, \
    $d5 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d5 using 3 lc rgb word(colors, 2) notitle, \
    $d5 using 4 lc rgb word(colors, 3) notitle, \
    $d5 using 5 lc rgb word(colors, 4) notitle, \
    $d5 using 6 lc rgb word(colors, 5) notitle, \
    $d5 using 7 lc rgb word(colors, 6) notitle, \
    $d5 using 12 lc rgb word(colors, 11) notitle, \
    $d5 using 13 lc rgb word(colors, 12) notitle
