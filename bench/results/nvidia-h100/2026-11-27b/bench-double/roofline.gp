# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
7.91641 9812.33 0 3 "volume"
0.671642 2118.74 1 3 "flux"
1.5357 3230.39 3 3 "liftupdate"
13.549 9771.64 0 4 "volume"
0.687023 1985.36 1 4 "flux"
2.3457 2229.44 3 4 "liftupdate"
21.4237 12879.5 0 5 "volume"
0.696133 1971.75 1 5 "flux"
3.346 4241.64 3 5 "liftupdate"
31.9134 11016.9 0 6 "volume"
0.70195 1890.65 1 6 "flux"
4.53909 5160.76 3 6 "liftupdate"
EOD
$s << EOD
6.65129 4717.24 3
10.567 4119.2 4
15.8419 7007.38 5
22.6647 7639.2 6
EOD
set terminal pngcairo size 1000,680 font ',10' noenhanced
set output 'roofline.png'
set title 'NVIDIA H100 80GB HBM3: roofline of the tuned variant (double)'
set xlabel 'arithmetic intensity (flop / minimum byte)'
set ylabel 'GFLOP/s'
set logscale xy
set grid
set key bottom right
set xrange [0.05:200]
set yrange [*:81465.6]
bw = 2924.9
peak = 32586.3
fma = 32586.3
gemm = 0
roof(x) = (x * bw < peak) ? x * bw : peak
set label 1 sprintf('bandwidth %.1f GB/s', bw) at 0.08, 0.08 * bw * 1.6 rotate by 33
set label 2 sprintf('peak %.0f GFLOP/s', peak) at 30, peak * 1.15
set palette defined (1 '#1f77b4', 4 '#2ca02c', 8 '#d62728')
set cbrange [1:8]
set cblabel 'order N'
set cbtics 1
plot roof(x) with lines lw 3 lc rgb '#333333' title 'roofline (measured)', \
  $k using ($3 == 0 ? $1 : 1/0):2:4 with points pt 7 ps 1.6 lc palette title 'volume', \
  $k using ($3 == 1 ? $1 : 1/0):2:4 with points pt 5 ps 1.6 lc palette title 'flux', \
  $k using ($3 == 3 ? $1 : 1/0):2:4 with points pt 11 ps 1.6 lc palette title 'liftupdate', \
  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', \
  $s using 1:2:(sprintf('N%d', $3)) with labels offset 1.6,0 font ',8' notitle
