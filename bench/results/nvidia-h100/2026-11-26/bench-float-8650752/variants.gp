# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate pml other
$d0 << EOD
"baseline" 0.0277483 0.0108491 0.049615 0 0 0.00676943 0 0 0 0 0 0 0 0
"default 3.4x" 0.00434937 0.0110551 0 0.0122389 0 0 0 0 0 0 0 0 0 0
"tuned 5.4x" 0 0 0 0 0 0.00665329 0 0 0 0.0110401 0 0 0 0
EOD
$d1 << EOD
"baseline" 0.0166341 0.00873982 0.0289274 0 0 0.00810201 0 0 0 0 0 0 0 0
"default 1.8x" 0.00757354 0.00888925 0 0.0182851 0 0 0 0 0 0 0 0 0 0
"tuned 3.0x" 0 0 0 0 0 0.00821864 0 0 0 0.012512 0 0 0 0
EOD
$d2 << EOD
"baseline" 0.0149147 0.00702081 0.0211574 0 0 0.00679068 0 0 0 0 0 0 0 0
"default 1.7x" 0.00858059 0.00710118 0 0.0130919 0 0 0 0 0 0 0 0 0 0
"tuned 2.6x" 0 0 0 0 0 0.00677972 0 0 0 0.0126426 0 0 0 0
EOD
$d3 << EOD
"baseline" 0.0249858 0.00636865 0.0254153 0 0 0.006987 0 0 0 0 0 0 0 0
"default 1.5x" 0.0152255 0.00652786 0 0.0215571 0 0 0 0 0 0 0 0 0 0
"tuned 2.3x" 0 0 0 0 0 0.00717583 0 0 0 0.0202982 0 0 0 0
EOD
$d4 << EOD
"baseline" 0.02479 0.00548348 0.0224222 0 0 0.00689407 0 0 0 0 0 0 0 0
"default 1.3x" 0.021961 0.00557261 0 0.0198529 0 0 0 0 0 0 0 0 0 0
"tuned 1.6x" 0.015253 0.00570437 0 0.0166093 0 0 0 0 0 0 0 0 0 0
EOD
$d5 << EOD
"baseline" 0.0360112 0.00511747 0.0290234 0 0 0.00682972 0 0 0 0 0 0 0 0
"default 1.0x" 0.0361154 0.0051676 0 0.032552 0 0 0 0 0 0 0 0 0 0
"tuned 1.8x" 0 0 0 0 0 0.00685285 0 0 0 0.036366 0 0 0 0
EOD
set terminal pngcairo size 1080,600 font ',9' noenhanced
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
plot newhistogram 'N=1' lt 1, \
    $d0 using 2:xtic(1) lc rgb word(colors, 1) title 'volume', \
    $d0 using 3 lc rgb word(colors, 2) title 'flux', \
    $d0 using 4 lc rgb word(colors, 3) title 'lift', \
    $d0 using 5 lc rgb word(colors, 4) title 'liftupdate', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
    $d0 using 11 lc rgb word(colors, 10) title 'rhs', \
  newhistogram 'N=2' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
    $d1 using 11 lc rgb word(colors, 10) notitle, \
  newhistogram 'N=3' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
    $d2 using 11 lc rgb word(colors, 10) notitle, \
  newhistogram 'N=4' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
    $d3 using 11 lc rgb word(colors, 10) notitle, \
  newhistogram 'N=5' lt 1, \
    $d4 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d4 using 3 lc rgb word(colors, 2) notitle, \
    $d4 using 4 lc rgb word(colors, 3) notitle, \
    $d4 using 5 lc rgb word(colors, 4) notitle, \
    $d4 using 7 lc rgb word(colors, 6) notitle, \
    $d4 using 11 lc rgb word(colors, 10) notitle, \
  newhistogram 'N=6' lt 1, \
    $d5 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d5 using 3 lc rgb word(colors, 2) notitle, \
    $d5 using 4 lc rgb word(colors, 3) notitle, \
    $d5 using 5 lc rgb word(colors, 4) notitle, \
    $d5 using 7 lc rgb word(colors, 6) notitle, \
    $d5 using 11 lc rgb word(colors, 10) notitle
