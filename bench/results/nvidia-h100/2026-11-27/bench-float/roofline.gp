# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
16.1381 19294.7 10 3 "rhsres"
0.166667 411.671 11 3 "qupdate"
36.2476 19017.9 9 4 "rhs"
0.25 727.47 5 4 "update"
39.7111 22432.1 10 5 "rhsres"
0.166667 412.628 11 5 "qupdate"
81.7371 22142.7 9 6 "rhs"
0.25 746.023 5 6 "update"
EOD
$s << EOD
12.8343 14002.2 3
20.466 14197 4
30.7858 18713.7 5
44.1714 18639.4 6
EOD
set terminal pngcairo size 1000,680 font ',10' noenhanced
set output 'roofline.png'
set title 'NVIDIA H100 80GB HBM3: roofline of the tuned variant (float)'
set xlabel 'arithmetic intensity (flop / minimum byte)'
set ylabel 'GFLOP/s'
set logscale xy
set grid
set key bottom right
set xrange [0.05:200]
set yrange [*:163120]
bw = 2924.9
peak = 65247.8
fma = 65247.8
gemm = 0
roof(x) = (x * bw < peak) ? x * bw : peak
set label 1 sprintf('bandwidth %.1f GB/s', bw) at 0.08, 0.08 * bw * 1.6 rotate by 33
set label 2 sprintf('peak %.0f GFLOP/s', peak) at 30, peak * 1.15
set palette defined (1 '#1f77b4', 4 '#2ca02c', 8 '#d62728')
set cbrange [1:8]
set cblabel 'order N'
set cbtics 1
plot roof(x) with lines lw 3 lc rgb '#333333' title 'roofline (measured)', \
  $k using ($3 == 5 ? $1 : 1/0):2:4 with points pt 15 ps 1.6 lc palette title 'update', \
  $k using ($3 == 9 ? $1 : 1/0):2:4 with points pt 12 ps 1.6 lc palette title 'rhs', \
  $k using ($3 == 10 ? $1 : 1/0):2:4 with points pt 14 ps 1.6 lc palette title 'rhsres', \
  $k using ($3 == 11 ? $1 : 1/0):2:4 with points pt 3 ps 1.6 lc palette title 'qupdate', \
  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', \
  $s using 1:2:(sprintf('N%d', $3)) with labels offset 1.6,0 font ',8' notitle
