# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift rhs rhsres qupdate pml other
$d0 << EOD
"baseline" 0.0277445 0.0110214 0.0497461 0 0 0.00676943 0 0 0 0 0 0 0 0
"default 3.4x" 0.0043606 0.01119 0 0.0124824 0 0 0 0 0 0 0 0 0 0
"tuned 5.3x" 0 0 0 0 0 0.00680314 0 0 0 0.0111188 0 0 0 0
EOD
$d1 << EOD
"baseline" 0.0167689 0.0088601 0.0290295 0 0 0.00805099 0 0 0 0 0 0 0 0
"default 1.8x" 0.00765737 0.00891112 0 0.0185001 0 0 0 0 0 0 0 0 0 0
"tuned 3.0x" 0 0 0 0 0 0.00820406 0 0 0 0.0125958 0 0 0 0
EOD
$d2 << EOD
"baseline" 0.0148599 0.00702447 0.0212999 0 0 0.00690392 0 0 0 0 0 0 0 0
"default 1.7x" 0.0085331 0.00723268 0 0.0132161 0 0 0 0 0 0 0 0 0 0
"tuned 2.6x" 0 0 0 0 0 0.00690027 0 0 0 0.0126791 0 0 0 0
EOD
$d3 << EOD
"baseline" 0.0250451 0.00642048 0.0251561 0 0 0.00705735 0 0 0 0 0 0 0 0
"default 1.5x" 0.0152736 0.00656119 0 0.0215867 0 0 0 0 0 0 0 0 0 0
"tuned 2.3x" 0 0 0 0 0 0.00723878 0 0 0 0.0203315 0 0 0 0
EOD
$d4 << EOD
"baseline" 0.0249643 0.00566949 0.0226276 0 0 0.00690182 0 0 0 0 0 0 0 0
"default 1.3x" 0.0218448 0.00573537 0 0.0199885 0 0 0 0 0 0 0 0 0 0
"tuned 1.6x" 0.0153111 0.00572762 0 0.0167139 0 0 0 0 0 0 0 0 0 0
EOD
$d5 << EOD
"baseline" 0.0360151 0.00517531 0.0293242 0 0 0.00697626 0 0 0 0 0 0 0 0
"default 1.0x" 0.0361192 0.00512518 0 0.0326176 0 0 0 0 0 0 0 0 0 0
"tuned 1.8x" 0 0 0 0 0 0.00698397 0 0 0 0.0365588 0 0 0 0
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
colors = '#1f77b4 #ff7f0e #2ca02c #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #aaaaaa'
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
