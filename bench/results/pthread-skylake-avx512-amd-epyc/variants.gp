# Variant comparison: time per RK stage per field DOF, split by kernel kind,
# for the baseline, default and tuned variant of every order.
# columns: label then ns/DOF of volume flux lift liftupdate fluxlift update curl gemm_volume gemm_lift other
$d0 << EOD
"baseline" 1.49146 5.78863 1.24193 0 0 0.245881 0 0 0 0
"default 5.5x" 0.260502 0.96551 0 0.357753 0 0 0 0 0 0
"tuned 6.3x" 0.2282 0.823879 0 0.338292 0 0 0 0 0 0
EOD
$d1 << EOD
"baseline" 2.61507 4.6394 2.18971 0 0 0.250958 0 0 0 0
"default 5.8x" 0.435366 0.781088 0 0.469812 0 0 0 0 0 0
"tuned 6.6x" 0.387399 0.642975 0 0.441408 0 0 0 0 0 0
EOD
$d2 << EOD
"baseline" 4.65863 3.88322 3.51366 0 0 0.21078 0 0 0 0
"default 6.4x" 0.661382 0.645041 0 0.608006 0 0 0 0 0 0
"tuned 6.8x" 0.617038 0.549648 0 0.604542 0 0 0 0 0 0
EOD
$d3 << EOD
"baseline" 7.79593 3.33642 5.32697 0 0 0.229934 0 0 0 0
"default 6.0x" 1.17656 0.643281 0 0.884988 0 0 0 0 0 0
"tuned 6.7x" 1.09687 0.528183 0 0.839534 0 0 0 0 0 0
EOD
$d4 << EOD
"baseline" 12.0413 2.95282 7.53655 0 0 0.22557 0 0 0 0
"default 6.3x" 1.85206 0.545943 0 1.21769 0 0 0 0 0 0
"tuned 6.3x" 1.85206 0.545943 0 1.21769 0 0 0 0 0 0
EOD
$d5 << EOD
"baseline" 17.7787 2.61827 10.0659 0 0 0.214485 0 0 0 0
"default 6.2x" 2.71839 0.500144 0 1.70903 0 0 0 0 0 0
"tuned 6.6x" 2.55205 0.458992 1.44519 0 0 0.156431 0 0 0 0
EOD
$d6 << EOD
"baseline" 25.2896 2.39688 13.0256 0 0 0.214115 0 0 0 0
"default 6.9x" 3.36295 0.534628 0 1.95787 0 0 0 0 0 0
"tuned 6.8x" 3.34337 0 0 0 2.50437 0.1518 0 0 0 0
EOD
$d7 << EOD
"baseline" 34.8389 2.14755 16.3897 0 0 0.189373 0 0 0 0
"default 4.1x" 9.33756 0.488494 0 3.16347 0 0 0 0 0 0
"tuned 3.5x" 9.36509 0.776723 0 5.05719 0 0 0 0 0 0
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
    $d0 using 6 lc rgb word(colors, 5) title 'fluxlift', \
    $d0 using 7 lc rgb word(colors, 6) title 'update', \
  newhistogram 'N=2' lt 1, \
    $d1 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d1 using 3 lc rgb word(colors, 2) notitle, \
    $d1 using 4 lc rgb word(colors, 3) notitle, \
    $d1 using 5 lc rgb word(colors, 4) notitle, \
    $d1 using 6 lc rgb word(colors, 5) notitle, \
    $d1 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=3' lt 1, \
    $d2 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d2 using 3 lc rgb word(colors, 2) notitle, \
    $d2 using 4 lc rgb word(colors, 3) notitle, \
    $d2 using 5 lc rgb word(colors, 4) notitle, \
    $d2 using 6 lc rgb word(colors, 5) notitle, \
    $d2 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=4' lt 1, \
    $d3 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d3 using 3 lc rgb word(colors, 2) notitle, \
    $d3 using 4 lc rgb word(colors, 3) notitle, \
    $d3 using 5 lc rgb word(colors, 4) notitle, \
    $d3 using 6 lc rgb word(colors, 5) notitle, \
    $d3 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=5' lt 1, \
    $d4 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d4 using 3 lc rgb word(colors, 2) notitle, \
    $d4 using 4 lc rgb word(colors, 3) notitle, \
    $d4 using 5 lc rgb word(colors, 4) notitle, \
    $d4 using 6 lc rgb word(colors, 5) notitle, \
    $d4 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=6' lt 1, \
    $d5 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d5 using 3 lc rgb word(colors, 2) notitle, \
    $d5 using 4 lc rgb word(colors, 3) notitle, \
    $d5 using 5 lc rgb word(colors, 4) notitle, \
    $d5 using 6 lc rgb word(colors, 5) notitle, \
    $d5 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=7' lt 1, \
    $d6 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d6 using 3 lc rgb word(colors, 2) notitle, \
    $d6 using 4 lc rgb word(colors, 3) notitle, \
    $d6 using 5 lc rgb word(colors, 4) notitle, \
    $d6 using 6 lc rgb word(colors, 5) notitle, \
    $d6 using 7 lc rgb word(colors, 6) notitle, \
  newhistogram 'N=8' lt 1, \
    $d7 using 2:xtic(1) lc rgb word(colors, 1) notitle, \
    $d7 using 3 lc rgb word(colors, 2) notitle, \
    $d7 using 4 lc rgb word(colors, 3) notitle, \
    $d7 using 5 lc rgb word(colors, 4) notitle, \
    $d7 using 6 lc rgb word(colors, 5) notitle, \
    $d7 using 7 lc rgb word(colors, 6) notitle
