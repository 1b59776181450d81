# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate pml other
$d0 << EOD
"baseline" 0.0194022 0.0112911 0.0281238 0 0 0.013281 0 0 0 0 0 0 0 0
"default 1.4x" 0.0133904 0.0111872 0 0.0265493 0 0 0 0 0 0 0 0 0 0
"tuned 2.0x" 0 0 0 0 0 0 0 0 0 0 0.0290404 0.00791978 0 0
EOD
$d1 << EOD
"baseline" 0.0322494 0.0102458 0.0347369 0 0 0.0136684 0 0 0 0 0 0 0 0
"default 1.0x" 0.0226025 0.0102936 0 0.0564098 0 0 0 0 0 0 0 0 0 0
"tuned 1.7x" 0 0 0 0 0 0 0 0 0 0 0.0441597 0.00813125 0 0
EOD
$d2 << EOD
"baseline" 0.0313571 0.00901389 0.0296845 0 0 0.013373 0 0 0 0 0 0 0 0
"default 1.1x" 0.0279722 0.00908333 0 0.0411111 0 0 0 0 0 0 0 0 0 0
"tuned 1.7x" 0.0205536 0.00907937 0 0.0208234 0 0 0 0 0 0 0 0 0 0
EOD
$d3 << EOD
"baseline" 0.0467009 0.00835565 0.0386356 0 0 0.0133672 0 0 0 0 0 0 0 0
"default 1.1x" 0.0465576 0.00835384 0 0.0451877 0 0 0 0 0 0 0 0 0 0
"tuned 1.6x" 0.030661 0.00846815 0 0.027424 0 0 0 0 0 0 0 0 0 0
EOD
set terminal pngcairo size 780,600 font ',9' noenhanced
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
plot newhistogram 'N=3' lt 1, \
    $d0 using 2:xtic(1) lc rgb word(colors, 1) title 'volume', \
    $d0 using 3 lc rgb word(colors, 2) title 'flux', \
    $d0 using 4 lc rgb word(colors, 3) title 'lift', \
    $d0 using 5 lc rgb word(colors, 4) title 'liftupdate', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
    $d0 using 12 lc rgb word(colors, 11) title 'rhsres', \
    $d0 using 13 lc rgb word(colors, 12) title 'qupdate', \
  newhistogram 'N=4' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
    $d1 using 12 lc rgb word(colors, 11) notitle, \
    $d1 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=5' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
    $d2 using 12 lc rgb word(colors, 11) notitle, \
    $d2 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=6' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
    $d3 using 12 lc rgb word(colors, 11) notitle, \
    $d3 using 13 lc rgb word(colors, 12) notitle
