# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate pml other
$d0 << EOD
"baseline" 0.0138146 0.00653864 0.019473 0 0 0.00659008 0 0 0 0 0 0 0 0
"default 1.8x" 0.00759888 0.0065815 0 0.0119027 0 0 0 0 0 0 0 0 0 0
"tuned 2.7x" 0 0 0 0 0 0 0 0 0 0 0.0124905 0.00485825 0 0
EOD
$d1 << EOD
"baseline" 0.024237 0.00588548 0.0242126 0 0 0.00680823 0 0 0 0 0 0 0 0
"default 1.5x" 0.0142269 0.00590805 0 0.0198293 0 0 0 0 0 0 0 0 0 0
"tuned 2.3x" 0 0 0 0 0 0.00687313 0 0 0 0.0191699 0 0 0 0
EOD
$d2 << EOD
"baseline" 0.0235142 0.00505289 0.0208708 0 0 0.00663603 0 0 0 0 0 0 0 0
"default 1.3x" 0.0207399 0.0050565 0 0.0181543 0 0 0 0 0 0 0 0 0 0
"tuned 1.9x" 0 0 0 0 0 0 0 0 0 0 0.0240281 0.00484698 0 0
EOD
$d3 << EOD
"baseline" 0.034153 0.00468777 0.0271586 0 0 0.00669823 0 0 0 0 0 0 0 0
"default 1.1x" 0.0341898 0.00469174 0 0.0292725 0 0 0 0 0 0 0 0 0 0
"tuned 1.8x" 0 0 0 0 0 0.00670221 0 0 0 0.0342325 0 0 0 0
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
    $d0 using 12 lc rgb word(colors, 11) title 'rhsres', \
    $d0 using 13 lc rgb word(colors, 12) title 'qupdate', \
  newhistogram 'N=4' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
    $d1 using 11 lc rgb word(colors, 10) notitle, \
    $d1 using 12 lc rgb word(colors, 11) notitle, \
    $d1 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=5' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
    $d2 using 11 lc rgb word(colors, 10) notitle, \
    $d2 using 12 lc rgb word(colors, 11) notitle, \
    $d2 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=6' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
    $d3 using 11 lc rgb word(colors, 10) notitle, \
    $d3 using 12 lc rgb word(colors, 11) notitle, \
    $d3 using 13 lc rgb word(colors, 12) notitle
