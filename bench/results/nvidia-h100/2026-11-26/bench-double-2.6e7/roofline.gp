# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
8.44608 8189.12 10 3 "rhsres"
0.0833333 246.782 11 3 "qupdate"
13.5494 11168.3 0 4 "volume"
4.39264 6913.26 4 4 "fluxlift"
0.125 361.82 5 4 "update"
21.4258 17176 0 5 "volume"
0.696133 1913.11 1 5 "flux"
3.34606 8459.1 3 5 "liftupdate"
31.9186 15468.9 0 6 "volume"
0.70195 1804.83 1 6 "flux"
4.53919 8421.97 3 6 "liftupdate"
EOD
$s << EOD
6.65135 6470.58 3
10.5672 6805.05 4
15.8431 10760.5 5
22.6672 10962.4 6
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
set yrange [*:81356.6]
bw = 2919.81
peak = 32542.6
fma = 32542.6
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
