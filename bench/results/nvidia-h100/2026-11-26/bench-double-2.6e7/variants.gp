# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate pml other
$d0 << EOD
"baseline" 0.0193821 0.0116376 0.0278698 0 0 0.0134495 0 0 0 0 0 0 0 0
"default 1.4x" 0.0133777 0.0116574 0 0.0263572 0 0 0 0 0 0 0 0 0 0
"tuned 1.9x" 0 0 0 0 0 0 0 0 0 0 0.0294293 0.00810431 0 0
EOD
$d1 << EOD
"baseline" 0.0320302 0.0106501 0.0340405 0 0 0.0138461 0 0 0 0 0 0 0 0
"default 1.0x" 0.0227298 0.0105843 0 0.0553342 0 0 0 0 0 0 0 0 0 0
"tuned 1.7x" 0.0199673 0 0 0 0.0204782 0.013819 0 0 0 0 0 0 0 0
EOD
$d2 << EOD
"baseline" 0.0317043 0.00938787 0.0299613 0 0 0.0134399 0 0 0 0 0 0 0 0
"default 1.1x" 0.026906 0.00952746 0 0.0400185 0 0 0 0 0 0 0 0 0 0
"tuned 1.7x" 0.0203191 0.00940874 0 0.0205696 0 0 0 0 0 0 0 0 0 0
EOD
$d3 << EOD
"baseline" 0.0464034 0.00879894 0.0383902 0 0 0.0135648 0 0 0 0 0 0 0 0
"default 1.1x" 0.0465357 0.00899868 0 0.0437381 0 0 0 0 0 0 0 0 0 0
"tuned 1.5x" 0.033422 0.00886508 0 0.0273095 0 0 0 0 0 0 0 0 0 0
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
    $d0 using 6 lc rgb word(colors, 5) title 'fluxlift', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
    $d0 using 12 lc rgb word(colors, 11) title 'rhsres', \
    $d0 using 13 lc rgb word(colors, 12) title 'qupdate', \
  newhistogram 'N=4' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 6 lc rgb word(colors, 5) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
    $d1 using 12 lc rgb word(colors, 11) notitle, \
    $d1 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=5' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 6 lc rgb word(colors, 5) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
    $d2 using 12 lc rgb word(colors, 11) notitle, \
    $d2 using 13 lc rgb word(colors, 12) notitle, \
  newhistogram 'N=6' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 6 lc rgb word(colors, 5) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
    $d3 using 12 lc rgb word(colors, 11) notitle, \
    $d3 using 13 lc rgb word(colors, 12) notitle
