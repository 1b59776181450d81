# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate rhsstep qcopy pml other
$d0 << EOD
"baseline" 0.0195079 0.0112965 0.0282094 0 0 0.0133065 0 0 0 0 0 0 0 0 0 0
"default 1.4x" 0.0135544 0.0113275 0 0.0266222 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 1.4x" 0.0135544 0.0113275 0 0.0266222 0 0 0 0 0 0 0 0 0 0 0 0
EOD
$d1 << EOD
"baseline" 0.0323192 0.0103266 0.0347241 0 0 0.0137254 0 0 0 0 0 0 0 0 0 0
"default 1.0x" 0.0228211 0.0103616 0 0.0565164 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 1.0x" 0.0228211 0.0103616 0 0.0565164 0 0 0 0 0 0 0 0 0 0 0 0
EOD
$d2 << EOD
"baseline" 0.0314782 0.00918056 0.0298155 0 0 0.0134226 0 0 0 0 0 0 0 0 0 0
"default 1.1x" 0.0270972 0.00912897 0 0.0410218 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 1.1x" 0.0270972 0.00912897 0 0.0410218 0 0 0 0 0 0 0 0 0 0 0 0
EOD
$d3 << EOD
"baseline" 0.046788 0.00843186 0.0387336 0 0 0.0133981 0 0 0 0 0 0 0 0 0 0
"default 1.1x" 0.0469277 0.00846271 0 0.0445671 0 0 0 0 0 0 0 0 0 0 0 0
"tuned 1.1x" 0.0469277 0.00846271 0 0.0445671 0 0 0 0 0 0 0 0 0 0 0 0
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
colors = '#1f77b4 #ff7f0e #2ca02c #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #d62728 #393b79 #e7ba52 #843c39 #7b4173 #637939 #aaaaaa'
plot newhistogram 'N=3' lt 1, \
    $d0 using 2:xtic(1) lc rgb word(colors, 1) title 'volume', \
    $d0 using 3 lc rgb word(colors, 2) title 'flux', \
    $d0 using 4 lc rgb word(colors, 3) title 'lift', \
    $d0 using 5 lc rgb word(colors, 4) title 'liftupdate', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
  newhistogram 'N=4' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=5' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=6' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle
