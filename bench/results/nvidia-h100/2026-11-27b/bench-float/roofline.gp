# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
12.8343 15191.3 12 3 "rhsstep"
0 0 13 3 "qcopy"
36.2476 19019.8 9 4 "rhs"
0.25 725.089 5 4 "update"
39.7111 22396.7 10 5 "rhsres"
0.166667 411.631 11 5 "qupdate"
81.7371 22063.9 9 6 "rhs"
0.25 745.139 5 6 "update"
EOD
$s << EOD
12.8343 14321.3 3
20.466 14179.5 4
30.7858 18689.1 5
44.1714 18586.6 6
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
  $k using ($3 == 12 ? $1 : 1/0):2:4 with points pt 6 ps 1.6 lc palette title 'rhsstep', \
  $k using ($3 == 13 ? $1 : 1/0):2:4 with points pt 1 ps 1.6 lc palette title 'qcopy', \
  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', \
  $s using 1:2:(sprintf('N%d', $3)) with labels offset 1.6,0 font ',8' notitle
