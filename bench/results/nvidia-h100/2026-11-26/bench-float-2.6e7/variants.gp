# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate pml other
$d0 << EOD
"baseline" 0.0138984 0.00663754 0.0196504 0 0 0.00675379 0 0 0 0 0 0 0 0
"default 1.8x" 0.00777039 0.00663383 0 0.0120445 0 0 0 0 0 0 0 0 0 0
"tuned 2.5x" 0 0 0 0 0 0.00668206 0 0 0 0.0118157 0 0 0 0
EOD
$d1 << EOD
"baseline" 0.0242769 0.00583599 0.0243904 0 0 0.00687855 0 0 0 0 0 0 0 0
"default 1.5x" 0.0143648 0.00583857 0 0.0201363 0 0 0 0 0 0 0 0 0 0
"tuned 2.3x" 0 0 0 0 0 0.00691726 0 0 0 0.019526 0 0 0 0
EOD
$d2 << EOD
"baseline" 0.0239172 0.00512576 0.0214071 0 0 0.00673432 0 0 0 0 0 0 0 0
"default 1.3x" 0.021051 0.00515054 0 0.0185253 0 0 0 0 0 0 0 0 0 0
"tuned 1.7x" 0.0140257 0.00516489 0 0.015252 0 0 0 0 0 0 0 0 0 0
EOD
$d3 << EOD
"baseline" 0.0344854 0.00471561 0.0275635 0 0 0.0067037 0 0 0 0 0 0 0 0
"default 1.1x" 0.0345278 0.00475265 0 0.0297394 0 0 0 0 0 0 0 0 0 0
"tuned 1.7x" 0 0 0 0 0 0.00668915 0 0 0 0.0363981 0 0 0 0
EOD
set terminal pngcairo size 780,600 font ',9' noenhanced
set output 'variants.png'
set title 'NVIDIA H100 80GB HBM3: where a stage spends its time (float)'
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
plot newhistogram 'N=3' lt 1, \
    $d0 using 2:xtic(1) lc rgb word(colors, 1) title 'volume', \
    $d0 using 3 lc rgb word(colors, 2) title 'flux', \
    $d0 using 4 lc rgb word(colors, 3) title 'lift', \
    $d0 using 5 lc rgb word(colors, 4) title 'liftupdate', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
    $d0 using 11 lc rgb word(colors, 10) title 'rhs', \
  newhistogram 'N=4' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
    $d1 using 11 lc rgb word(colors, 10) notitle, \
  newhistogram 'N=5' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
    $d2 using 11 lc rgb word(colors, 10) notitle, \
  newhistogram 'N=6' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
    $d3 using 11 lc rgb word(colors, 10) notitle
