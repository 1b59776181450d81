# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift other
$d0 << EOD
"baseline" 2.91431 11.7008 2.43183 0 0 0.427426 0 0 0 0
"default 4.6x" 0.496582 2.5096 0 0.779144 0 0 0 0 0 0
"tuned 5.1x" 0.442922 2.15399 0 0.870864 0 0 0 0 0 0
EOD
$d1 << EOD
"baseline" 5.23974 9.50512 4.31717 0 0 0.488371 0 0 0 0
"default 5.4x" 0.839966 1.81512 0 0.963576 0 0 0 0 0 0
"tuned 5.4x" 0.839966 1.81512 0 0.963576 0 0 0 0 0 0
EOD
$d2 << EOD
"baseline" 9.36613 7.89126 6.97498 0 0 0.415131 0 0 0 0
"default 5.9x" 1.29773 1.53811 0 1.35677 0 0 0 0 0 0
"tuned 6.7x" 1.20254 1.2303 0 1.32866 0 0 0 0 0 0
EOD
$d3 << EOD
"baseline" 15.5235 6.76273 10.6228 0 0 0.405343 0 0 0 0
"default 6.2x" 2.32886 1.28601 0 1.76924 0 0 0 0 0 0
"tuned 6.2x" 2.32886 1.28601 0 1.76924 0 0 0 0 0 0
EOD
$d4 << EOD
"baseline" 24.1318 5.83814 15.0164 0 0 0.379823 0 0 0 0
"default 6.2x" 3.68379 1.18386 0 2.35575 0 0 0 0 0 0
"tuned 6.2x" 3.68379 1.18386 0 2.35575 0 0 0 0 0 0
EOD
$d5 << EOD
"baseline" 35.1598 5.52841 20.3134 0 0 0.433327 0 0 0 0
"default 6.1x" 5.39717 1.14824 0 3.49811 0 0 0 0 0 0
"tuned 6.3x" 5.13218 0.983176 0 3.59956 0 0 0 0 0 0
EOD
$d6 << EOD
"baseline" 50.3756 4.96639 22.9814 0 0 0.381881 0 0 0 0
"default 6.2x" 6.63736 0.884204 0 3.86948 0 0 0 0 0 0
"tuned 6.0x" 6.67521 0.889565 0 4.06753 0 0 0 0 0 0
EOD
$d7 << EOD
"baseline" 69.7265 4.44885 32.8585 0 0 0.364681 0 0 0 0
"default 4.1x" 18.6445 1.05407 0 6.23376 0 0 0 0 0 0
"tuned 4.1x" 18.6445 1.05407 0 6.23376 0 0 0 0 0 0
EOD
set terminal pngcairo size 1380,600 font ',9' noenhanced
set output 'variants.png'
set title 'pthread-skylake-avx512-AMD EPYC: where a stage spends its time (float)'
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
colors = '#1f77b4 #ff7f0e #2ca02c #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #aaaaaa'
plot newhistogram 'N=1' lt 1, \
    $d0 using 2:xtic(1) lc rgb word(colors, 1) title 'volume', \
    $d0 using 3 lc rgb word(colors, 2) title 'flux', \
    $d0 using 4 lc rgb word(colors, 3) title 'lift', \
    $d0 using 5 lc rgb word(colors, 4) title 'liftupdate', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
  newhistogram 'N=2' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=3' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=4' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=5' lt 1, \
    $d4 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d4 using 3 lc rgb word(colors, 2) notitle, \
    $d4 using 4 lc rgb word(colors, 3) notitle, \
    $d4 using 5 lc rgb word(colors, 4) notitle, \
    $d4 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=6' lt 1, \
    $d5 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d5 using 3 lc rgb word(colors, 2) notitle, \
    $d5 using 4 lc rgb word(colors, 3) notitle, \
    $d5 using 5 lc rgb word(colors, 4) notitle, \
    $d5 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=7' lt 1, \
    $d6 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d6 using 3 lc rgb word(colors, 2) notitle, \
    $d6 using 4 lc rgb word(colors, 3) notitle, \
    $d6 using 5 lc rgb word(colors, 4) notitle, \
    $d6 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=8' lt 1, \
    $d7 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d7 using 3 lc rgb word(colors, 2) notitle, \
    $d7 using 4 lc rgb word(colors, 3) notitle, \
    $d7 using 5 lc rgb word(colors, 4) notitle, \
    $d7 using 7 lc rgb word(colors, 6) notitle
