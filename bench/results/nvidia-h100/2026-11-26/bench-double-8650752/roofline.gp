# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
2.40476 3796.72 10 1 "rhsres"
0.0833333 254.831 11 1 "qupdate"
4.80618 5263.04 10 2 "rhsres"
0.0833333 210.734 11 2 "qupdate"
8.44572 7566 10 3 "rhsres"
0.0833333 250.923 11 3 "qupdate"
13.5475 10536.4 0 4 "volume"
4.39247 6571.78 4 4 "fluxlift"
0.125 361.254 5 4 "update"
21.4178 15925.5 0 5 "volume"
0.696133 1958.21 1 5 "flux"
3.34586 7787.09 3 5 "liftupdate"
31.8922 14541.9 0 6 "volume"
0.70195 1864.69 1 6 "flux"
4.53866 7960.6 3 6 "liftupdate"
EOD
$s << EOD
2.06 2984.62 1
3.89495 4024.46 2
6.65113 6101.91 3
10.5662 6542.86 4
15.8388 10083.3 5
22.6542 10441.8 6
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
set yrange [*:81463.1]
bw = 2938.73
peak = 32585.2
fma = 32585.2
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
  $k using ($3 == 4 ? $1 : 1/0):2:4 with points pt 13 ps 1.6 lc palette title 'fluxlift', \
  $k using ($3 == 5 ? $1 : 1/0):2:4 with points pt 15 ps 1.6 lc palette title 'update', \
  $k using ($3 == 10 ? $1 : 1/0):2:4 with points pt 14 ps 1.6 lc palette title 'rhsres', \
  $k using ($3 == 11 ? $1 : 1/0):2:4 with points pt 3 ps 1.6 lc palette title 'qupdate', \
  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', \
  $s using 1:2:(sprintf('N%d', $3)) with labels offset 1.6,0 font ',8' notitle
