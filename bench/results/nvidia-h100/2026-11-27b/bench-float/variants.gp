# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate rhsstep qcopy pml other
$d0 << EOD
"baseline" 0.0137917 0.00660437 0.0195521 0 0 0.00660627 0 0 0 0 0 0 0 0 0 0
"default 1.8x" 0.00760936 0.00657198 0 0.0119256 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 2.7x" 0 0 0 0 0 0 0 0 0 0 0 0 0.015996 0.000971055 0 0
EOD
$d1 << EOD
"baseline" 0.0242718 0.00589206 0.0242399 0 0 0.00685714 0 0 0 0 0 0 0 0 0 0
"default 1.5x" 0.0142561 0.00587513 0 0.0198471 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 2.4x" 0 0 0 0 0 0.00689571 0 0 0 0.019168 0 0 0 0 0 0
EOD
$d2 << EOD
"baseline" 0.0235711 0.0050565 0.0209485 0 0 0.00669564 0 0 0 0 0 0 0 0 0 0
"default 1.3x" 0.0207579 0.00509804 0 0.0181895 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 1.9x" 0 0 0 0 0 0 0 0 0 0 0.024066 0.00485872 0 0 0 0
EOD
$d3 << EOD
"baseline" 0.0341997 0.00472454 0.0272163 0 0 0.00671711 0 0 0 0 0 0 0 0 0 0
"default 1.1x" 0.0342226 0.00473249 0 0.02935 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 1.8x" 0 0 0 0 0 0.00671016 0 0 0 0.0343548 0 0 0 0 0 0
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
colors = '#1f77b4 #ff7f0e #2ca02c #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #d62728 #393b79 #e7ba52 #843c39 #7b4173 #637939 #aaaaaa'
plot newhistogram 'N=3' lt 1, \
    $d0 using 2:xtic(1) lc rgb word(colors, 1) title 'volume', \
    $d0 using 3 lc rgb word(colors, 2) title 'flux', \
    $d0 using 4 lc rgb word(colors, 3) title 'lift', \
    $d0 using 5 lc rgb word(colors, 4) title 'liftupdate', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
    $d0 using 11 lc rgb word(colors, 10) title 'rhs', \
    $d0 using 12 lc rgb word(colors, 11) title 'rhsres', \
    $d0 using 13 lc rgb word(colors, 12) title 'qupdate', \
    $d0 using 14 lc rgb word(colors, 13) title 'rhsstep', \
    $d0 using 15 lc rgb word(colors, 14) title 'qcopy', \
  newhistogram 'N=4' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
    $d1 using 11 lc rgb word(colors, 10) notitle, \
    $d1 using 12 lc rgb word(colors, 11) notitle, \
    $d1 using 13 lc rgb word(colors, 12) notitle, \
    $d1 using 14 lc rgb word(colors, 13) notitle, \
    $d1 using 15 lc rgb word(colors, 14) notitle, \
  newhistogram 'N=5' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
    $d2 using 11 lc rgb word(colors, 10) notitle, \
    $d2 using 12 lc rgb word(colors, 11) notitle, \
    $d2 using 13 lc rgb word(colors, 12) notitle, \
    $d2 using 14 lc rgb word(colors, 13) notitle, \
    $d2 using 15 lc rgb word(colors, 14) notitle, \
  newhistogram 'N=6' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
    $d3 using 11 lc rgb word(colors, 10) notitle, \
    $d3 using 12 lc rgb word(colors, 11) notitle, \
    $d3 using 13 lc rgb word(colors, 12) notitle, \
    $d3 using 14 lc rgb word(colors, 13) notitle, \
    $d3 using 15 lc rgb word(colors, 14) notitle
